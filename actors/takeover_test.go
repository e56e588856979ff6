package actors

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// TestTakeoverOnJetStream is a partition changing owner: engine A serves
// on a stream; engine B opens the same stream with an empty store of its
// own (a node that never applied it) and, while A still runs, recovers
// every acknowledged write from the stream alone. B's first append fences
// A: A's next write fails, its OnFatal runs once, and nothing it was
// refused is in the log.
func TestTakeoverOnJetStream(t *testing.T) {
	ctx := context.Background()
	var fatals []error
	var mu sync.Mutex
	cfgA := streamConfig(t, t.TempDir(), "engine_takeover")
	cfgA.WAL.OnFatal = func(err error) { mu.Lock(); fatals = append(fatals, err); mu.Unlock() }
	a := openEngineWith(t, cfgA)
	require.Nil(t, a.local(), "the engine runs on the stream, not a local log")
	acct := createAccount(t, a)
	for i := range 20 {
		out, err := a.Exec(ctx, acct, domain.Request{Cmd: contactCmd(i)})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status)
	}
	want := liveState(t, a, acct)

	b := openEngineWith(t, streamConfig(t, t.TempDir(), "engine_takeover"))
	defer b.Close()
	require.Equal(t, a.LastIndex(), b.LastIndex())
	_, err := b.Ask(ctx, acct, domain.GetAccount{})
	require.NoError(t, err)
	requireSameState(t, want, liveState(t, b, acct))

	out, err := b.Exec(ctx, acct, domain.Request{Cmd: contactCmd(100)})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status)
	last := b.LastIndex()

	// The write A enqueued is never acknowledged (its append was fenced;
	// a cluster node then gives the partition up), so its caller sees its
	// deadline, and the next is refused at once by the failed log.
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err = a.Exec(wctx, acct, domain.Request{Cmd: contactCmd(200)})
	require.Error(t, err, "a deposed owner never appends")
	_, err = a.Exec(wctx, acct, domain.Request{Cmd: contactCmd(201)})
	require.Error(t, err)
	mu.Lock()
	require.Len(t, fatals, 1)
	require.Contains(t, fatals[0].Error(), "fenced")
	mu.Unlock()
	_ = a.Close()
	require.Equal(t, last, b.LastIndex(), "A's refused write is not in the log")
}
