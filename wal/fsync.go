package wal

import (
	"fmt"
	"os"
	"runtime"
)

// Sync modes of Options.Sync.
const (
	// SyncAuto is the default: today the same as SyncPlain.
	SyncAuto = ""
	// SyncPlain calls fdatasync(2) on a goroutine of its own per batch
	// (goSyncer).
	SyncPlain = "fdatasync"
	// SyncAIO submits the fdatasync through Linux kernel AIO (4.18+) and
	// falls back to SyncPlain where the kernel refuses (fsync_linux.go).
	SyncAIO = "aio"
)

// syncer makes a segment file's written bytes durable, one sync at a time.
//
// It is split into start and wait so that the writer can prepare the next
// batch while the device works on this one (see writer.go, "Pipeline").
// The writer never starts a sync before the previous one was collected by
// a wait that returned done.
//
// Both kinds issue fdatasync: it writes the data and the metadata needed to
// read it back (the file size), which is all a log needs; timestamps are
// not worth a second metadata write per batch.
//
// Which kind is the default was measured with the pipelined writer on the
// two-core bench machine (1,024 appenders, floor and writer rounds
// alternating, two runs each): fdatasync on its own goroutine made 0.62
// and 0.71 of the raw floor's fsyncs/s and 1.08-1.23 M appends/s; AIO
// 0.54 and 0.78, 0.72-0.82 M/s; the serial writer before the pipeline
// (AIO completions awaited on an eventfd) 0.44 and 0.54, 0.82-0.97 M/s.
// Durable writes over HTTP were the same for all three within the noise.
// A goroutine blocked in fdatasync wakes as soon as the call returns, and
// its result reaches the writer through a channel within a few µs; an
// io_submit costs tens of µs on the writer, and a completion signalled on
// an eventfd waits in the netpoller until both Ps run out of appenders.
type syncer interface {
	// start begins an fdatasync of f, covering every byte written to f
	// before the call. f must stay open until wait reports done.
	start(f *os.File) error
	// wait waits for the sync begun by start, or for a kick on the log's
	// kick channel (kickWriter). done is false only when a kick came
	// first; err is the sync's result when done.
	wait() (done bool, err error)
	mode() string
	close() error
}

// newSyncer returns the syncer for mode. SyncAIO falls back to plain
// fdatasync when the kernel refuses an AIO context (old kernel, seccomp,
// fs.aio-max-nr reached, not Linux); the fallback is reported through
// logf. kick is the log's kick channel, which every wait listens on.
func newSyncer(mode string, logf func(string, ...any), kick chan struct{}) (syncer, error) {
	switch mode {
	case SyncAuto, SyncPlain:
		return newGoSyncer(SyncPlain, fdatasync, kick), nil
	case SyncAIO:
		a, err := newAIOSyncer(kick)
		if err != nil {
			logf("wal: kernel AIO unavailable, syncing with fdatasync(2) err=%q", err.Error())
			return newGoSyncer(SyncPlain, fdatasync, kick), nil
		}
		return a, nil
	}
	return nil, fmt.Errorf("unknown sync mode %q", mode)
}

// goSyncer runs a blocking sync function on a goroutine of its own per
// sync, so that the writer goroutine stays free to prepare the next batch
// (the blocked thread is the runtime's to replace). It is the plain
// fdatasync mode, and the wrapper the tests' sync hook runs in.
type goSyncer struct {
	name string
	sync func(*os.File) error
	done chan error    // 1-buffered: the running sync's result
	kc   chan struct{} // the log's kick channel
}

func newGoSyncer(name string, sync func(*os.File) error, kick chan struct{}) *goSyncer {
	return &goSyncer{name: name, sync: sync, done: make(chan error, 1), kc: kick}
}

func (g *goSyncer) mode() string { return g.name }
func (g *goSyncer) close() error { return nil } // the writer collected every sync it started

// start runs the sync on a new goroutine and yields to it. A new goroutine
// waits in its P's next slot until the current one blocks, and the writer
// would first wake the previous batch's callers: measured under load, the
// fdatasync then began a mean 23-40 µs late, the device idle meanwhile.
// After the yield it begins within a few µs; the writer waits its turn in
// the global run queue instead, with nothing the device needs from it.
func (g *goSyncer) start(f *os.File) error {
	go func() { g.done <- g.sync(f) }()
	runtime.Gosched()
	return nil
}

func (g *goSyncer) wait() (bool, error) {
	select {
	case err := <-g.done:
		return true, err
	case <-g.kc:
		return false, nil
	}
}
