package jobs

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// logged records what a logger was given: level, message and the
// "failures" attribute.
type logged struct {
	mu   sync.Mutex
	recs []logRec
}

type logRec struct {
	level    slog.Level
	msg      string
	failures int64
}

func (l *logged) Enabled(context.Context, slog.Level) bool { return true }
func (l *logged) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logged) WithGroup(string) slog.Handler            { return l }
func (l *logged) Handle(_ context.Context, r slog.Record) error {
	rec := logRec{level: r.Level, msg: r.Message}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "failures" {
			rec.failures = a.Value.Int64()
		}
		return true
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, rec)
	return nil
}

// While the chain is away a record's jobs fail every RetryAfter: the log
// warns at the 1st, 2nd, 4th, 8th… failure in a row (the others at debug
// level) and says once when the record's job succeeds again.
func TestFailuresInARowAreLoggedSparsely(t *testing.T) {
	const failures = 9
	c := &clock{t: t0}
	runs := 0
	job := func(context.Context, *row) error {
		runs++
		if runs <= failures {
			return errors.New("chain unreachable")
		}
		return nil
	}
	log := &logged{}
	cfg := config(c, always(job))
	cfg.Logger = slog.New(log)
	d := New(cfg)
	require.NoError(t, d.Track("a", row{}))
	now := t0
	for range failures + 1 {
		require.Equal(t, 1, d.DriveAll(now))
		d.Wait()
		now = now.Add(cfg.RetryAfter)
		c.set(now)
	}
	// finish logs after it frees the slot: wait for the last line.
	var recs []logRec
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if recs = log.snapshot(); len(recs) == failures+1 || time.Now().After(deadline) {
			break
		}
	}
	var warned, debug []int64
	var recovered []logRec
	for _, r := range recs {
		switch {
		case r.msg == "job failed; will retry" && r.level == slog.LevelWarn:
			warned = append(warned, r.failures)
		case r.msg == "job failed; will retry" && r.level == slog.LevelDebug:
			debug = append(debug, r.failures)
		case r.msg == "job succeeded after failures":
			recovered = append(recovered, r)
		}
	}
	require.ElementsMatch(t, []int64{1, 2, 4, 8}, warned)
	require.ElementsMatch(t, []int64{3, 5, 6, 7, 9}, debug, "logged after the slot is freed: in any order")
	require.Equal(t, []logRec{{level: slog.LevelInfo, msg: "job succeeded after failures", failures: failures}}, recovered)
}

func (l *logged) snapshot() []logRec {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]logRec(nil), l.recs...)
}
