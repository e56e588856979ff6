// Package procs sets how many OS threads run Go code at once (GOMAXPROCS)
// for fxd's servers: `fxd serve`, and the bench's floor server and
// in-process log writer phase, which must run under the same policy to
// measure what fxd runs.
package procs

import (
	"os"
	"runtime"
)

// Tune sets GOMAXPROCS to Serving's value and returns it, and whether the
// GOMAXPROCS environment variable set it.
//
// Why one more than the CPUs: threads that block in the kernel keep their
// P until the runtime's monitor takes it back, and with as many Ps as CPUs
// a CPU then sits idle while requests wait; and a goroutine returning from
// a blocking system call while every P is busy waits for a scheduling round
// before it runs again. The log's syncer goroutine does exactly that, once
// per fsync (wal/fsync.go). With a third P on the 2-core bench machine
// fxd's durable writes/s rose about 9 % (noisy) and the floor server's
// about 4 % when first measured; the in-process log writer at 1,024
// appenders made 13-15 % more fsyncs (3,447 and 3,545 against 3,049 and
// 3,165 a second, two alternations, 2026-11-30), and its fsyncs reached
// the raw fsync floor (1.14-1.18 of it against 0.95-0.99).
func Tune() (n int, fromEnv bool) {
	n, fromEnv = Serving()
	if !fromEnv {
		runtime.GOMAXPROCS(n)
	}
	return n, fromEnv
}

// Serving is the GOMAXPROCS fxd serve runs with: one more than the
// runtime's default (the CPUs this process may use, its cgroup's quota
// included), unless the GOMAXPROCS environment variable is set, which then
// wins (fromEnv). It changes nothing, and does not depend on what the
// process set since it started.
func Serving() (n int, fromEnv bool) {
	if os.Getenv("GOMAXPROCS") != "" {
		return startProcs, true
	}
	return startProcs + 1, false
}

// startProcs is GOMAXPROCS as the process started: the runtime's default,
// or the environment's value.
var startProcs = runtime.GOMAXPROCS(0)
