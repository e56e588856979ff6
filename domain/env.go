package domain

import "time"

// Env is everything Decide may know about the world: the time of the command
// and a source of fresh ids. Hosts pass the wall clock and a random id source;
// tests pass fixed values, so every decision can be replayed exactly.
type Env struct {
	Now   time.Time
	NewID func(prefix string) string
}
