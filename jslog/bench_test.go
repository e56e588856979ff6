package jslog_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/cputime"
	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
)

// BenchmarkAppend measures acknowledged 100-byte appends under a closed
// loop of 128 and of 1,024 appenders (on 2 CPUs; Append blocks until the
// PubAck), on a 1-replica stream of one node and a 3-replica stream of a
// 3-node cluster, all in this process. appends/msg is the mean
// group-commit batch: it grows with the appenders, since what arrives
// while one message is in flight goes out in the next.
func BenchmarkAppend(b *testing.B) {
	for _, tc := range []struct {
		name     string
		replicas int
		js       func(t testing.TB) jetstream.JetStream
	}{
		{"R1", 1, soloJS},
		{"R3", 3, func(t testing.TB) jetstream.JetStream { return clusterJS(t, 0) }},
	} {
		for _, perProc := range []int{64, 512} {
			name := fmt.Sprintf("%s/appenders=%d", tc.name, perProc*runtime.GOMAXPROCS(0))
			b.Run(name, func(b *testing.B) {
				benchAppend(b, tc.js(b), tc.replicas, perProc)
			})
		}
	}
}

func benchAppend(b *testing.B, js jetstream.JetStream, replicas, perProc int) {
	cfg := jslog.Config{Stream: newStream(b, js), Replicas: replicas}
	l, err := jslog.Open(testCtx(b), js, cfg, partlog.Options{OnFatal: func(err error) { b.Errorf("OnFatal: %v", err) }})
	require.NoError(b, err)
	defer l.Close()
	payload := bytes.Repeat([]byte("x"), 100)
	b.SetParallelism(perProc) // x GOMAXPROCS goroutines
	cpu0 := cputime.Self()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := l.Append(payload); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	cpu := cputime.Self() - cpu0
	s, err := js.Stream(testCtx(b), cfg.Stream)
	require.NoError(b, err)
	msgs := s.CachedInfo().State.Msgs
	b.ReportMetric(float64(l.LastIndex())/float64(max(msgs, 1)), "appends/msg")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
	// Every node of the cluster, the appenders and the log are in this
	// process: what the whole replicated append costs.
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/append")
}
