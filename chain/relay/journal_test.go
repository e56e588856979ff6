package relay

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain"
)

// memJournal is a journal held in memory: what a relayer recorded, and
// what the node knew of each transaction at the moment it was recorded.
type memJournal struct {
	b    chain.Backend
	fail error // Record answers it, when set

	mu     sync.Mutex
	latest map[uint64][]byte
	order  []uint64
	known  int // records of transactions the node already had
}

func (j *memJournal) Record(ctx context.Context, nonce uint64, raw []byte) error {
	if j.fail != nil {
		return j.fail
	}
	var tx types.Transaction
	if err := tx.UnmarshalBinary(raw); err != nil {
		return err
	}
	// Not found, or (a busy simulated node) "indexing in progress": either
	// way the node cannot show it; only an answer with it counts as known.
	_, _, err := j.b.TransactionByHash(ctx, tx.Hash())
	j.mu.Lock()
	defer j.mu.Unlock()
	if err == nil {
		j.known++
	}
	if j.latest == nil {
		j.latest = map[uint64][]byte{}
	}
	j.latest[nonce] = raw
	j.order = append(j.order, nonce)
	return nil
}

// TestJournalRecordsBeforeBroadcast: every transaction is recorded, with
// its nonce, before the node has it; a journal that fails stops the send
// and spends no nonce.
func TestJournalRecordsBeforeBroadcast(t *testing.T) {
	e := newEnv(t)
	j := &memJournal{b: e.client}
	r := New(e.client, e.relayer, simChainID, WithJournal(j), WithPollInterval(5*time.Millisecond))
	ctx := t.Context()
	var sent []*types.Transaction
	for i := range 3 {
		tx, err := r.Send(ctx, e.token, e.approve(i), 0)
		require.NoError(t, err)
		sent = append(sent, tx)
	}
	e.mined(r, sent...)
	require.Len(t, j.order, 3)
	require.Zero(t, j.known, "each recorded before the node had it")
	for _, tx := range sent {
		raw, err := tx.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, raw, j.latest[tx.Nonce()])
	}

	j.fail = errors.New("stream unavailable")
	_, err := r.Send(ctx, e.token, e.approve(3), 0)
	require.ErrorIs(t, err, j.fail)
	require.Equal(t, sent[2].Nonce()+1, e.pendingNonce(), "nothing was broadcast")
	j.fail = nil
	next, err := r.Send(ctx, e.token, e.approve(4), 0)
	require.NoError(t, err)
	require.Equal(t, sent[2].Nonce()+1, next.Nonce(), "the nonce the failed record held is the next one's")
	e.mined(r, next)
}

// TestRebroadcastTakesOver: a relayer records a transaction and dies
// before the node gets it. The relayer that takes the key over sends the
// journal again: the recorded transaction (not a new one) is mined at its
// nonce, the next send follows it, and a second rebroadcast finds nothing
// left to send.
func TestRebroadcastTakesOver(t *testing.T) {
	e := newEnv(t)
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	j := &memJournal{b: e.client}
	node := &flaky{Backend: e.client}
	old := New(node, e.relayer, simChainID, WithJournal(j), WithPollInterval(5*time.Millisecond))
	ctx := t.Context()
	first, err := old.Send(ctx, e.token, e.approve(0), 0)
	require.NoError(t, err)
	node.mode.Store(2) // the connection fails before the node gets it
	lost, err := old.Send(ctx, e.token, e.approve(1), 0)
	require.ErrorIs(t, err, ErrMaybeSent)
	require.Equal(t, first.Nonce()+1, lost.Nonce())

	heir := New(e.client, e.relayer, simChainID, WithJournal(j), WithPollInterval(5*time.Millisecond))
	n, err := Rebroadcast(ctx, e.client, heir.Address(), j.latest, logger)
	require.NoError(t, err)
	require.Equal(t, 2, n, "the pooled one (known already) and the lost one")
	e.mined(heir, first, lost)
	next, err := heir.Send(ctx, e.token, e.approve(2), 0)
	require.NoError(t, err)
	require.Equal(t, lost.Nonce()+1, next.Nonce())
	e.mined(heir, next)

	n, err = Rebroadcast(ctx, e.client, heir.Address(), j.latest, logger)
	require.NoError(t, err)
	require.Zero(t, n, "everything journaled is mined")
}
