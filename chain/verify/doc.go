// Package verify is what the service checks on chain before and after it
// acts for a user: it names the reason of a revert from our contracts' ABIs
// (so a user reads InsufficientAllowance(...) instead of a hex dump), finds
// and decodes logs, recognises ERC-20 transfers, looks up a transaction's
// receipt, and runs the relay's pre-flight (allowance, balance, eth_call)
// before a signed order is broadcast.
//
// It holds no state and no keys: every function reads the chain through
// Backend or decodes what it is given, so FX orders and payments share one
// definition of "verified".
package verify
