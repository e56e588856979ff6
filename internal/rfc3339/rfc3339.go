// Package rfc3339 reads the times clients send (RFC 3339 date-times, in
// SIWE messages and in request fields and query parameters) as strictly
// as the RFC's grammar, which time.Parse is not: it takes a one-digit hour
// ("T1:00:00Z"), and an offset can carry a time into year -1 or 10000,
// which no RFC 3339 text can show once it is converted to UTC, as fxd
// shows and signs every time.
package rfc3339

import (
	"errors"
	"strings"
	"time"
)

// Parse reads s, a date-time of RFC 3339 section 5.6
// (YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)), and returns it in UTC. As
// the section's note allows, "T" and "Z" may be lower case. The instant
// must fall within the years 0000 to 9999 in UTC. Errors do not repeat s
// (callers put them in API answers; s may be long).
func Parse(s string) (time.Time, error) {
	if !shaped(s) {
		return time.Time{}, errShape
	}
	s = upperTZ(s)
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		// A range error says which field ("month out of range"); others
		// (extra text) would quote s.
		var pe *time.ParseError
		if errors.As(err, &pe) && strings.HasSuffix(pe.Message, " out of range") {
			return time.Time{}, errors.New("not an RFC 3339 date-time" + pe.Message)
		}
		return time.Time{}, errShape
	}
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return time.Time{}, errors.New("outside the years 0000 to 9999 in UTC")
	}
	return t, nil
}

var errShape = errors.New("not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, then Z or ±HH:MM)")

// prefix is the fixed-width start of every RFC 3339 date-time: d a digit,
// anything else itself. time.Parse checks the rest (fraction, offset) and
// the ranges.
const prefix = "dddd-dd-ddTdd:dd:dd"

// sepAt is where prefix has its "T".
const sepAt = 10

// upperTZ is s with a lower-case "t" separator and "z" offset in upper
// case, as time.Parse reads only those; s is copied only when it has one.
func upperTZ(s string) string {
	last := len(s) - 1
	if s[sepAt] != 't' && s[last] != 'z' {
		return s
	}
	b := []byte(s)
	b[sepAt] = 'T'
	if b[last] == 'z' {
		b[last] = 'Z'
	}
	return string(b)
}

// shaped reports whether s starts with prefix's shape (its "T" in either
// case) and has room for an offset after it.
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
		} else if c != want && (want != 'T' || c != 't') {
			return false
		}
	}
	return true
}
