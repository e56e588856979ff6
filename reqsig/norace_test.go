//go:build !race

package reqsig

const raceEnabled = false
