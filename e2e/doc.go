// Package e2e holds the integration tests of fxd: they build the real
// binary once, start it on loopback with throw-away data directories, and
// drive it over HTTP (through the Go SDK, or by hand where a test needs
// malformed requests) and through its operator CLI.
//
// Run with: go test -count=1 -timeout 10m ./e2e/
package e2e
