// Package e2e holds the integration tests of fxd: they build the real
// binary once, start it on loopback with throw-away data directories, and
// drive it over HTTP (through the Go SDK, or by hand where a test needs
// malformed requests) and through its operator CLI.
//
// Chain-facing tests act as a third-party wallet user: e2e/js holds ethers
// v6 scripts (SIWE signing, ERC-20 transfers, and fx.mjs for Permit2
// approvals, eth_signTypedData_v4 of the returned typed data and the
// self-broadcast RFQ escrow funding) and a pinned anvil for the rpc-mode
// test. The FX tests (fx_test.go, fx_faults_test.go) drive both rails to
// every end state and across kill -9.
//
// Run with: go test -count=1 -timeout 15m ./e2e/
package e2e
