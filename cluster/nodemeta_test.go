package cluster

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
)

// TestNodeMeta: facts survive a reopen, a name outside a-z and _ is
// refused, and the chain binding refuses another chain.
func TestNodeMeta(t *testing.T) {
	dir := t.TempDir()
	m, err := OpenNodeMeta(dir)
	require.NoError(t, err)
	v, err := m.Meta("watch_block")
	require.NoError(t, err)
	require.Empty(t, v)
	require.NoError(t, m.PutMeta("watch_block", "7:0xabc"))
	require.NoError(t, m.PutMeta("watch_block", "8:0xdef"))
	for _, bad := range []string{"", "../x", "Watch", "a/b"} {
		require.Error(t, m.PutMeta(bad, "x"), "%q", bad)
	}
	require.NoError(t, actors.BindChain(m, "0x01"))

	m, err = OpenNodeMeta(dir)
	require.NoError(t, err)
	v, err = m.Meta("watch_block")
	require.NoError(t, err)
	require.Equal(t, "8:0xdef", v)
	require.NoError(t, actors.BindChain(m, "0x01"))
	require.ErrorContains(t, actors.BindChain(m, "0x02"), "belongs to the chain with genesis 0x01")
}
