package ratelimit

import (
	"fmt"
	"time"
)

// Class is the rate-limit class of a request.
type Class uint8

const (
	// Read is GET (and HEAD).
	Read Class = iota
	// Write is POST, PATCH and DELETE.
	Write
	// Heavy is the heaviest trade operations; a Heavy request counts
	// against both the heavy and the write limits.
	Heavy
)

// String returns the class name used in logs and metrics.
func (c Class) String() string {
	switch c {
	case Read:
		return "read"
	case Write:
		return "write"
	case Heavy:
		return "heavy"
	default:
		return fmt.Sprintf("class(%d)", uint8(c))
	}
}

// ClassFor maps a request to its class: heavy routes are Heavy, GET and
// HEAD are Read, every other method is Write (the stricter default for
// anything unexpected).
func ClassFor(method string, heavy bool) Class {
	switch {
	case heavy:
		return Heavy
	case method == "GET" || method == "HEAD":
		return Read
	default:
		return Write
	}
}

// Explicit bounds on a configuration.
const (
	// MaxLimit bounds a class limit: a ring of MaxLimit uint32 is 256 KiB.
	MaxLimit = 1<<16 - 1
	// MaxWindow bounds the window. It must stay far below the 2^31 ms
	// (~24.8 days) rebase horizon of window.go.
	MaxWindow = 24 * time.Hour
)

// Limits configures a Limiter.
type Limits struct {
	Read, Write, Heavy int           // requests admitted per Window, each 1..MaxLimit
	Window             time.Duration // a whole number of milliseconds, 1ms..MaxWindow
}

// DefaultLimits are CONTRACT.md's per-key limits.
var DefaultLimits = Limits{Read: 600, Write: 120, Heavy: 30, Window: time.Minute}

// Validate reports whether l is usable.
func (l Limits) Validate() error {
	for _, c := range []struct {
		name string
		n    int
	}{{"read", l.Read}, {"write", l.Write}, {"heavy", l.Heavy}} {
		if c.n < 1 || c.n > MaxLimit {
			return fmt.Errorf("ratelimit: %s limit %d outside 1..%d", c.name, c.n, MaxLimit)
		}
	}
	return validateWindow(l.Window)
}

func validateWindow(w time.Duration) error {
	if w < time.Millisecond || w > MaxWindow || w%time.Millisecond != 0 {
		return fmt.Errorf("ratelimit: window %v must be a whole number of milliseconds in 1ms..%v", w, MaxWindow)
	}
	return nil
}
