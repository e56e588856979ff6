package httpd

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"time"

	"github.com/fxd-labs/fxd/domain"
)

// exportPage is how many ledger entries the export reads per store
// iterator: memory stays one page whatever the ledger's length.
const exportPage = 1000

// ledgerQuery reads the filters of GET /transactions and its export.
func (rc *reqCtx) ledgerQuery() (domain.LedgerFilter, *domain.Error) {
	var v [4]string
	for i, name := range [...]string{"type", "currency", "from", "to"} {
		var err *domain.Error
		if v[i], err = rc.filterArg(name); err != nil {
			return domain.LedgerFilter{}, err
		}
	}
	return domain.ParseLedgerFilter(v[0], v[1], v[2], v[3])
}

func (s *Server) listTransactions(rc *reqCtx) {
	page, derr := rc.page(entryCursor)
	if derr == nil {
		var f domain.LedgerFilter
		if f, derr = rc.ledgerQuery(); derr == nil {
			s.ledgerPage(rc, page, f)
			return
		}
	}
	writeError(rc.ctx, derr)
}

func (s *Server) ledgerPage(rc *reqCtx, page domain.Page, f domain.LedgerFilter) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	// One more than the page says whether there is a next one.
	entries := make([]*domain.LedgerEntry, 0, page.Limit+1)
	err := s.engine.Ledger(ctx, rc.key.Account, page.StartingAfter, f, func(e *domain.LedgerEntry) bool {
		entries = append(entries, e)
		return len(entries) <= page.Limit
	})
	if err != nil {
		rc.engineError(err)
		return
	}
	writeJSON(rc, 200, domain.Paginate(entries, func(e *domain.LedgerEntry) string { return e.ID }, domain.ViewLedger,
		domain.Page{Limit: page.Limit}))
}

// exportTransactions streams the ledger as CSV (RFC 4180, appendCSVRecord),
// a page of entries at a time read in place from the store, so a million
// rows never sit in memory and make next to no garbage.
func (s *Server) exportTransactions(rc *reqCtx) {
	f, derr := rc.ledgerQuery()
	if derr != nil {
		writeError(rc.ctx, derr)
		return
	}
	rc.ctx.SetStatusCode(200)
	rc.ctx.SetContentType("text/csv")
	rc.ctx.Response.Header.Set("Content-Disposition", `attachment; filename="transactions.csv"`)
	rc.ctx.SetBodyStream(&ledgerExport{s: s, reqID: answerRequestID(rc.ctx), acct: rc.key.Account, filter: f, conn: rc.ctx.Conn()}, -1)
}

// exportWriteBuf is the size of the chunks the export hands to the
// connection: fasthttp frames each Write as one chunk, so 64 KiB writes are
// 16 times fewer system calls than its 4 KiB copy buffer.
const exportWriteBuf = 64 << 10

// exportPageTimeout bounds writing one page to a slow client; the
// server's whole-response write deadline (30 s) is pushed forward by it
// before every page, so a long export is cut only when the client stalls.
const exportPageTimeout = 30 * time.Second

// ledgerExport is the export's body. fasthttp calls WriteTo (it says
// SupportsBodyWriteTo), which writes straight through a 64 KiB buffer;
// Read serves the same bytes a page at a time for any caller that reads.
type ledgerExport struct {
	s      *Server
	reqID  string // the answer's Request-Id, for the log line of a failure mid-stream
	acct   string
	filter domain.LedgerFilter
	conn   net.Conn

	// The export's state between pages.
	started bool
	after   string // the last entry written
	done    bool
	page    bytes.Buffer // Read's unread bytes
	cells   []string
	scratch []byte
}

func (x *ledgerExport) SupportsBodyWriteTo() bool { return true }

// WriteTo writes the header and every selected entry, page by page. A
// store failure mid-stream is returned: fasthttp closes the connection, so
// the client sees a broken chunked body, never a short file that looks
// whole.
func (x *ledgerExport) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, exportWriteBuf)
	var total int64
	for !x.done {
		if err := x.nextPage(); err != nil {
			return total, err
		}
		n, err := x.page.WriteTo(bw)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, bw.Flush()
}

// Read serves the export a page at a time.
func (x *ledgerExport) Read(p []byte) (int, error) {
	for x.page.Len() == 0 {
		if x.done {
			return 0, io.EOF
		}
		if err := x.nextPage(); err != nil {
			return 0, err
		}
	}
	return x.page.Read(p)
}

// nextPage renders the next exportPage entries (the header first) into
// x.page, each page through a store iterator of its own, and pushes the
// connection's write deadline forward.
func (x *ledgerExport) nextPage() error {
	if x.conn != nil {
		if err := x.conn.SetWriteDeadline(time.Now().Add(exportPageTimeout)); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if !x.started {
		x.started = true
		x.page.Write(appendCSVRecord(x.page.AvailableBuffer(), domain.LedgerCSVHeader[:]))
	}
	n := 0
	err := x.s.engine.LedgerRows(ctx, x.acct, x.after, x.filter, func(r *domain.LedgerRow) bool {
		x.cells, x.scratch = domain.CSVCells(x.cells, x.scratch, r)
		x.page.Write(appendCSVRecord(x.page.AvailableBuffer(), x.cells))
		n++
		if n == exportPage { // the cursor of the next page (one string per page)
			x.after = string(r.ID)
		}
		return n < exportPage
	})
	if err != nil {
		x.s.cfg.Logger.Error("export failed mid-stream", "request_id", x.reqID, "account", x.acct, "err", err.Error())
		return err
	}
	x.done = n < exportPage
	return nil
}
