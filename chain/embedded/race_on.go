//go:build race

package embedded

// raceEnabled: built with -race. Pebble then runs with its invariant checks
// (a stack trace captured per sstable reference), which makes the log
// indexer's many point reads ~100x slower; see ethConfig.
const raceEnabled = true
