package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd"
)

// TestLedgerPhase fills a small ledger the way the ledger phase does, reads
// it back through the engine, then runs the phase's list loads and export
// against an in-process httpd.Server on loopback.
func TestLedgerPhase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fill, err := FillLedger(ctx, LedgerFillConfig{DataDir: dir, Rows: []int{1000, 300}, Keys: []int{2, 2}, Workers: 64, Confirm: true})
	require.NoError(t, err)
	require.Equal(t, 1300, fill.Rows)
	require.Equal(t, uint64(3*1300), fill.LogRecords) // a create, a confirm and its event's fan-out each
	require.Positive(t, fill.DataDirBytes)
	long, list := &fill.Accounts[0], &fill.Accounts[1]
	require.Len(t, long.Cursors, 1000)
	require.Len(t, list.Cursors, 300)

	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := actors.Open(actors.Config{DataDir: dir, Logger: quiet})
	require.NoError(t, err)
	t.Cleanup(func() { _ = e.Close() })
	require.NoError(t, e.Recover())
	require.NoError(t, e.LiveRows(domain.KindEvent, nil, 1, func(r domain.Row) error {
		return fmt.Errorf("event %s left for the server to fan out", r.RowID())
	}))

	// Every transfer is in the ledger once, newest first, confirmed.
	var got []*domain.LedgerEntry
	require.NoError(t, e.Ledger(ctx, long.ID, "", domain.LedgerFilter{}, func(le *domain.LedgerEntry) bool {
		got = append(got, le)
		return true
	}))
	require.Len(t, got, 1000)
	for i, le := range got {
		require.Equal(t, long.Cursors[i], le.ID, "entry %d", i)
		require.Equal(t, domain.LedgerTransfer, le.Type)
		require.Equal(t, domain.TransferConfirmed, le.State)
		require.Equal(t, ledgerTxHash(le.ID), le.TxHash)
	}

	srv, err := httpd.New(httpd.Config{BasePath: basePath, Logger: quiet, Started: time.Now().Add(-2 * time.Second)}, e)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown(ctx) })
	addr := ln.Addr().String()

	judged, other := ledgerQueries(list, long)
	listKS, longKS := NewKeySet(list.Keys, readBudget), NewKeySet(long.Keys[1:], readBudget)
	var runs []*ListResult
	for i, q := range append(judged, other) {
		ks := listKS
		if i == len(judged) {
			ks = longKS
		}
		r, err := RunList(ListLoad{Name: q.Name, Addr: addr, Keys: ks, Conns: 4, Warmup: 5, N: 20, Query: q, Seed: uint64(i)})
		require.NoError(t, err)
		require.True(t, r.Valid(), "%s: %s", q.Name, r.FirstProblem)
		require.Equal(t, int64(20), r.Latency.Count)
		runs = append(runs, r)
	}
	m := MergeLists("all", runs...)
	require.Equal(t, int64(80), m.OK)
	require.True(t, m.Valid())

	ex := RunExport(ctx, addr, long.Keys[0], exportPath, 0, 1000)
	require.True(t, ex.Valid(), "%+v", ex)
	require.Equal(t, int64(1000), ex.Rows)
	require.Positive(t, ex.Bytes)
	// The list account's export holds its own rows only; a filter narrows it.
	ex = RunExport(ctx, addr, list.Keys[0], exportPath+"?currency=EURC", 0, 150)
	require.True(t, ex.Valid(), "%+v", ex)

	// The report's rows judge what was measured.
	ph := &LedgerPhase{Fill: fill, ListEntries: 300, ExportEntries: 1000, Sequential: m, Concurrent: m, LongLedger: runs[3],
		Export: RunExport(ctx, addr, long.Keys[0], exportPath+"?_r=2", os.Getpid(), 1000)} // this process serves: sample its RSS
	rows := ledgerRows(ph)
	require.Len(t, rows, 6)
	for _, r := range rows[1:3] {
		require.Contains(t, []string{"PASS", "FAIL"}, r.Result, r.Name)
	}
	require.Positive(t, ph.Export.RSSBeforeBytes)
	require.Equal(t, "PASS", rows[5].Result, rows[5].Detail) // a 1,000-row export grows no RSS to speak of
}
