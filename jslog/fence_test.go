package jslog_test

import (
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
)

// Two logs on one stream: the second appends, so the first is deposed.
// Its next append fails (fenced), OnFatal runs once, and every append
// after is ErrFailed; nothing it queued is acknowledged or stored. The
// second log goes on, and a reopen sees only the second one's entries.
func TestFence(t *testing.T) {
	for _, tc := range []struct {
		name     string
		replicas int
		js       func(t testing.TB) jetstream.JetStream
	}{
		{"R1", 1, soloJS},
		{"R3", 3, func(t testing.TB) jetstream.JetStream { return clusterJS(t, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := tc.js(t)
			cfg := jslog.Config{Stream: newStream(t, js), Replicas: tc.replicas}
			fenceTest(t, js, cfg)
		})
	}
}

func fenceTest(t *testing.T, js jetstream.JetStream, cfg jslog.Config) {
	ctx := testCtx(t)
	var fatals atomic.Int32
	var fatalErr atomic.Value
	a, err := jslog.Open(ctx, js, cfg, partlog.Options{OnFatal: func(err error) {
		fatals.Add(1)
		fatalErr.Store(err)
	}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = a.Close() })
	_, err = a.Append([]byte("a1"))
	require.NoError(t, err)

	b, err := jslog.Open(ctx, js, cfg, partlog.Options{OnFatal: func(err error) { t.Errorf("b: OnFatal: %v", err) }})
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.Close() })
	index, err := b.Append([]byte("b2"))
	require.NoError(t, err)
	require.Equal(t, uint64(2), index)

	for range 5 {
		// The first may already have failed the log.
		err := a.Enqueue([]byte("a2"), func(uint64) { t.Error("done called for a fenced append") })
		if err != nil {
			require.ErrorIs(t, err, partlog.ErrFailed)
		}
	}
	_, err = a.Append([]byte("a2"))
	require.ErrorIs(t, err, partlog.ErrFailed)
	require.EqualValues(t, 1, fatals.Load())
	require.ErrorContains(t, fatalErr.Load().(error), "fenced")

	for range 3 {
		_, err = a.Append([]byte("a3"))
		require.ErrorIs(t, err, partlog.ErrFailed)
		err = a.Enqueue([]byte("a4"), func(uint64) { t.Error("done called on a failed log") })
		require.ErrorIs(t, err, partlog.ErrFailed)
	}
	require.EqualValues(t, 1, fatals.Load(), "OnFatal more than once")
	require.ErrorIs(t, a.Close(), partlog.ErrFailed)

	index, err = b.Append([]byte("b3"))
	require.NoError(t, err)
	require.Equal(t, uint64(3), index)
	require.NoError(t, b.Close())

	c, err := jslog.Open(ctx, js, cfg, partlog.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	require.Equal(t, []string{"a1", "b2", "b3"}, scanStrings(t, c, 1))
}

// scanStrings returns the payloads from `from` as strings.
func scanStrings(t *testing.T, l partlog.PartitionLog, from uint64) []string {
	t.Helper()
	var out []string
	require.NoError(t, l.Scan(from, func(_ uint64, p []byte) error {
		out = append(out, string(p))
		return nil
	}))
	return out
}
