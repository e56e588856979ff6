package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/wal"
)

func runWAL(args []string) error {
	if len(args) < 1 {
		return errors.New("usage: fxd wal verify|dump --data-dir D")
	}
	fs := newFlags("wal " + args[0])
	dataDir := fs.String("data-dir", "./data", "data directory")
	if _, err := parse(fs, args[1:]); err != nil {
		return err
	}
	dir := filepath.Join(*dataDir, "wal")
	switch args[0] {
	case "verify":
		rep, err := wal.Verify(dir)
		if err != nil {
			return err
		}
		if err := printJSON(verifyView(rep)); err != nil {
			return err
		}
		if rep.Problem != "" {
			fmt.Fprintf(os.Stderr, "fxd: wal verify: index %d: %s\n", rep.ProblemIndex, rep.Problem)
			return exitError{code: 1}
		}
		return nil
	case "dump":
		return dumpWAL(dir)
	}
	return fmt.Errorf("unknown wal command %q", args[0])
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

// dumpWAL prints one JSON line per record: its index, entity and events.
func dumpWAL(dir string) error {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	return wal.ScanDir(dir, func(index uint64, payload []byte) error {
		rec, err := domain.UnmarshalRecord(payload)
		if err != nil {
			return fmt.Errorf("wal dump: index %d: %w", index, err)
		}
		events := make([]map[string]any, 0, len(rec.Events))
		for _, e := range rec.Events {
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
			events = append(events, ev)
		}
		return enc.Encode(map[string]any{"index": index, "entity": rec.Entity, "events": events})
	})
}
