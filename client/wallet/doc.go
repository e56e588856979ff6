// Package wallet is the caller's side of the non-custodial flows: what a
// browser wallet or an integrator's own signer does with a secp256k1 key
// the service never sees. It signs SIWE challenges (personal_sign), the
// Permit2 typed data of orders and cross-currency transfers
// (eth_signTypedData_v4), and signs and broadcasts transactions over the
// chain's JSON-RPC (the Permit2 approval, an RFQ escrow funding, a
// same-currency ERC-20 transfer, a payment to a link), paying their gas.
//
// The example walk (examples/go/firsttrade) and the torture harness
// (torture) both use it. Transactions come in three steps, so a caller can
// sign one, learn its hash, broadcast it (again, after the node restarted)
// and wait for it separately: Prepare, Broadcast, Mined; Transact and
// SendData do all three.
package wallet
