//go:build !race

package embedded

// raceEnabled: built with -race; see race_on.go.
const raceEnabled = false
