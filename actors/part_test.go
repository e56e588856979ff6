package actors

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/partlog"
)

// TestPartsApplyIndependently runs the engine on four streams: accounts
// spread over them, each part's records are applied under its own index,
// and a restart recovers every part from its own log and index.
func TestPartsApplyIndependently(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := jetstreamConfig(t, dir)
	cfg.Partitions = 4
	e := openEngineWith(t, cfg)
	require.Len(t, e.parts, 4)
	var accts []string
	for range 16 {
		acct := createAccount(t, e)
		accts = append(accts, acct)
		out, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(len(accts))})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status)
		p := e.partOf(acct)
		require.GreaterOrEqual(t, p.log().LastIndex(), uint64(2), "the account's records are in its part's log")
	}
	used := 0
	for _, p := range e.parts {
		if p.log().LastIndex() > 0 {
			used++
		}
	}
	require.GreaterOrEqual(t, used, 2, "16 accounts in one part of four")
	require.NoError(t, e.CatchUp(ctx))
	for _, p := range e.parts {
		idx, err := e.store.PartAppliedIndex(p.n)
		require.NoError(t, err)
		require.Equal(t, p.log().LastIndex(), idx, "part %d's records are in the store under its own index", p.n)
	}
	for _, acct := range accts {
		st, ok, err := e.store.LoadAccount(acct, time.Now())
		require.NoError(t, err)
		require.True(t, ok)
		require.Len(t, st.Contacts, 1, acct)
	}
	require.NoError(t, e.Close())

	e = openEngineWith(t, cfg)
	defer e.Close()
	for i, acct := range accts {
		out, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(100 + i)})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status)
		st := liveState(t, e, acct)
		require.Len(t, st.Contacts, 2, "%s: the contact from before the restart and the new one", acct)
	}
}

func TestPartitionsNeedStreams(t *testing.T) {
	_, err := Open(Config{DataDir: t.TempDir(), Partitions: 4})
	require.ErrorContains(t, err, "want 1 (the local log)")
	cfg := jetstreamConfig(t, t.TempDir())
	cfg.Partitions = 65
	_, err = Open(cfg)
	require.ErrorContains(t, err, "up to 64 streams")
}

// closeCounted is a log that counts its Close calls.
type closeCounted struct {
	partlog.PartitionLog
	closes *atomic.Int32
}

func (l closeCounted) Close() error {
	l.closes.Add(1)
	return l.PartitionLog.Close()
}

// TestOpenFailsWholeAndClosesWhatItOpened opens the engine's 12 logs
// concurrently, one of which refuses: Open fails with the refusal and
// closes each log it had opened, once.
func TestOpenFailsWholeAndClosesWhatItOpened(t *testing.T) {
	cfg := jetstreamConfig(t, t.TempDir())
	cfg.Partitions = 12
	var opened, closes atomic.Int32
	open := cfg.OpenLog
	cfg.OpenLog = func(part int, opts partlog.Options) (partlog.PartitionLog, error) {
		if part == 3 {
			return nil, fmt.Errorf("stream %d refused", part)
		}
		l, err := open(part, opts)
		if err != nil {
			return nil, err
		}
		opened.Add(1)
		return closeCounted{l, &closes}, nil
	}
	e, err := Open(cfg)
	require.Nil(t, e)
	require.EqualError(t, err, "actors: open log 3: stream 3 refused")
	require.Positive(t, opened.Load())
	require.Equal(t, opened.Load(), closes.Load(), "every log opened is closed once")
}

func TestFirstOfSaysHowManyFailed(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	for _, tc := range []struct {
		errs []error
		want string
	}{
		{[]error{nil, nil}, ""},
		{[]error{nil, a, nil}, "a"},
		{[]error{nil, a, b, b}, "a (and 2 more logs did not open)"},
	} {
		err := firstOf(tc.errs)
		if tc.want == "" {
			require.NoError(t, err)
			continue
		}
		require.EqualError(t, err, tc.want)
		require.ErrorIs(t, err, a)
	}
}
