package bench

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fxd-labs/fxd/wal"
)

// WALResult is the outcome of RunWAL.
type WALResult struct {
	Goroutines   int     `json:"goroutines"`
	PayloadBytes int     `json:"payload_bytes"`
	Seconds      float64 `json:"measured_s"`
	Appends      int64   `json:"appends"`
	Rate         float64 `json:"appends_per_s"`
	// Batches is the number of write system calls of this process in the
	// window (/proc/self/io syscw): the log writes each group-committed
	// batch with one write and one fsync, so it counts fsyncs, plus the odd
	// progress line. -1 where not available.
	Batches       int64   `json:"fsync_batches"`
	BatchesPerSec float64 `json:"fsyncs_per_s"`
	MeanBatch     float64 `json:"mean_batch"`
	Latency       Latency `json:"append_latency"`
	Errors        int64   `json:"errors"`
	FirstError    string  `json:"first_error,omitempty"`
	LastIndex     uint64  `json:"last_index"`
	// BatchBytes is the mean bytes of one batch's write (/proc/self/io
	// wchar over syscw in the window); -1 where not available.
	BatchBytes float64 `json:"batch_bytes"`
	// The raw floor on the same disk, right after: one goroutine writing
	// BatchBytes and calling fdatasync, as often as it can. The log's
	// target is relative to it (the absolute rate is the disk's).
	FloorFsyncsPerSec float64 `json:"floor_fsyncs_per_s"`
	FsyncRatio        float64 `json:"fsyncs_vs_floor"`
}

// RunWAL opens a fresh log in dir and has goroutines call Append with
// payloadBytes-byte payloads for warmup, then for d (the measured window).
// Every Append returns only once its entry is fsynced.
func RunWAL(dir string, goroutines, payloadBytes int, warmup, d time.Duration, progress io.Writer) (*WALResult, error) {
	var fatal atomic.Pointer[string]
	log, _, err := wal.Open(dir, wal.Options{OnFatal: func(err error) {
		s := err.Error()
		fatal.CompareAndSwap(nil, &s)
	}})
	if err != nil {
		return nil, err
	}
	var phase atomic.Int32
	var total atomic.Int64
	var errs atomic.Int64
	var firstErr atomic.Pointer[string]
	var hist Hist
	counts := make([]int64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			payload := make([]byte, payloadBytes)
			for i := range payload {
				payload[i] = byte('a' + (g+i)%26)
			}
			var n int64
			for {
				p := phase.Load()
				if p == phaseStop {
					break
				}
				start := time.Now()
				_, err := log.Append(payload)
				if err != nil {
					errs.Add(1)
					s := err.Error()
					firstErr.CompareAndSwap(nil, &s)
					if fatal.Load() != nil {
						return
					}
					time.Sleep(time.Millisecond) // queue full: back off
					continue
				}
				total.Add(1)
				if phase.Load() == phaseMeasure {
					n++
					hist.RecordAtomic(int64(time.Since(start)))
				}
			}
			counts[g] = n
		}()
	}
	stopProgress := func() {}
	if progress != nil {
		done := make(chan struct{})
		stopped := make(chan struct{})
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
					n := total.Load()
					ph := "warmup"
					if phase.Load() != phaseWarmup {
						ph = "measure"
					}
					fmt.Fprintf(progress, "  [wal append] %-7s t=%4.1fs  appends=%-9d  %8.0f /s\n",
						ph, now.Sub(start).Seconds(), n, float64(n-last)/now.Sub(lastT).Seconds())
					last, lastT = n, now
				}
			}
		}()
		stopProgress = func() { close(done); <-stopped }
	}
	time.Sleep(warmup)
	w0, b0 := selfWriteSyscalls(), selfWriteBytes()
	t0 := time.Now()
	phase.Store(phaseMeasure)
	time.Sleep(d)
	phase.Store(phaseStop)
	t1 := time.Now()
	w1, b1 := selfWriteSyscalls(), selfWriteBytes()
	wg.Wait()
	stopProgress()
	res := &WALResult{
		Goroutines: goroutines, PayloadBytes: payloadBytes, Seconds: t1.Sub(t0).Seconds(),
		Errors: errs.Load(), LastIndex: log.LastIndex(), Batches: -1,
	}
	if err := log.Close(); err != nil && res.FirstError == "" {
		res.FirstError = "close: " + err.Error()
	}
	for _, n := range counts {
		res.Appends += n
	}
	res.Rate = float64(res.Appends) / res.Seconds
	res.Latency = hist.Summary()
	if w0 >= 0 && w1 >= w0 {
		res.Batches = w1 - w0
		res.BatchesPerSec = float64(res.Batches) / res.Seconds
		if res.Batches > 0 {
			res.MeanBatch = float64(res.Appends) / float64(res.Batches)
		}
	}
	res.BatchBytes = -1
	if res.Batches > 0 && b0 >= 0 && b1 >= b0 {
		res.BatchBytes = float64(b1-b0) / float64(res.Batches)
		if rate, err := fsyncFloor(dir, int(res.BatchBytes+0.5), d); err == nil {
			res.FloorFsyncsPerSec = rate
			res.FsyncRatio = res.BatchesPerSec / rate
		} else if res.FirstError == "" {
			res.FirstError = "fsync floor: " + err.Error()
		}
	}
	if p := firstErr.Load(); p != nil {
		res.FirstError = *p
	}
	if p := fatal.Load(); p != nil {
		return res, fmt.Errorf("wal failed: %s", *p)
	}
	return res, nil
}

// fsyncFloor is the disk's raw durable write rate at the log's batch size:
// one goroutine appending batchBytes to a file in dir and calling
// fdatasync, as many times as it can in d. It returns the fsyncs per
// second.
func fsyncFloor(dir string, batchBytes int, d time.Duration) (float64, error) {
	f, err := os.CreateTemp(dir, "fsync-floor-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, max(batchBytes, 1))
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		if _, err := f.Write(buf); err != nil {
			return 0, err
		}
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
