package bind

import (
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// forwarderCode is PaymentForwarder's creation code as compiled into this binary,
// decoded from hex once since every address derivation hashes it.
var forwarderCode = sync.OnceValue(func() []byte {
	return common.FromHex(PaymentForwarderMetaData.Bin)
})

// LinkSalt is the CREATE2 salt of a payment link: keccak256 of its string id (e.g.
// "pl_…"), as PaymentLinkFactory's NatSpec prescribes. Hashing the id, rather than
// storing a counter, lets anyone recompute a link's receive address from its id.
func LinkSalt(linkID string) [32]byte {
	return crypto.Keccak256Hash([]byte(linkID))
}

// ForwarderAddress is the CREATE2 address of the PaymentForwarder that factory
// deploys for (salt, payout), i.e. factory.forwarderAddress(salt, payout), computed
// off-chain so a link's receive address needs no RPC round trip. The init code is
// PaymentForwarder's creation code ++ abi.encode(payout), so the address commits to
// the payout wallet. It matches the chain only when the factory was deployed from
// this build's bytecode (see chain/contracts/build); a zero payout yields an address
// the factory refuses to deploy.
func ForwarderAddress(factory common.Address, salt [32]byte, payout common.Address) common.Address {
	initCodeHash := crypto.Keccak256(forwarderCode(), common.LeftPadBytes(payout[:], 32))
	return crypto.CreateAddress2(factory, salt, initCodeHash)
}
