package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/wal"
)

// newWALCmd is `fxd wal verify|dump`: check or print the write-ahead log
// of a data dir (the service may be running: both only read).
func newWALCmd() *cobra.Command {
	group := groupCommand("wal", "Check or print the write-ahead log")
	var dataDir string
	group.PersistentFlags().StringVar(&dataDir, "data-dir", "./data", "data directory")
	verify := &cobra.Command{
		Use:   "verify",
		Short: "Check every record's frame and chain; prints a report, exits 1 on a problem",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return verifyWAL(cmd, filepath.Join(dataDir, "wal"))
		},
	}
	dump := &cobra.Command{
		Use:   "dump",
		Short: "Print the log as one JSON object: {\"records\":[…],\"count\":N}, each record (index, entity, events) on a line of its own",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return dumpWAL(cmd.OutOrStdout(), filepath.Join(dataDir, "wal"))
		},
	}
	group.AddCommand(verify, dump)
	return group
}

// verifyWAL prints the report; a problem found is also a failure.
func verifyWAL(cmd *cobra.Command, dir string) error {
	rep, err := wal.Verify(dir)
	if err != nil {
		return fmt.Errorf("wal verify: %w", err)
	}
	if err := printJSON(cmd.OutOrStdout(), verifyView(rep)); err != nil {
		return err
	}
	if rep.Problem != "" {
		return fmt.Errorf("wal verify: index %d: %s", rep.ProblemIndex, rep.Problem)
	}
	return nil
}

type walReport struct {
	OK           bool   `json:"ok"`
	FirstIndex   uint64 `json:"first_index"`
	LastIndex    uint64 `json:"last_index"`
	Records      uint64 `json:"records"`
	Bytes        int64  `json:"bytes"`
	Segments     int    `json:"segments"`
	TailTorn     bool   `json:"tail_torn"`
	Problem      string `json:"problem,omitempty"`
	ProblemIndex uint64 `json:"problem_index,omitempty"`
}

func verifyView(r wal.VerifyReport) walReport {
	return walReport{OK: r.Problem == "", FirstIndex: r.FirstIndex, LastIndex: r.LastIndex, Records: r.Records,
		Bytes: r.Bytes, Segments: r.Segments, TailTorn: r.TailTorn, Problem: r.Problem, ProblemIndex: r.ProblemIndex}
}

// dumpWAL prints the log as one JSON object, {"records":[…],"count":N},
// as every operator command prints one (CONTRACT.md), streamed: each
// record (index, entity, events) is written as it is read, on a line of
// its own, so a log of any size dumps in constant memory and stays easy to
// grep. A record that fails to read ends the array; the object then closes
// with "error" naming it (what was read before it is kept: an operator
// saves a damaged log's records that way) and the command fails; a log that
// cannot be read at all prints nothing, as any failed command.
func dumpWAL(out io.Writer, dir string) error {
	// The header waits in w's buffer: a log unreadable from its first
	// record returns before any Flush, and stdout stays empty.
	w := bufio.NewWriter(out)
	_, _ = w.WriteString(`{"records":[`)
	count := 0
	err := wal.ScanDir(dir, func(index uint64, payload []byte) error {
		rec, err := domain.UnmarshalRecord(payload)
		if err != nil {
			return fmt.Errorf("wal dump: index %d: %w", index, err)
		}
		events := make([]map[string]any, 0, len(rec.Events))
		for _, e := range rec.Events {
			events = append(events, eventView(e))
		}
		line, err := json.Marshal(map[string]any{"index": index, "entity": rec.Entity, "events": events})
		if err != nil {
			return fmt.Errorf("wal dump: index %d: %w", index, err)
		}
		if count > 0 {
			_ = w.WriteByte(',')
		}
		_ = w.WriteByte('\n')
		_, werr := w.Write(line)
		count++
		return werr
	})
	if err != nil && count == 0 {
		return err // nothing read: nothing on stdout, the message on stderr
	}
	tail := map[string]any{"count": count}
	if err != nil {
		tail["error"] = err.Error()
	}
	end, merr := json.Marshal(tail)
	if merr != nil {
		return merr
	}
	_, _ = fmt.Fprintf(w, "\n],%s\n", end[1:]) // end is {"count":…}: its fields close the object
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// eventView is one event of a record as wal dump prints it.
func eventView(e domain.Event) map[string]any {
	ev := map[string]any{"kind": e.Kind.String()}
	switch {
	case e.Account != nil:
		ev["account"] = e.Account
	case e.Key != nil:
		ev["key"] = e.Key
	case e.Contact != nil:
		ev["contact"] = e.Contact
	case e.Wallet != nil:
		ev["wallet"] = e.Wallet
	case e.Challenge != nil:
		ev["challenge"] = e.Challenge
	case e.Order != nil:
		ev["order"] = domain.ViewOrder(e.Order)
	case e.Transfer != nil:
		ev["transfer"] = domain.ViewTransfer(e.Transfer)
	case e.Link != nil:
		ev["payment_link"] = domain.ViewLink(e.Link)
		ev["forwarded"] = e.Link.Forwarded.String()
	case e.Claim != nil:
		ev["claim"] = e.Claim
	case e.Idem != nil:
		ev["idempotency"] = map[string]any{"scope": e.Idem.Scope, "status": e.Idem.Status,
			"body": string(e.Idem.Body), "created_at": e.Idem.CreatedAt}
	}
	if r := e.Row(); r != nil && r.RowEventID() != "" {
		ev["event_id"] = r.RowEventID()
	}
	if e.ID != "" {
		ev["id"] = e.ID
	}
	if e.Value != "" {
		ev["value"] = e.Value
	}
	return ev
}
