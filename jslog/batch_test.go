package jslog_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
)

// stalledLog opens a log whose writer blocks in OnDurable after its first
// batch until release is closed, so that what is enqueued meanwhile
// waits in the queue; batches records every OnDurable call's entries.
type stalledLog struct {
	*jslog.Log
	release chan struct{}
	batches [][]string // written by the writer only; read after Close
}

func openStalled(t *testing.T, js jetstream.JetStream, cfg jslog.Config) *stalledLog {
	t.Helper()
	s := &stalledLog{release: make(chan struct{})}
	entered := make(chan struct{})
	l, err := jslog.Open(testCtx(t), js, cfg, partlog.Options{OnDurable: func(first uint64, ps [][]byte) {
		var b []string
		for _, p := range ps {
			b = append(b, string(p))
		}
		s.batches = append(s.batches, b)
		if len(s.batches) == 1 {
			close(entered)
			<-s.release
		}
	}})
	require.NoError(t, err)
	s.Log = l
	require.NoError(t, l.Enqueue([]byte("first"), nil))
	<-entered // the writer is stalled; the queue is empty
	return s
}

// What waits while a message is published goes out together as one
// message, within MaxBatch and MaxBatchBytes; the queue refuses appends
// beyond MaxQueue and MaxQueueBytes.
func TestGroupCommitAndQueueBounds(t *testing.T) {
	big := string(bytes.Repeat([]byte("b"), 1000))
	for _, tc := range []struct {
		name    string
		cfg     jslog.Config
		enqueue []string
		full    bool // the next enqueue is ErrQueueFull
		want    [][]string
	}{
		{"one message", jslog.Config{MaxQueue: 3}, []string{"a", "b", "c"}, true, [][]string{{"first"}, {"a", "b", "c"}}},
		{"max batch", jslog.Config{MaxBatch: 2}, []string{"a", "b", "c"}, false, [][]string{{"first"}, {"a", "b"}, {"c"}}},
		{"max batch bytes", jslog.Config{MaxBatchBytes: 2100}, []string{big, big, big}, false, [][]string{{"first"}, {big, big}, {big}}},
		{"max queue bytes", jslog.Config{MaxQueueBytes: 2000}, []string{big, big}, true, [][]string{{"first"}, {big, big}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := soloJS(t)
			cfg := tc.cfg
			cfg.Stream, cfg.Replicas = newStream(t, js), 1
			s := openStalled(t, js, cfg)
			for _, p := range tc.enqueue {
				require.NoError(t, s.Enqueue([]byte(p), nil))
			}
			if tc.full {
				err := s.Enqueue([]byte("x"), nil)
				require.ErrorIs(t, err, partlog.ErrQueueFull)
				_, err = s.Append([]byte("x"))
				require.ErrorIs(t, err, partlog.ErrQueueFull)
			}
			close(s.release)
			require.NoError(t, s.Close())
			require.Equal(t, tc.want, s.batches)
			requireMessages(t, js, cfg.Stream, len(tc.want))
		})
	}
}

// requireMessages checks that the stream holds n messages.
func requireMessages(t *testing.T, js jetstream.JetStream, stream string, n int) {
	t.Helper()
	st, err := js.Stream(testCtx(t), stream)
	require.NoError(t, err)
	require.EqualValues(t, n, st.CachedInfo().State.Msgs)
}

// Scan finds every index, wherever it sits in a message of many entries
// (binary search over the messages), and TruncateFront keeps the whole
// message holding its index.
func TestScanFindsEveryIndex(t *testing.T) {
	js := soloJS(t)
	cfg := jslog.Config{Stream: newStream(t, js), Replicas: 1, MaxBatch: 7}
	s := openStalled(t, js, cfg)
	const n = 120 // with "first": 121 entries in 1 + 18 messages of up to 7
	for i := range n {
		require.NoError(t, s.Enqueue(payloadOf(uint64(i+2)), nil))
	}
	close(s.release)
	_, err := s.Append(payloadOf(n + 2))
	require.NoError(t, err)
	last := s.LastIndex()
	require.EqualValues(t, n+2, last)

	stop := errors.New("stop")
	for from := uint64(2); from <= last; from++ {
		var got uint64
		err := s.Scan(from, func(index uint64, p []byte) error {
			require.Equal(t, payloadOf(index), p)
			got = index
			return stop
		})
		require.Equal(t, stop, err)
		require.Equal(t, from, got)
	}

	require.NoError(t, s.TruncateFront(40)) // 40 is in the message of 37..43
	require.EqualValues(t, 37, s.FirstIndex())
	require.ErrorIs(t, s.Scan(36, func(uint64, []byte) error { return nil }), partlog.ErrOutOfRange)
	n37 := 0
	require.NoError(t, s.Scan(37, func(index uint64, p []byte) error {
		require.Equal(t, payloadOf(index), p)
		n37++
		return nil
	}))
	require.EqualValues(t, last-36, n37)
}

func payloadOf(i uint64) []byte { return []byte{byte(i), byte(i >> 8), 'p'} }
