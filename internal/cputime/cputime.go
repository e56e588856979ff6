// Package cputime reads how much CPU this process has used, for the
// benchmarks that report CPU per operation beside throughput.
package cputime

import (
	"syscall"
	"time"
)

// Self is this process's user and system CPU time so far (getrusage
// RUSAGE_SELF: every thread), 0 where the system cannot say.
func Self() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
