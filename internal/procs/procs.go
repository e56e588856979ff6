// Package procs sets how many OS threads run Go code at once (GOMAXPROCS)
// for fxd's servers: `fxd serve`, and the bench's floor server, which must
// run under the same policy to be a fair comparison.
package procs

import (
	"os"
	"runtime"
)

// Tune sets GOMAXPROCS to one more than the runtime's default (the CPUs
// this process may use) and returns the value in force, unless the
// GOMAXPROCS environment variable is set, which then wins.
//
// Why one more: the log writer spends much of a busy second inside fsync,
// a system call the runtime cannot tell will block, so the writer's thread
// keeps its P until the runtime's monitor takes it back (tens of
// microseconds to milliseconds later). With as many Ps as CPUs, one CPU
// then sits idle while requests wait. On the 2-core bench machine, under
// durable POSTs the machine was idle or waiting on I/O 8–10 % of the time
// with 2 Ps and 3–5 % with 3; fxd's writes/s rose about 9 % on average
// (single runs: −3 % to +16 %; the VM is noisy), the floor server's about
// 4 %. A fourth P was slower than three in the two runs tried.
func Tune() (n int, fromEnv bool) {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0), true
	}
	n = runtime.GOMAXPROCS(0) + 1
	runtime.GOMAXPROCS(n)
	return n, false
}
