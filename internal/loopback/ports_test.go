package loopback

import (
	"errors"
	"net"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFreeAddrsAreDistinctAndBindable(t *testing.T) {
	for range 50 {
		addrs, err := FreeAddrs(8)
		require.NoError(t, err)
		require.Len(t, addrs, 8)
		seen := map[string]bool{}
		for _, a := range addrs {
			require.False(t, seen[a], "port %s handed out twice in one call", a)
			seen[a] = true
		}
		ln, err := net.Listen("tcp", addrs[0])
		require.NoError(t, err, "a returned address is released")
		require.NoError(t, ln.Close())
	}
}

func TestFreeAddrsBounds(t *testing.T) {
	_, err := FreeAddrs(MaxPorts + 1)
	require.ErrorContains(t, err, "at most 64")
	_, err = FreeAddrs(-1)
	require.Error(t, err)
	addrs, err := FreeAddrs(0)
	require.NoError(t, err)
	require.Empty(t, addrs)
}

func TestTakenKnowsABindFailure(t *testing.T) {
	addrs, err := FreeAddrs(1)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", addrs[0])
	require.NoError(t, err)
	defer ln.Close()
	_, err = net.Listen("tcp", addrs[0])
	require.True(t, Taken(err), "%v", err)
	require.False(t, Taken(nil))
	require.False(t, Taken(errors.New("connection refused")))
}
