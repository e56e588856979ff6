// Package eip712 builds, hashes and verifies the EIP-712 typed data that fxd
// callers sign: Permit2 PermitWitnessTransferFrom messages whose witness is a
// GaslessOrder (route amm, relayed by the service) or an RfqEscrowFunding
// (route rfq, broadcast by the caller to the escrow).
//
// The hashing is written out by hand for these fixed types: no reflection and
// no type-string parsing on the hot path, only go-ethereum's Keccak-256
// (crypto.NewKeccakState, pooled) over fixed-size buffers, with no allocation. The generic encoder in go-ethereum's
// signer/core/apitypes, ethers v6 and the reference vectors in
// shared/vectors/eip712.json are the yardsticks the tests hold it to.
//
// One concept per file:
//
//   - domain.go: the Permit2 EIP-712 domain and its separator.
//   - permit.go: the PermitWitnessTransferFrom envelope shared by both witnesses.
//   - gasless.go: the GaslessOrder witness (route amm).
//   - rfq.go: the RfqEscrowFunding witness (route rfq).
//   - typeddata.go: the JSON-ready {domain,types,primaryType,message} for
//     eth_signTypedData_v4.
//   - recover.go: signature parsing, signer recovery and its errors.
//   - validate.go: what a signable message is (ErrInvalidMessage).
//   - hash.go: the pooled Keccak-256 state and the 32-byte word encoders.
//
// Values are expected to be valid (see the Validate methods): a nil *big.Int
// hashes as zero, and a negative or wider-than-256-bit one hashes as its value
// modulo 2²⁵⁶, which no wallet would produce. The Verify functions validate
// before they hash, so they never accept such a message.
package eip712
