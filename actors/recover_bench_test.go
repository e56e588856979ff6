package actors

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/wal"
	"github.com/stretchr/testify/require"
)

// writeContactLog writes n committed records straight into a fresh log:
// 100 accounts, then contacts spread over them, each with an idempotency
// record, the shape of the crash test's load.
func writeContactLog(tb testing.TB, dir string, n int) {
	l, _, err := wal.Open(filepath.Join(dir, "wal"), wal.Options{})
	require.NoError(tb, err)
	now := time.Unix(1795000000, 0).UTC()
	var wg sync.WaitGroup
	done := func(uint64) { wg.Done() }
	for i := 0; i < n; i++ {
		acct := fmt.Sprintf("acct_%03d", i%100)
		var rec domain.Record
		if i < 100 {
			rec = domain.Record{Entity: acct, Events: []domain.Event{{Kind: domain.EvAccountPut, Account: &domain.Account{ID: acct, Name: "a", KYC: domain.KYCApproved, CreatedAt: now, UpdatedAt: now}}}}
		} else {
			c := &domain.Contact{ID: fmt.Sprintf("ct_%09d", i), Account: acct, Name: "n", Address: "0x00000000000000000000000000000000000000AA", CreatedAt: now, UpdatedAt: now}
			rec = domain.Record{Entity: acct, Events: []domain.Event{{Kind: domain.EvContactPut, Contact: c},
				{Kind: domain.EvIdemPut, Idem: &domain.IdemRecord{Scope: domain.IdemScope("k", "POST", "/contacts", c.ID), Status: 201, Body: []byte(`{"id":"` + c.ID + `"}`), CreatedAt: now}}}}
		}
		wg.Add(1)
		for {
			err := l.Enqueue(domain.MarshalRecord(nil, &rec), done)
			if err == nil {
				break
			}
			require.ErrorIs(tb, err, wal.ErrQueueFull)
			time.Sleep(time.Millisecond)
		}
	}
	wg.Wait()
	require.NoError(tb, l.Close())
}

// BenchmarkRecover measures start-up replay: a log of records the snapshot
// store has never seen is applied to Pebble by Recover. Reported as
// ns/record and ms per million records.
func BenchmarkRecover(b *testing.B) {
	const records = 200_000
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		writeContactLog(b, dir, records)
		b.StartTimer()
		start := time.Now()
		e, err := Open(Config{DataDir: dir, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
		require.NoError(b, err)
		require.NoError(b, e.Recover())
		took := time.Since(start)
		b.StopTimer()
		require.Equal(b, uint64(records), e.AppliedIndex())
		require.NoError(b, e.Close())
		b.ReportMetric(float64(took.Nanoseconds())/records, "ns/record")
		b.ReportMetric(float64(took.Milliseconds())*1e6/records, "ms/1M-records")
	}
}

func TestRecoverReplaysAWholeLog(t *testing.T) {
	dir := t.TempDir()
	writeContactLog(t, dir, 2000)
	e := openEngine(t, dir)
	defer e.Close()
	require.Equal(t, uint64(2000), e.AppliedIndex())
	st, ok, err := e.store.LoadAccount("acct_007", time.Unix(1795000000, 0))
	require.NoError(t, err)
	require.True(t, ok)
	require.Len(t, st.Contacts, 19, "accounts 0..99 get contacts 100..1999 round robin")
	require.Equal(t, 19, st.Idem.Len())
}
