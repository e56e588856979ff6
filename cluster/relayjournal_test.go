package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/natsnode/natstest"
)

// TestRelayJournalFencesTheDeposed: a journal opened after another's
// records reads them back (the latest per nonce); once it records, the
// older journal's next record is fenced and it knows it is deposed.
func TestRelayJournalFencesTheDeposed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns, err := natstest.StartJetStream(t.TempDir(), "relay-journal")
	require.NoError(t, err)
	t.Cleanup(ns.Close)
	js := ns.JS

	old, err := OpenRelayJournal(ctx, js, 1)
	require.NoError(t, err)
	require.NoError(t, old.Record(ctx, 5, []byte("a")))
	require.NoError(t, old.Record(ctx, 6, []byte("b")))
	require.NoError(t, old.Record(ctx, 5, []byte("a again")))

	heir, err := OpenRelayJournal(ctx, js, 1)
	require.NoError(t, err)
	latest, err := heir.Latest(ctx)
	require.NoError(t, err)
	require.Equal(t, map[uint64][]byte{5: []byte("a again"), 6: []byte("b")}, latest)
	require.NoError(t, heir.Record(ctx, 7, []byte("c")))
	require.False(t, heir.Deposed())

	require.Error(t, old.Record(ctx, 7, []byte("c from the deposed")))
	require.True(t, old.Deposed())
	latest, err = heir.Latest(ctx)
	require.NoError(t, err)
	require.Equal(t, []byte("c"), latest[7], "the deposed relayer's record is not there")
}
