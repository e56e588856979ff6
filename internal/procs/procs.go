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
// Why one more: threads that block in the kernel keep their P until the
// runtime's monitor takes it back, and with as many Ps as CPUs a CPU then
// sits idle while requests wait. When the log writer called fsync on its
// own thread, a third P on the 2-core bench machine raised fxd's durable
// writes/s about 9 % (noisy) and the floor server's about 4 %. The log now
// syncs through kernel AIO and no longer blocks a thread; measured again,
// fxd does the same with 2 or 3 Ps within the noise (15.7–16.8k against
// 15.0–17.1k writes/s over three alternations), while the floor server
// was about 10 % faster with 3 (20.4k against 22.9k req/s, one pair of
// runs). The policy is one for both (the floor
// runs under it too), so it keeps the floor's better value and the ratio
// stays conservative.
func Tune() (n int, fromEnv bool) {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0), true
	}
	n = runtime.GOMAXPROCS(0) + 1
	runtime.GOMAXPROCS(n)
	return n, false
}
