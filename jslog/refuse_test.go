package jslog_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
)

// Open binds to an existing stream only if the log can be durable and
// consistent on it, and says why not.
func TestOpenRefusesStream(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(c *jetstream.StreamConfig)
		want   string
	}{
		{"memory storage", func(c *jetstream.StreamConfig) { c.Storage = jetstream.MemoryStorage }, "storage is Memory"},
		{"async persist", func(c *jetstream.StreamConfig) { c.PersistMode = jetstream.AsyncPersistMode }, "persist mode is async"},
		{"allow direct", func(c *jetstream.StreamConfig) { c.AllowDirect = true }, "allow direct"},
		{"max age", func(c *jetstream.StreamConfig) { c.MaxAge = time.Hour }, "would drop messages"},
		{"other subjects", func(c *jetstream.StreamConfig) { c.Subjects = append(c.Subjects, "other") }, "want only"},
		{"deny purge", func(c *jetstream.StreamConfig) { c.DenyPurge = true }, "deny purge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := soloJS(t)
			ctx := testCtx(t)
			name := newStream(t, js)
			sc := jetstream.StreamConfig{Name: name, Subjects: []string{"fxd.log." + name}, Storage: jetstream.FileStorage}
			tc.change(&sc)
			_, err := js.CreateStream(ctx, sc)
			require.NoError(t, err)

			l, err := jslog.Open(ctx, js, jslog.Config{Stream: name, Replicas: 1}, partlog.Options{})
			require.Nil(t, l)
			require.ErrorContains(t, err, "refused")
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// The stream Open creates passes its own checks, and says so in its
// config.
func TestOpenCreatesDurableStream(t *testing.T) {
	js := soloJS(t)
	ctx := testCtx(t)
	name := newStream(t, js)
	l, err := jslog.Open(ctx, js, jslog.Config{Stream: name, Replicas: 1}, partlog.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	s, err := js.Stream(ctx, name)
	require.NoError(t, err)
	got := s.CachedInfo().Config
	require.Equal(t, jetstream.FileStorage, got.Storage)
	require.Equal(t, jetstream.DefaultPersistMode, got.PersistMode)
	require.Equal(t, []string{"fxd.log." + name}, got.Subjects)
	require.False(t, got.AllowDirect)
	require.True(t, got.DenyDelete)
}

func TestOpenNeedsStreamName(t *testing.T) {
	_, err := jslog.Open(testCtx(t), soloJS(t), jslog.Config{}, partlog.Options{})
	require.ErrorContains(t, err, "Stream is required")
}
