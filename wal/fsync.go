package wal

import (
	"errors"
	"fmt"
	"runtime"
)

// syncer makes batches durable: one goroutine for the log's life, running
// one fdatasync at a time, in the order the writer started them.
//
// The writer starts a batch's sync as soon as the batch is written, even
// while the previous batch's sync is still running (see writer.go,
// "Pipeline"): the job waits in the syncer's channel, and the syncer
// goroutine takes it once the previous fdatasync has returned and the
// writer has been handed the result (loop). So the device's next fsync
// waits only for this goroutine to run again after its yield, not for the
// writer to collect the completion and start it: under load (1,024
// appenders on two cores) that hand-off took a scheduling round more,
// during which the disk idled. Before, each sync ran on a goroutine of its
// own that the writer started after collecting the previous one; before
// that, kernel AIO was tried as a mode (measured slower: an io_submit
// costs tens of µs on the writer, and its eventfd completion waits in the
// netpoller).
//
// fdatasync writes the data and the metadata needed to read it back (the
// file size), which is all a log needs; timestamps are not worth a second
// metadata write per batch.
//
// Failure: after the first failed sync the syncer starts no other one
// (a retried fsync may report success for pages the kernel dropped); every
// job still queued or started later completes with errSyncerFailed.
type syncer struct {
	// jobs are the syncs started and not yet run, at most the pipeline's
	// two: each one batch's fdatasync of its tail segment (timed, or
	// inside the tests' hook).
	jobs chan func() error
	done chan error    // results, in start order; as deep as jobs
	kick chan struct{} // the log's kick channel, which every wait listens on
	// open counts the syncs started and not yet collected by wait: the
	// bound the pipeline keeps (the channels alone would admit a third
	// once the loop has taken the first). Writer goroutine only.
	open int
}

// maxSyncsStarted is the most syncs started and not collected: the one
// running and the one written behind it (writer.go's inflight and ready).
const maxSyncsStarted = 2

// errSyncerFailed completes every sync started after a failed one.
var errSyncerFailed = errors.New("not synced: an earlier fsync failed")

func newSyncer(kick chan struct{}) *syncer {
	s := &syncer{
		jobs: make(chan func() error, maxSyncsStarted),
		done: make(chan error, maxSyncsStarted),
		kick: kick,
	}
	go s.loop()
	return s
}

// loop runs the jobs in order until close. A job already queued when the
// previous fdatasync returns starts without this goroutine parking.
//
// After each result it yields. The result readies the writer, and Go runs
// a goroutine readied by a channel send next on the sender's P; the
// fdatasync this goroutine then started held that P in the kernel, the
// writer waiting on it, until the runtime's monitor thread took the P
// back (sysmon: it polls every 20 µs to 10 ms, and every 20 µs again once
// it has taken a P back). So the writer acknowledged each batch and
// prepared the next a monitor tick late, and the monitor, taking a P back
// at every fsync, woke tens of thousands of times a second. Yielding runs
// the writer at once on this P; the next fdatasync starts when the
// scheduler runs this goroutine again, and the batches behind it grow.
// Measured in DECISIONS.md ("The syncer yields after each result").
func (s *syncer) loop() {
	var failed bool
	for job := range s.jobs {
		err := errSyncerFailed
		if !failed {
			err = job()
			failed = err != nil
		}
		s.done <- err
		runtime.Gosched() // the writer first (see above)
	}
	close(s.done)
}

// start queues sync, an fdatasync covering every byte written to its file
// before the call (the file stays open until wait reports it done). The
// caller keeps at most maxSyncsStarted syncs started and not collected.
func (s *syncer) start(sync func() error) {
	if s.open == maxSyncsStarted {
		panic(fmt.Sprintf("wal: syncer: more than %d syncs started and not collected", maxSyncsStarted))
	}
	s.open++
	s.jobs <- sync // room: jobs holds at most the open ones
}

// wait returns the result of the oldest sync not yet collected (done
// true), or done false when a kick on the log's kick channel came first.
func (s *syncer) wait() (done bool, err error) {
	select {
	case err := <-s.done:
		s.open--
		return true, err
	case <-s.kick:
		return false, nil
	}
}

// close stops the goroutine; the writer has collected every sync it
// started.
func (s *syncer) close() {
	close(s.jobs)
	for range s.done {
	}
}
