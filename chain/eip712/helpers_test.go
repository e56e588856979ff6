package eip712

import (
	"crypto/ecdsa"
	"encoding/json"
	"github.com/fxd-labs/fxd/internal/repo"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// vectorFile is shared/vectors/eip712.json.
type vectorFile struct {
	SignerPrivateKey string       `json:"signer_private_key"`
	SignerAddress    string       `json:"signer_address"`
	Gasless          vectorCase   `json:"gasless_order"`
	Rfq              vectorCase   `json:"rfq_escrow_funding"`
	raw              vectorRawSet `json:"-"`
}

type vectorRawSet struct {
	Gasless json.RawMessage `json:"gasless_order"`
	Rfq     json.RawMessage `json:"rfq_escrow_funding"`
}

type vectorCase struct {
	Domain struct {
		Name              string `json:"name"`
		ChainID           int64  `json:"chainId"`
		VerifyingContract string `json:"verifyingContract"`
	} `json:"domain"`
	PrimaryType string                      `json:"primaryType"`
	Types       map[string][]TypedDataField `json:"types"`
	Message     struct {
		Permitted struct {
			Token  string `json:"token"`
			Amount string `json:"amount"`
		} `json:"permitted"`
		Spender  string            `json:"spender"`
		Nonce    string            `json:"nonce"`
		Deadline string            `json:"deadline"`
		Witness  map[string]string `json:"witness"`
	} `json:"message"`
	WitnessTypeString string `json:"witnessTypeString"`
	EncodeType        string `json:"encodeType"`
	DomainSeparator   string `json:"domain_separator"`
	Digest            string `json:"digest"`
	Signature         string `json:"signature"`
}

// loadVectors reads <repo root>/../shared/vectors/eip712.json; a missing or
// unreadable file fails the test.
func loadVectors(t testing.TB) *vectorFile {
	t.Helper()
	path := filepath.Join(repo.MustRoot(t), "..", "shared", "vectors", "eip712.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reference vectors: %v", err)
	}
	var v vectorFile
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("reference vectors %s: %v", path, err)
	}
	if err := json.Unmarshal(data, &v.raw); err != nil {
		t.Fatalf("reference vectors %s: %v", path, err)
	}
	if v.SignerAddress == "" || v.Gasless.Digest == "" || v.Rfq.Digest == "" {
		t.Fatalf("reference vectors %s: incomplete", path)
	}
	return &v
}

func mustBig(t testing.TB, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("not a decimal integer: %q", s)
	}
	return v
}

func mustAddr(t testing.TB, s string) common.Address {
	t.Helper()
	if !common.IsHexAddress(s) {
		t.Fatalf("not an address: %q", s)
	}
	return common.HexToAddress(s)
}

func mustHash(t testing.TB, s string) [32]byte {
	t.Helper()
	b, err := hexutil.Decode(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("not a 32-byte hex value: %q", s)
	}
	return [32]byte(b)
}

func (c *vectorCase) domain(t testing.TB) Domain {
	if c.Domain.Name != Permit2Name {
		t.Fatalf("vector domain name %q", c.Domain.Name)
	}
	return Domain{ChainID: big.NewInt(c.Domain.ChainID), Permit2: mustAddr(t, c.Domain.VerifyingContract)}
}

func (c *vectorCase) gaslessOrder(t testing.TB) *GaslessOrder {
	w := c.Message.Witness
	return &GaslessOrder{
		Signer:       mustAddr(t, w["signer"]),
		TokenIn:      mustAddr(t, w["tokenIn"]),
		TokenOut:     mustAddr(t, w["tokenOut"]),
		AmountIn:     mustBig(t, w["amountIn"]),
		MinAmountOut: mustBig(t, w["minAmountOut"]),
		Recipient:    mustAddr(t, w["recipient"]),
		Pool:         mustAddr(t, w["pool"]),
		Deadline:     mustBig(t, w["deadline"]),
		Nonce:        mustBig(t, w["nonce"]),
	}
}

func (c *vectorCase) rfqFunding(t testing.TB) *RfqEscrowFunding {
	w := c.Message.Witness
	return &RfqEscrowFunding{
		Signer:      mustAddr(t, w["signer"]),
		ExecutionID: mustHash(t, w["executionId"]),
		Escrow:      mustAddr(t, w["escrow"]),
		QuoteHash:   mustHash(t, w["quoteHash"]),
		Token:       mustAddr(t, w["token"]),
		Amount:      mustBig(t, w["amount"]),
		Deadline:    mustBig(t, w["deadline"]),
		Nonce:       mustBig(t, w["nonce"]),
	}
}

// rng is a deterministic source for the property and interop tests.
func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

func randAddr(r *rand.Rand) common.Address {
	var a common.Address
	for i := range a {
		a[i] = byte(r.Uint32())
	}
	if r.IntN(8) == 0 { // a low address like the vectors' 0x…1001
		a = common.BigToAddress(big.NewInt(int64(r.IntN(1 << 16))))
	}
	return a
}

func randHash(r *rand.Rand) [32]byte {
	var h [32]byte
	for i := range h {
		h[i] = byte(r.Uint32())
	}
	return h
}

// randUint256 draws a uint256 with a random bit length, including 0 and the
// maximum, so every byte of the encoding is exercised.
func randUint256(r *rand.Rand) *big.Int {
	switch r.IntN(10) {
	case 0:
		return new(big.Int)
	case 1:
		return new(big.Int).Set(maxUint256)
	}
	bits := 1 + r.IntN(256)
	h := randHash(r)
	v := new(big.Int).SetBytes(h[:])
	return v.Rsh(v, uint(256-bits))
}

func randDomain(r *rand.Rand) Domain {
	chainIDs := []int64{1, 10, 137, 1337, 8453, 42161, 11155111}
	d := Domain{ChainID: big.NewInt(chainIDs[r.IntN(len(chainIDs))]), Permit2: CanonicalPermit2}
	if r.IntN(4) == 0 {
		d.ChainID = new(big.Int).SetUint64(1 + r.Uint64()>>12)
		d.Permit2 = randAddr(r)
	}
	return d
}

func randGasless(r *rand.Rand, signer common.Address) *GaslessOrder {
	return &GaslessOrder{
		Signer:       signer,
		TokenIn:      randAddr(r),
		TokenOut:     randAddr(r),
		AmountIn:     randUint256(r),
		MinAmountOut: randUint256(r),
		Recipient:    randAddr(r),
		Pool:         randAddr(r),
		Deadline:     randUint256(r),
		Nonce:        randUint256(r),
	}
}

func randRfq(r *rand.Rand, signer common.Address) *RfqEscrowFunding {
	return &RfqEscrowFunding{
		Signer:      signer,
		ExecutionID: randHash(r),
		Escrow:      randAddr(r),
		QuoteHash:   randHash(r),
		Token:       randAddr(r),
		Amount:      randUint256(r),
		Deadline:    randUint256(r),
		Nonce:       randUint256(r),
	}
}

// randKey draws a valid secp256k1 private key from r.
func randKey(t testing.TB, r *rand.Rand) *ecdsa.PrivateKey {
	for {
		h := randHash(r)
		if k, err := crypto.ToECDSA(h[:]); err == nil {
			return k
		}
	}
}

// sign signs digest with k and returns r ‖ s ‖ v with v in {27, 28}, as
// wallets do.
func sign(t testing.TB, digest [32]byte, k *ecdsa.PrivateKey) []byte {
	t.Helper()
	sig, err := crypto.Sign(digest[:], k)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}
