package bench

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fxd-labs/fxd/internal/procs"
	"github.com/fxd-labs/fxd/wal"
)

// walRounds is how many floor rounds and how many writer rounds the log
// phase alternates: floor, writer, floor, writer. The disk's fsync rate
// drifts by a factor of two within minutes on the shared bench machine, so
// a floor measured once, after the writer, compares the writer with
// another disk; alternating and taking medians compares like with like.
// Four pairs, not two: with two, one slow round of the disk moved the
// median ratio by 0.1 between otherwise equal runs.
const walRounds = 4

// WALResult is the outcome of RunWAL. The top-level figures are over the
// writer rounds (sums, or medians where a rate is judged); Rounds keeps
// each round.
type WALResult struct {
	Goroutines int `json:"goroutines"`
	// GOMAXPROCS is what the phase ran with: fxd serve's (procs.Serving),
	// whatever the rest of fxbench runs with.
	GOMAXPROCS   int     `json:"gomaxprocs"`
	PayloadBytes int     `json:"payload_bytes"`
	Seconds      float64 `json:"measured_s"` // the writer rounds' windows together
	Appends      int64   `json:"appends"`
	Rate         float64 `json:"appends_per_s"`
	// Batches is the number of batches the log made durable in the writer
	// rounds (wal.Log.Batches: one write and one fdatasync each), -1 where
	// not known. BatchesPerSec is the median of the rounds' rates.
	Batches       int64   `json:"fsync_batches"`
	BatchesPerSec float64 `json:"fsyncs_per_s"`
	MeanBatch     float64 `json:"mean_batch"`
	Latency       Latency `json:"append_latency"`
	Errors        int64   `json:"errors"`
	FirstError    string  `json:"first_error,omitempty"`
	LastIndex     uint64  `json:"last_index"`
	// BatchBytes is the mean bytes of one batch's write (/proc/self/io
	// wchar over Batches); -1 where not available.
	BatchBytes float64 `json:"batch_bytes"`
	// The raw floor on the same disk, in the floor rounds: one goroutine
	// writing the writer's mean batch bytes and calling fdatasync, as
	// often as it can (median of the rounds). The log's target is relative
	// to it (the absolute rate is the disk's): FsyncRatio is the median
	// writer round's fsyncs/s over the median floor round's.
	FloorFsyncsPerSec float64    `json:"floor_fsyncs_per_s"`
	FsyncRatio        float64    `json:"fsyncs_vs_floor"`
	Rounds            []WALRound `json:"rounds,omitempty"`
}

// WALRound is one round of the log phase, in the order run.
type WALRound struct {
	Kind         string  `json:"kind"` // "floor" or "writer"
	Seconds      float64 `json:"measured_s"`
	Fsyncs       int64   `json:"fsyncs"`
	FsyncsPerSec float64 `json:"fsyncs_per_s"`
	// BatchBytes is what each fsync covered: the floor's write size (the
	// writer's mean from the round before, or its warm-up), or the
	// writer's mean write.
	BatchBytes float64 `json:"batch_bytes"`
	// Writer rounds: appends acknowledged in the window, their rate, per
	// fsync, and the write system calls (one per batch, plus progress
	// lines), as a cross-check of Fsyncs.
	Appends       int64   `json:"appends,omitempty"`
	AppendsPerSec float64 `json:"appends_per_s,omitempty"`
	MeanBatch     float64 `json:"mean_batch,omitempty"`
	WriteSyscalls int64   `json:"write_syscalls,omitempty"`
	// Ratio is a writer round's fsyncs/s over the floor round just before.
	Ratio float64 `json:"fsyncs_vs_floor,omitempty"`
}

// RunWAL opens a fresh log in dir and has goroutines call Append with
// payloadBytes-byte payloads: for warmup, then in walRounds writer rounds
// of window d, each after a floor round of window d (the appenders wait
// during floor rounds, with nothing of theirs queued). Every Append
// returns only once its entry is fsynced.
//
// It runs under fxd serve's GOMAXPROCS (procs.Serving), as the floor
// server does, and restores fxbench's after: the log's syncer returns
// from each fdatasync needing a P, and how soon it gets one is the
// writer's fsync rate (measured at 1,024 appenders on the 2-core bench
// machine: 13-15 % more fsyncs with fxd's 3 Ps than with 2).
func RunWAL(dir string, goroutines, payloadBytes int, warmup, d time.Duration, progress io.Writer) (*WALResult, error) {
	procsN, _ := procs.Serving()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procsN))
	var fatal atomic.Pointer[string]
	log, _, err := wal.Open(dir, wal.Options{OnFatal: func(err error) {
		s := err.Error()
		fatal.CompareAndSwap(nil, &s)
	}})
	if err != nil {
		return nil, err
	}
	ap := startAppenders(log, goroutines, payloadBytes, &fatal)
	stopProgress := ap.progress(progress)
	res := &WALResult{Goroutines: goroutines, GOMAXPROCS: procsN, PayloadBytes: payloadBytes, Batches: -1, BatchBytes: -1}

	// Warm-up, whose second half gives the first floor round its size.
	time.Sleep(warmup / 2)
	warm := ap.measure(log, warmup-warmup/2, false)
	batchBytes := warm.BatchBytes
	for range walRounds {
		if batchBytes <= 0 {
			batchBytes = float64(payloadBytes+wal.HeaderSize+3) * max(warm.MeanBatch, 1)
		}
		ap.pause()
		floor, err := floorRound(dir, batchBytes, d)
		ap.resume()
		if err != nil {
			res.FirstError = "fsync floor: " + err.Error()
			break
		}
		res.Rounds = append(res.Rounds, floor)
		time.Sleep(min(warmup/2, 250*time.Millisecond)) // the appenders' burst after the pause settles
		w := ap.measure(log, d, true)
		if floor.FsyncsPerSec > 0 {
			w.Ratio = w.FsyncsPerSec / floor.FsyncsPerSec
		}
		res.Rounds = append(res.Rounds, w)
		if w.BatchBytes > 0 {
			batchBytes = w.BatchBytes
		}
	}
	ap.stop()
	stopProgress()
	res.LastIndex = log.LastIndex()
	if err := log.Close(); err != nil && res.FirstError == "" {
		res.FirstError = "close: " + err.Error()
	}
	res.summarize(&ap.hist, ap.errs.Load())
	if p := ap.firstErr.Load(); p != nil {
		res.FirstError = *p
	}
	if p := fatal.Load(); p != nil {
		return res, fmt.Errorf("wal failed: %s", *p)
	}
	return res, nil
}

// summarize fills the top-level figures from the rounds.
func (res *WALResult) summarize(hist *Hist, errs int64) {
	res.Errors = errs
	res.Latency = hist.Summary()
	var floors, writers []float64
	var bytes float64
	for _, r := range res.Rounds {
		if r.Kind == "floor" {
			floors = append(floors, r.FsyncsPerSec)
			continue
		}
		writers = append(writers, r.FsyncsPerSec)
		res.Seconds += r.Seconds
		res.Appends += r.Appends
		res.Batches = max(res.Batches, 0) + r.Fsyncs
		bytes += r.BatchBytes * float64(r.Fsyncs)
	}
	if res.Seconds > 0 {
		res.Rate = float64(res.Appends) / res.Seconds
	}
	if res.Batches > 0 {
		res.MeanBatch = float64(res.Appends) / float64(res.Batches)
		if bytes > 0 {
			res.BatchBytes = bytes / float64(res.Batches)
		}
	}
	res.BatchesPerSec, res.FloorFsyncsPerSec = medianOf(writers), medianOf(floors)
	if res.FloorFsyncsPerSec > 0 {
		res.FsyncRatio = res.BatchesPerSec / res.FloorFsyncsPerSec
	}
}

// RatioSpread is the lowest and highest of the writer rounds' ratios to
// the floor round before each; ok is false with fewer than two.
func (res *WALResult) RatioSpread() (lo, hi float64, ok bool) {
	var rs []float64
	for _, r := range res.Rounds {
		if r.Kind == "writer" && r.Ratio > 0 {
			rs = append(rs, r.Ratio)
		}
	}
	if len(rs) < 2 {
		return 0, 0, false
	}
	return slices.Min(rs), slices.Max(rs), true
}

// medianOf is the median of vs (the mean of the middle two for an even
// count), 0 for none.
func medianOf(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// appenders are the goroutines calling Append in a closed loop. pause
// holds each at its next Append and waits until none is inside one;
// measure counts what the log did in a window.
type appenders struct {
	wg       sync.WaitGroup
	stopped  atomic.Bool
	paused   atomic.Bool
	gate     chan struct{} // closed by resume; replaced by pause
	gateMu   sync.Mutex
	inside   atomic.Int64 // appenders past the pause check
	total    atomic.Int64 // appends acknowledged since the start
	counting atomic.Bool  // record latencies
	hist     Hist
	errs     atomic.Int64
	firstErr atomic.Pointer[string]
	phase    atomic.Pointer[string] // for progress lines
}

func startAppenders(log *wal.Log, goroutines, payloadBytes int, fatal *atomic.Pointer[string]) *appenders {
	ap := &appenders{gate: make(chan struct{})}
	close(ap.gate)
	warm := "warmup"
	ap.phase.Store(&warm)
	for g := range goroutines {
		ap.wg.Add(1)
		go func() {
			defer ap.wg.Done()
			payload := make([]byte, payloadBytes)
			for i := range payload {
				payload[i] = byte('a' + (g+i)%26)
			}
			for !ap.stopped.Load() {
				if !ap.enter() {
					continue
				}
				start := time.Now()
				_, err := log.Append(payload)
				ap.inside.Add(-1)
				if err != nil {
					ap.errs.Add(1)
					s := err.Error()
					ap.firstErr.CompareAndSwap(nil, &s)
					if fatal.Load() != nil {
						return
					}
					time.Sleep(time.Millisecond) // queue full: back off
					continue
				}
				ap.total.Add(1)
				if ap.counting.Load() {
					ap.hist.RecordAtomic(int64(time.Since(start)))
				}
			}
		}()
	}
	return ap
}

// enter counts the appender inside before it checks for a pause, so that
// pause, which sets paused before it waits for inside to reach 0, never
// misses one on its way in. It returns false after waiting out a pause.
func (ap *appenders) enter() bool {
	ap.inside.Add(1)
	if !ap.paused.Load() {
		return true
	}
	ap.inside.Add(-1)
	ap.gateMu.Lock()
	g := ap.gate
	ap.gateMu.Unlock()
	<-g
	return false
}

func (ap *appenders) pause() {
	ap.gateMu.Lock()
	ap.gate = make(chan struct{})
	ap.gateMu.Unlock()
	ap.paused.Store(true)
	for ap.inside.Load() > 0 {
		time.Sleep(100 * time.Microsecond)
	}
	s := "floor"
	ap.phase.Store(&s)
}

func (ap *appenders) resume() {
	s := "writer"
	ap.phase.Store(&s)
	ap.paused.Store(false)
	ap.gateMu.Lock()
	close(ap.gate)
	ap.gateMu.Unlock()
}

func (ap *appenders) stop() {
	ap.stopped.Store(true)
	ap.wg.Wait()
}

// measure is one writer window of d: appends, batches (fsyncs) and write
// bytes, with latencies recorded if counting.
func (ap *appenders) measure(log *wal.Log, d time.Duration, counting bool) WALRound {
	n0, f0, w0, b0 := ap.total.Load(), log.Batches(), selfWriteSyscalls(), selfWriteBytes()
	t0 := time.Now()
	ap.counting.Store(counting)
	time.Sleep(d)
	ap.counting.Store(false)
	n1, f1, w1, b1 := ap.total.Load(), log.Batches(), selfWriteSyscalls(), selfWriteBytes()
	r := WALRound{Kind: "writer", Seconds: time.Since(t0).Seconds(), Appends: n1 - n0, Fsyncs: int64(f1 - f0), BatchBytes: -1}
	r.AppendsPerSec = float64(r.Appends) / r.Seconds
	r.FsyncsPerSec = float64(r.Fsyncs) / r.Seconds
	if r.Fsyncs > 0 {
		r.MeanBatch = float64(r.Appends) / float64(r.Fsyncs)
		if b0 >= 0 && b1 >= b0 {
			r.BatchBytes = float64(b1-b0) / float64(r.Fsyncs)
		}
	}
	if w0 >= 0 && w1 >= w0 {
		r.WriteSyscalls = w1 - w0
	}
	return r
}

// progress prints a line a second to w until the returned func is called.
func (ap *appenders) progress(w io.Writer) (stop func()) {
	if w == nil {
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		start, last, lastT := time.Now(), int64(0), time.Now()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				n := ap.total.Load()
				fmt.Fprintf(w, "  [wal append] %-7s t=%4.1fs  appends=%-9d  %8.0f /s\n",
					*ap.phase.Load(), now.Sub(start).Seconds(), n, float64(n-last)/now.Sub(lastT).Seconds())
				last, lastT = n, now
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// floorRound measures the floor for d at batchBytes per fsync.
func floorRound(dir string, batchBytes float64, d time.Duration) (WALRound, error) {
	size := int(batchBytes + 0.5)
	t0 := time.Now()
	n, err := fsyncFloor(dir, size, d)
	secs := time.Since(t0).Seconds()
	r := WALRound{Kind: "floor", Seconds: secs, Fsyncs: n, BatchBytes: float64(max(size, 1))}
	if secs > 0 {
		r.FsyncsPerSec = float64(n) / secs
	}
	return r, err
}

// fsyncFloor is the disk's raw durable write rate at the log's batch size:
// one goroutine appending batchBytes to a file in dir and calling
// fdatasync, as many times as it can in d. It returns the fsyncs done.
func fsyncFloor(dir string, batchBytes int, d time.Duration) (int64, error) {
	f, err := os.CreateTemp(dir, "fsync-floor-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, max(batchBytes, 1))
	var n int64
	start := time.Now()
	for time.Since(start) < d {
		if _, err := f.Write(buf); err != nil {
			return n, err
		}
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// RoundsText lists the rounds' fsyncs/s in the order run, for the report
// ("; rounds: floor 2,950, writer 2,800 (0.95), ..."); "" for none.
func (res *WALResult) RoundsText() string {
	if len(res.Rounds) == 0 {
		return ""
	}
	s := "; rounds:"
	for i, r := range res.Rounds {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(" %s %s", r.Kind, commas(int64(r.FsyncsPerSec+0.5)))
		if r.Ratio > 0 {
			s += fmt.Sprintf(" (%.2f)", r.Ratio)
		}
	}
	return s
}

// MeanBatchSpread is " (lo–hi)" of the writer rounds' appends per fsync,
// "" with fewer than two.
func (res *WALResult) MeanBatchSpread() string {
	var bs []float64
	for _, r := range res.Rounds {
		if r.Kind == "writer" && r.Fsyncs > 0 {
			bs = append(bs, r.MeanBatch)
		}
	}
	if len(bs) < 2 {
		return ""
	}
	return fmt.Sprintf(" (%.0f–%.0f)", slices.Min(bs), slices.Max(bs))
}
