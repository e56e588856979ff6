package httpd

import (
	"bufio"
	"context"
	"encoding/csv"
	"time"

	"github.com/fxd-labs/fxd/domain"
)

// exportPage is how many ledger entries the export reads per store
// iterator: memory stays one page whatever the ledger's length.
const exportPage = 1000

// exportTimeout bounds one export (a million rows take seconds).
const exportTimeout = 10 * time.Minute

// ledgerQuery reads the filters of GET /transactions and its export.
func (rc *reqCtx) ledgerQuery() (domain.LedgerFilter, *domain.Error) {
	a := rc.ctx.QueryArgs()
	return domain.ParseLedgerFilter(string(a.Peek("type")), string(a.Peek("currency")), string(a.Peek("from")), string(a.Peek("to")))
}

func (s *Server) listTransactions(rc *reqCtx) {
	page, derr := rc.page()
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

// exportTransactions streams the ledger as CSV (RFC 4180, encoding/csv),
// a page of entries at a time from the store, so a million rows never
// sit in memory. A store failure mid-stream closes the connection, so the
// client sees a broken chunked body rather than a short file that looks
// whole.
func (s *Server) exportTransactions(rc *reqCtx) {
	f, derr := rc.ledgerQuery()
	if derr != nil {
		writeError(rc.ctx, derr)
		return
	}
	acct := rc.key.Account
	rc.ctx.SetStatusCode(200)
	rc.ctx.SetContentType("text/csv")
	rc.ctx.Response.Header.Set("Content-Disposition", `attachment; filename="transactions.csv"`)
	conn := rc.ctx.Conn()
	rc.ctx.SetBodyStreamWriter(func(w *bufio.Writer) {
		if err := s.writeLedgerCSV(w, acct, f); err != nil {
			s.cfg.Logger.Error("export failed mid-stream", "account", acct, "err", err.Error())
			_ = conn.Close()
		}
	})
}

// writeLedgerCSV writes the header and every selected entry, page by page.
func (s *Server) writeLedgerCSV(w *bufio.Writer, acct string, f domain.LedgerFilter) error {
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	defer cancel()
	cw := csv.NewWriter(w)
	if err := cw.Write(domain.LedgerCSVHeader); err != nil {
		return err
	}
	var row []string
	after := ""
	for {
		n := 0
		var werr error
		err := s.engine.Ledger(ctx, acct, after, f, func(e *domain.LedgerEntry) bool {
			row = domain.CSVRecord(row, e)
			werr = cw.Write(row)
			n, after = n+1, e.ID
			return werr == nil && n < exportPage
		})
		if err == nil {
			err = werr
		}
		if err != nil {
			return err
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		if n < exportPage {
			return nil
		}
	}
}
