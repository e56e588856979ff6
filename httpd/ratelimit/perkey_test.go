package ratelimit

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPerKey(t *testing.T) {
	p := NewPerKey(DefaultLimits)
	a := p.Get([]byte("svc_test_a"))
	require.Same(t, a, p.Get([]byte("svc_test_a")))
	require.NotSame(t, a, p.Get([]byte("svc_test_b")))
	require.Equal(t, 2, p.Len())

	key := []byte("svc_test_a")
	require.Zero(t, testing.AllocsPerRun(100, func() { p.Get(key) }))

	p.Forget("svc_test_a")
	require.Equal(t, 1, p.Len())
	require.NotSame(t, a, p.Get([]byte("svc_test_a")), "a forgotten key starts afresh")
}
