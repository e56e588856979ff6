package jslog

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/wal"
)

// TestRecent holds the ring to its rules: consecutive sequences, the
// oldest dropped past either bound, a gap starting it again.
func TestRecent(t *testing.T) {
	msg := func(seq uint64, size int) *message {
		return &message{seq: seq, first: seq * 10, frames: make([]wal.Frame, 1), size: size}
	}
	held := func(r *recent) (seqs []uint64) {
		for _, m := range r.msgs {
			seqs = append(seqs, m.seq)
		}
		return seqs
	}
	var r recent
	require.Nil(t, r.get(1), "empty")
	for s := uint64(1); s <= recentMessages+3; s++ {
		r.put(msg(s, 10))
	}
	require.Len(t, r.msgs, recentMessages, "bounded by count")
	require.Nil(t, r.get(3), "dropped")
	require.Equal(t, uint64(40), r.get(4).first)
	require.Equal(t, uint64(recentMessages+3), r.get(recentMessages+3).seq)
	require.Nil(t, r.get(recentMessages+4), "not yet delivered")
	require.Equal(t, recentMessages*10, r.bytes)
	// Each message holds one entry here (first = seq*10, one frame).
	require.Nil(t, r.holding(39), "below the oldest")
	require.Nil(t, r.holding(41), "between messages: no message holds it")
	require.Equal(t, uint64(5), r.holding(50).seq)
	require.Equal(t, uint64(recentMessages+3), r.holding((recentMessages+3)*10).seq)
	require.Nil(t, r.holding((recentMessages+3)*10+1), "past the newest")

	r.put(msg(200, 10))
	require.Equal(t, []uint64{200}, held(&r), "a gap starts the ring again")
	require.Equal(t, 10, r.bytes)

	r.put(msg(201, recentBytes-5))
	require.Equal(t, []uint64{201}, held(&r), "bounded by bytes: the oldest goes")
	r.put(msg(202, recentBytes+1))
	require.Equal(t, []uint64{202}, held(&r), "one message larger than the bound is still held")
	require.Equal(t, uint64(2020), r.get(202).first)
}
