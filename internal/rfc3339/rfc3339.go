// Package rfc3339 reads the times clients send (RFC 3339 date-times, in
// SIWE messages and in request fields and query parameters) as strictly
// as the RFC's grammar, which time.Parse is not: it takes a one-digit hour
// ("T1:00:00Z"), and an offset can carry a time into year -1 or 10000,
// which no RFC 3339 text can show once it is converted to UTC, as fxd
// shows and signs every time.
package rfc3339

import (
	"fmt"
	"time"
)

// Parse reads s, a date-time of RFC 3339 section 5.6
// (YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)), and returns it in UTC. The
// instant must fall within the years 0000 to 9999 in UTC.
func Parse(s string) (time.Time, error) {
	if !shaped(s) {
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, then Z or ±HH:MM)", s)
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 date-time: %w", s, err)
	}
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return time.Time{}, fmt.Errorf("%q is outside the years 0000 to 9999 in UTC", s)
	}
	return t, nil
}

// prefix is the fixed-width start of every RFC 3339 date-time: d a digit,
// anything else itself. time.Parse checks the rest (fraction, offset) and
// the ranges.
const prefix = "dddd-dd-ddTdd:dd:dd"

// shaped reports whether s starts with prefix's shape and has room for an
// offset after it.
func shaped(s string) bool {
	if len(s) <= len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c, want := s[i], prefix[i]
		if want == 'd' {
			if c < '0' || c > '9' {
				return false
			}
		} else if c != want {
			return false
		}
	}
	return true
}
