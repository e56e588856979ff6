package jslog_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
)

// A follower opened on a stream with entries starts at its end, follows
// every later append of the writer (LastIndex, Committed), reads what it
// follows verified like any reader, and refuses appends. On a 3-node
// cluster the follower is on another node than the writer.
func TestFollow(t *testing.T) {
	for _, tc := range []struct {
		name           string
		replicas       int
		writer, reader func(t testing.TB) jetstream.JetStream
	}{
		{"R1", 1, soloJS, soloJS},
		{"R3", 3, func(t testing.TB) jetstream.JetStream { return clusterJS(t, 0) }, func(t testing.TB) jetstream.JetStream { return clusterJS(t, 2) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			wjs := tc.writer(t)
			cfg := jslog.Config{Stream: newStream(t, wjs), Replicas: tc.replicas}
			w, err := jslog.Open(ctx, wjs, cfg, partlog.Options{})
			require.NoError(t, err)
			t.Cleanup(func() { _ = w.Close() })
			for i := range 5 {
				_, err := w.Append(fmt.Appendf(nil, "before-%d", i))
				require.NoError(t, err)
			}

			f, err := jslog.Open(ctx, tc.reader(t), cfg, partlog.Options{Follow: true})
			require.NoError(t, err)
			require.Equal(t, uint64(5), f.LastIndex(), "a follower starts at the stream's end")
			_, err = f.Append([]byte("x"))
			require.ErrorIs(t, err, jslog.ErrFollower)
			require.ErrorIs(t, f.Enqueue([]byte("x"), nil), jslog.ErrFollower)

			for i := range 200 {
				require.NoError(t, w.Enqueue(fmt.Appendf(nil, "after-%d", i), nil))
			}
			_, err = w.Append([]byte("last"))
			require.NoError(t, err)
			deadline := time.After(10 * time.Second)
			for f.LastIndex() < w.LastIndex() {
				select {
				case <-f.Committed():
				case <-deadline:
					t.Fatalf("follower at %d, writer at %d", f.LastIndex(), w.LastIndex())
				}
			}
			require.Equal(t, uint64(206), f.LastIndex())
			var got []string
			require.NoError(t, f.Scan(1, func(index uint64, payload []byte) error {
				got = append(got, string(payload))
				return nil
			}))
			require.Len(t, got, 206)
			require.Equal(t, "before-0", got[0])
			require.Equal(t, "after-199", got[204])
			require.Equal(t, "last", got[205])

			// What the follower followed it reads from memory, not from
			// the stream's leader: with the stream purged behind its back,
			// the newest entry still scans (the message before it, read
			// for the chain's link, was followed too); the first,
			// from before it followed, is read from the leader, which no
			// longer has it.
			_, err = w.Append([]byte("final"))
			require.NoError(t, err)
			require.Eventually(t, func() bool { return f.LastIndex() == 207 }, 10*time.Second, time.Millisecond)
			s, err := wjs.Stream(ctx, cfg.Stream)
			require.NoError(t, err)
			require.NoError(t, s.Purge(ctx))
			got = got[:0]
			require.NoError(t, f.Scan(207, func(index uint64, payload []byte) error {
				got = append(got, string(payload))
				return nil
			}))
			require.Equal(t, []string{"final"}, got)
			require.Error(t, f.Scan(1, func(uint64, []byte) error { return nil }))
			require.NoError(t, f.Close())
			require.ErrorIs(t, f.Close(), jslog.ErrClosed)
		})
	}
}
