// Package rfq signs and verifies market-maker quotes for the RFQ escrow
// (chain/contracts/src/RfqEscrow.sol) and derives the service's execution ids.
//
// A maker signs the EIP-712 digest of a Quote under the escrow's domain
// {name "FxdRfqEscrow", version "1", chainId, verifyingContract = escrow}.
// The hashing is written out by hand for this one fixed type, in the style of
// chain/eip712: pooled go-ethereum Keccak-256 over fixed-size buffers, no
// reflection, no type-string parsing. QuoteHash equals the escrow's
// hashQuote view and Digest its quoteDigest view.
package rfq

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
)

// QuoteType is the encoded EIP-712 type of a Quote (RfqEscrow.QUOTE_TYPEHASH's preimage).
const QuoteType = "Quote(address maker,address taker,address tokenIn,address tokenOut,uint256 amountIn,uint256 amountOut,uint256 expiry,uint256 salt)"

// DomainType is the encoded EIP-712 type of the escrow's domain.
const DomainType = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"

// DomainName and DomainVersion are the escrow's EIP-712 domain name and version.
const (
	DomainName    = "FxdRfqEscrow"
	DomainVersion = "1"
)

var (
	quoteTypeHash  = crypto.Keccak256Hash([]byte(QuoteType))
	domainTypeHash = crypto.Keccak256Hash([]byte(DomainType))
	nameHash       = crypto.Keccak256Hash([]byte(DomainName))
	versionHash    = crypto.Keccak256Hash([]byte(DomainVersion))
	maxUint96      = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 96), big.NewInt(1))
	maxUint256     = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

// Quote is RfqEscrow.Quote, field for field and in order: the maker will pay
// AmountOut of TokenOut to Taker for AmountIn of TokenIn if the taker funds
// the escrow by Expiry (unix seconds). Salt makes equal quotes distinct.
type Quote struct {
	Maker     common.Address
	Taker     common.Address
	TokenIn   common.Address
	TokenOut  common.Address
	AmountIn  *big.Int
	AmountOut *big.Int
	Expiry    *big.Int
	Salt      *big.Int
}

// ErrInvalidQuote is wrapped by Validate's errors.
var ErrInvalidQuote = errors.New("rfq: invalid quote")

// Validate applies the escrow's static checks (its InvalidQuote rules: amounts
// non-zero and at most 2⁹⁶−1, non-zero taker, tokenIn ≠ tokenOut) plus
// those every field needs to be hashed faithfully: a non-zero maker and
// tokens, Expiry and Salt present uint256 values. Expiry against the clock
// and the maker allowlist are the caller's (and the escrow's) to check.
func (q *Quote) Validate() error {
	if q == nil {
		return fmt.Errorf("%w: missing", ErrInvalidQuote)
	}
	zero := common.Address{}
	switch {
	case q.Maker == zero:
		return fmt.Errorf("%w: zero maker", ErrInvalidQuote)
	case q.Taker == zero:
		return fmt.Errorf("%w: zero taker", ErrInvalidQuote)
	case q.TokenIn == zero || q.TokenOut == zero:
		return fmt.Errorf("%w: zero token", ErrInvalidQuote)
	case q.TokenIn == q.TokenOut:
		return fmt.Errorf("%w: tokenIn equals tokenOut", ErrInvalidQuote)
	}
	for _, a := range [...]struct {
		name string
		v    *big.Int
		max  *big.Int
	}{
		{"amountIn", q.AmountIn, maxUint96},
		{"amountOut", q.AmountOut, maxUint96},
		{"expiry", q.Expiry, maxUint256},
		{"salt", q.Salt, maxUint256},
	} {
		switch {
		case a.v == nil:
			return fmt.Errorf("%w: %s missing", ErrInvalidQuote, a.name)
		case a.v.Sign() < 0 || a.v.Cmp(a.max) > 0:
			return fmt.Errorf("%w: %s out of range", ErrInvalidQuote, a.name)
		case a.max == maxUint96 && a.v.Sign() == 0:
			return fmt.Errorf("%w: %s is zero", ErrInvalidQuote, a.name)
		}
	}
	return nil
}

// Binding converts q to the generated binding's struct (for escrowQuoteWithPermit2).
func (q *Quote) Binding() fxbind.RfqEscrowQuote {
	return fxbind.RfqEscrowQuote{
		Maker: q.Maker, Taker: q.Taker, TokenIn: q.TokenIn, TokenOut: q.TokenOut,
		AmountIn: q.AmountIn, AmountOut: q.AmountOut, Expiry: q.Expiry, Salt: q.Salt,
	}
}

// FromBinding converts the generated binding's struct to a Quote.
func FromBinding(b fxbind.RfqEscrowQuote) *Quote {
	return &Quote{
		Maker: b.Maker, Taker: b.Taker, TokenIn: b.TokenIn, TokenOut: b.TokenOut,
		AmountIn: b.AmountIn, AmountOut: b.AmountOut, Expiry: b.Expiry, Salt: b.Salt,
	}
}

func quoteHash(h eip712.Hasher, q *Quote) [32]byte {
	b := h.Words(9)
	copy(b[0:32], quoteTypeHash[:])
	eip712.PutAddress(b[32:64], q.Maker)
	eip712.PutAddress(b[64:96], q.Taker)
	eip712.PutAddress(b[96:128], q.TokenIn)
	eip712.PutAddress(b[128:160], q.TokenOut)
	eip712.PutUint(b[160:192], q.AmountIn)
	eip712.PutUint(b[192:224], q.AmountOut)
	eip712.PutUint(b[224:256], q.Expiry)
	eip712.PutUint(b[256:288], q.Salt)
	return h.Sum(len(b))
}

func separator(h eip712.Hasher, chainID *big.Int, escrow common.Address) [32]byte {
	b := h.Words(5)
	copy(b[0:32], domainTypeHash[:])
	copy(b[32:64], nameHash[:])
	copy(b[64:96], versionHash[:])
	eip712.PutUint(b[96:128], chainID)
	eip712.PutAddress(b[128:160], escrow)
	return h.Sum(len(b))
}

// QuoteHash returns hashStruct(Quote) = keccak256(QUOTE_TYPEHASH ‖ fields),
// equal to RfqEscrow.hashQuote(q): the quoteHash a funding must name.
func QuoteHash(q *Quote) [32]byte {
	h := eip712.NewHasher()
	defer h.Release()
	return quoteHash(h, q)
}

// DomainSeparator returns the escrow's EIP-712 domain separator, equal to
// RfqEscrow.DOMAIN_SEPARATOR() on chain chainID.
func DomainSeparator(chainID *big.Int, escrow common.Address) [32]byte {
	h := eip712.NewHasher()
	defer h.Release()
	return separator(h, chainID, escrow)
}

// Digest returns keccak256("\x19\x01" ‖ domainSeparator ‖ QuoteHash(q)), the
// digest the maker signs, equal to RfqEscrow.quoteDigest(q).
func Digest(chainID *big.Int, escrow common.Address, q *Quote) [32]byte {
	h := eip712.NewHasher()
	defer h.Release()
	sep := separator(h, chainID, escrow)
	qh := quoteHash(h, q)
	b := h.Words(3)[:66]
	b[0], b[1] = 0x19, 0x01
	copy(b[2:34], sep[:])
	copy(b[34:66], qh[:])
	return h.Sum(66)
}

// Sign signs digest with key: 65 bytes r ‖ s ‖ v, v ∈ {27, 28}, low s
// (go-ethereum's signer is deterministic, RFC 6979, and canonical).
func Sign(key *ecdsa.PrivateKey, digest [32]byte) ([]byte, error) {
	if key == nil {
		return nil, errors.New("rfq: nil key")
	}
	sig, err := crypto.Sign(digest[:], key)
	if err != nil {
		return nil, fmt.Errorf("rfq: sign: %w", err)
	}
	sig[64] += 27
	return sig, nil
}

// SignQuote is Sign(key, Digest(chainID, escrow, q)).
func SignQuote(key *ecdsa.PrivateKey, chainID *big.Int, escrow common.Address, q *Quote) ([]byte, error) {
	return Sign(key, Digest(chainID, escrow, q))
}

// ErrBadSignature is eip712.ErrBadSignature: every signature failure wraps it.
var ErrBadSignature = eip712.ErrBadSignature

// Recover returns the signer of q's digest. sig is 65 bytes r ‖ s ‖ v (v in
// {27, 28} or {0, 1}) or 64 bytes EIP-2098 compact r ‖ vs, the two forms
// the escrow's ECDSA library accepts; high-s signatures are refused, as on
// chain. Errors wrap ErrBadSignature.
func Recover(chainID *big.Int, escrow common.Address, q *Quote, sig []byte) (common.Address, error) {
	return eip712.Recover(Digest(chainID, escrow, q), sig)
}

// Verify checks that q is valid (Validate) and that sig is q.Maker's
// signature of Digest(chainID, escrow, q). It does not check q.Expiry or
// whether the maker is registered in the escrow. Signature errors wrap
// ErrBadSignature; quote errors wrap ErrInvalidQuote.
func Verify(chainID *big.Int, escrow common.Address, q *Quote, sig []byte) error {
	if chainID == nil || chainID.Sign() <= 0 || chainID.BitLen() > 256 {
		return errors.New("rfq: invalid chain id")
	}
	if err := q.Validate(); err != nil {
		return err
	}
	got, err := Recover(chainID, escrow, q, sig)
	if err != nil {
		return err
	}
	if got != q.Maker {
		return fmt.Errorf("%w: recovered %s, want maker %s", eip712.ErrSignerMismatch, got.Hex(), q.Maker.Hex())
	}
	return nil
}

// ExecutionID derives the escrow executionId of one funding of a quote:
//
//	executionId = keccak256(abi.encode(quoteHash, taker, nonce))
//	            = keccak256(quoteHash ‖ leftpad32(taker) ‖ uint256(nonce))
//
// where quoteHash = QuoteHash(q) (= RfqEscrow.hashQuote), taker = q.Taker
// (= funding.signer) and nonce = the funding's Permit2 nonce. Anyone holding
// the quote and the funding can recompute it (in Solidity with the same
// abi.encode); since the escrow accepts each quoteHash once, it is unique per
// escrowed quote. A nil nonce encodes as zero.
func ExecutionID(quoteHash [32]byte, taker common.Address, nonce *big.Int) [32]byte {
	h := eip712.NewHasher()
	defer h.Release()
	b := h.Words(3)
	copy(b[0:32], quoteHash[:])
	eip712.PutAddress(b[32:64], taker)
	eip712.PutUint(b[64:96], nonce)
	return h.Sum(len(b))
}
