// Package faultinject names the faults a test can switch on in a binary
// built with `-tags faultinject` (the e2e harness builds one beside the
// normal binary). The faults are read from the environment variable
// FXD_FAULTS, a comma-separated list of name=value pairs, e.g.
//
//	FXD_FAULTS=wal-write-enospc-after=500,chain-stall-file=/tmp/stall
//
// In every other build Lookup always reports false, so production code can
// consult it at start-up without a cost or a way in: the fault points
// exist only in the test binary. Each fault's name and meaning are
// documented where it is consulted.
package faultinject

// Env is the environment variable the faults are read from.
const Env = "FXD_FAULTS"

// Lookup returns the value of the fault called name and whether it is set.
// It is always false in a binary built without the faultinject tag.
func Lookup(name string) (string, bool) { return lookup(name) }
