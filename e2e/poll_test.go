package e2e

import (
	"slices"
	"testing"
	"time"
)

// awaitState polls read until its state is want; it fails at once on one
// of ends (the record's end states) other than want, and after within.
// Each read is a new request (the SDK makes repeated ones unique), 250 ms
// apart.
func awaitState[T any](t *testing.T, srv *server, what, want string, within time.Duration,
	read func() T, state func(T) string, ends ...string) T {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		v := read()
		st := state(v)
		if st == want {
			return v
		}
		if slices.Contains(ends, st) || time.Now().After(deadline) {
			t.Fatalf("%s is %s, want %s: %+v\nserver stderr:\n%s", what, st, want, v, tail(srv.Stderr(), 8<<10))
		}
		time.Sleep(250 * time.Millisecond)
	}
}
