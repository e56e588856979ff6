package eip712

import (
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// hasher is a pooled go-ethereum Keccak-256 state with the scratch buffer the
// encoders fill: the largest encoding here is a GaslessOrder's ten words.
// Keeping both off the stack of the callers is what makes hashing
// allocation-free (a slice passed through the KeccakState interface would
// otherwise escape to the heap on every call).
type hasher struct {
	k   crypto.KeccakState
	buf [10 * 32]byte
	out [32]byte
}

var hashers = sync.Pool{New: func() any { return &hasher{k: crypto.NewKeccakState()} }}

func getHasher() *hasher   { return hashers.Get().(*hasher) }
func (h *hasher) release() { hashers.Put(h) }

// sum returns keccak256(h.buf[:n]).
func (h *hasher) sum(n int) [32]byte {
	h.k.Reset()
	h.k.Write(h.buf[:n])
	h.k.Read(h.out[:])
	return h.out
}

// putUint writes v as a 32-byte big-endian uint256 into dst (len 32). nil
// writes zero; a value outside [0, 2²⁵⁶) writes v mod 2²⁵⁶ (see package doc).
func putUint(dst []byte, v *big.Int) {
	switch {
	case v == nil:
		clear(dst)
	case v.Sign() >= 0 && v.BitLen() <= 256:
		v.FillBytes(dst)
	default:
		m := new(big.Int).And(v, maxUint256) // two's complement, like math.U256
		m.FillBytes(dst)
	}
}

// putAddress writes a left-padded address into dst (len 32).
func putAddress(dst []byte, a common.Address) {
	clear(dst[:12])
	copy(dst[12:], a[:])
}

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// Hasher lends the pooled Keccak state and word buffer to other packages'
// EIP-712 and abi.encode hashes (chain/rfq), so there is one allocation-free
// encoder in the tree. Release it when done; the buffer holds up to ten words.
type Hasher struct{ h *hasher }

// NewHasher takes a Hasher from the pool.
func NewHasher() Hasher { return Hasher{getHasher()} }

// Release returns the Hasher to the pool.
func (x Hasher) Release() { x.h.release() }

// Words returns the first n 32-byte words of the buffer to fill.
func (x Hasher) Words(n int) []byte { return x.h.buf[:n*32] }

// Sum returns keccak256 of the first n bytes of the buffer.
func (x Hasher) Sum(n int) [32]byte { return x.h.sum(n) }

// PutUint writes v as a 32-byte big-endian uint256 (see putUint).
func PutUint(dst []byte, v *big.Int) { putUint(dst, v) }

// PutAddress writes a left-padded address into a 32-byte word.
func PutAddress(dst []byte, a common.Address) { putAddress(dst, a) }
