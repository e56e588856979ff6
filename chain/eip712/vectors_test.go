package eip712

import (
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestVectorsSigner(t *testing.T) {
	v := loadVectors(t)
	k, err := crypto.HexToECDSA(v.SignerPrivateKey[2:])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := crypto.PubkeyToAddress(k.PublicKey), mustAddr(t, v.SignerAddress); got != want {
		t.Fatalf("signer key gives %s, vectors say %s", got, want)
	}
}

func TestVectorsTypeStrings(t *testing.T) {
	v := loadVectors(t)
	for _, c := range []struct {
		name, witness, encodeType string
		vec                       *vectorCase
	}{
		{"gasless", GaslessWitnessTypeString, GaslessEncodeType, &v.Gasless},
		{"rfq", RfqWitnessTypeString, RfqEncodeType, &v.Rfq},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.witness != c.vec.WitnessTypeString {
				t.Errorf("witnessTypeString\n got %s\nwant %s", c.witness, c.vec.WitnessTypeString)
			}
			const stub = "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,"
			if want := stub + c.vec.WitnessTypeString; c.encodeType != want {
				t.Errorf("encodeType\n got %s\nwant %s", c.encodeType, want)
			}
			if c.encodeType != c.vec.EncodeType {
				t.Errorf("encodeType\n got %s\nvector %s", c.encodeType, c.vec.EncodeType)
			}
		})
	}
	// CONTRACT.md's literal text, independent of the vectors file.
	if GaslessWitnessTypeString != "GaslessOrder witness)GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)" {
		t.Errorf("GaslessWitnessTypeString drifted from CONTRACT.md: %s", GaslessWitnessTypeString)
	}
	if RfqWitnessTypeString != "RfqEscrowFunding witness)RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)" {
		t.Errorf("RfqWitnessTypeString drifted from CONTRACT.md: %s", RfqWitnessTypeString)
	}
}

func TestVectorsGasless(t *testing.T) {
	v := loadVectors(t)
	c := &v.Gasless
	d, o := c.domain(t), c.gaslessOrder(t)
	spender := mustAddr(t, c.Message.Spender)
	checkEnvelope(t, c, o.TokenIn, o.AmountIn, o.Nonce, o.Deadline)

	if got := hexutil.Encode(sep(d)); got != c.DomainSeparator {
		t.Errorf("domain separator %s, want %s", got, c.DomainSeparator)
	}
	dg := GaslessDigest(d, spender, o)
	if got := hexutil.Encode(dg[:]); got != c.Digest {
		t.Fatalf("digest %s, want %s", got, c.Digest)
	}
	sig := hexutil.MustDecode(c.Signature)
	checkRecover(t, dg, sig, mustAddr(t, v.SignerAddress))
	if err := VerifyGasless(d, spender, o, sig); err != nil {
		t.Fatalf("VerifyGasless(vector) = %v", err)
	}
	checkTypedDataJSON(t, GaslessTypedData(d, spender, o), v.raw.Gasless)

	// Every input the signature commits to: change it and both the digest
	// and the verdict change.
	flips := map[string]func(d *Domain, spender *common.Address, o *GaslessOrder){
		"signer":       func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Signer = flipAddr(o.Signer) },
		"tokenIn":      func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.TokenIn = flipAddr(o.TokenIn) },
		"tokenOut":     func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.TokenOut = flipAddr(o.TokenOut) },
		"amountIn":     func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.AmountIn = inc(o.AmountIn) },
		"minAmountOut": func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.MinAmountOut = inc(o.MinAmountOut) },
		"recipient":    func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Recipient = flipAddr(o.Recipient) },
		"pool":         func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Pool = flipAddr(o.Pool) },
		"deadline":     func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Deadline = inc(o.Deadline) },
		"nonce":        func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Nonce = inc(o.Nonce) },
		"spender":      func(_ *Domain, s *common.Address, _ *GaslessOrder) { *s = flipAddr(*s) },
		"chainId":      func(d *Domain, _ *common.Address, _ *GaslessOrder) { d.ChainID = inc(d.ChainID) },
		"permit2":      func(d *Domain, _ *common.Address, _ *GaslessOrder) { d.Permit2 = flipAddr(d.Permit2) },
	}
	if n := reflect.TypeFor[GaslessOrder]().NumField() + 3; len(flips) != n {
		t.Fatalf("%d flips for %d signed inputs", len(flips), n)
	}
	for name, flip := range flips {
		t.Run("flip_"+name, func(t *testing.T) {
			d2, s2, o2 := c.domain(t), spender, c.gaslessOrder(t)
			flip(&d2, &s2, o2)
			if GaslessDigest(d2, s2, o2) == dg {
				t.Fatal("digest unchanged")
			}
			err := VerifyGasless(d2, s2, o2, sig)
			if !errors.Is(err, ErrBadSignature) || !errors.Is(err, ErrSignerMismatch) {
				t.Fatalf("VerifyGasless = %v, want ErrSignerMismatch", err)
			}
		})
	}
}

func TestVectorsRfq(t *testing.T) {
	v := loadVectors(t)
	c := &v.Rfq
	d, f := c.domain(t), c.rfqFunding(t)
	spender := mustAddr(t, c.Message.Spender)
	if spender != f.Escrow {
		t.Fatalf("vector spender %s is not the escrow %s", spender, f.Escrow)
	}
	checkEnvelope(t, c, f.Token, f.Amount, f.Nonce, f.Deadline)

	if got := hexutil.Encode(sep(d)); got != c.DomainSeparator {
		t.Errorf("domain separator %s, want %s", got, c.DomainSeparator)
	}
	dg := RfqDigest(d, spender, f)
	if got := hexutil.Encode(dg[:]); got != c.Digest {
		t.Fatalf("digest %s, want %s", got, c.Digest)
	}
	sig := hexutil.MustDecode(c.Signature)
	checkRecover(t, dg, sig, mustAddr(t, v.SignerAddress))
	if err := VerifyRfq(d, spender, f, sig); err != nil {
		t.Fatalf("VerifyRfq(vector) = %v", err)
	}
	checkTypedDataJSON(t, RfqTypedData(d, spender, f), v.raw.Rfq)

	flips := map[string]func(d *Domain, spender *common.Address, f *RfqEscrowFunding){
		"signer":      func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.Signer = flipAddr(f.Signer) },
		"executionId": func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.ExecutionID[31] ^= 1 },
		"escrow":      func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.Escrow = flipAddr(f.Escrow) },
		"quoteHash":   func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.QuoteHash[0] ^= 0x80 },
		"token":       func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.Token = flipAddr(f.Token) },
		"amount":      func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.Amount = inc(f.Amount) },
		"deadline":    func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.Deadline = inc(f.Deadline) },
		"nonce":       func(_ *Domain, _ *common.Address, f *RfqEscrowFunding) { f.Nonce = inc(f.Nonce) },
		"spender":     func(_ *Domain, s *common.Address, _ *RfqEscrowFunding) { *s = flipAddr(*s) },
		"chainId":     func(d *Domain, _ *common.Address, _ *RfqEscrowFunding) { d.ChainID = inc(d.ChainID) },
		"permit2":     func(d *Domain, _ *common.Address, _ *RfqEscrowFunding) { d.Permit2 = flipAddr(d.Permit2) },
	}
	if n := reflect.TypeFor[RfqEscrowFunding]().NumField() + 3; len(flips) != n {
		t.Fatalf("%d flips for %d signed inputs", len(flips), n)
	}
	for name, flip := range flips {
		t.Run("flip_"+name, func(t *testing.T) {
			d2, s2, f2 := c.domain(t), spender, c.rfqFunding(t)
			flip(&d2, &s2, f2)
			if RfqDigest(d2, s2, f2) == dg {
				t.Fatal("digest unchanged")
			}
			err := VerifyRfq(d2, s2, f2, sig)
			if !errors.Is(err, ErrBadSignature) || !errors.Is(err, ErrSignerMismatch) {
				t.Fatalf("VerifyRfq = %v, want ErrSignerMismatch", err)
			}
		})
	}
}

func sep(d Domain) []byte { s := d.Separator(); return s[:] }

func flipAddr(a common.Address) common.Address { a[19] ^= 1; return a }

func inc(v *big.Int) *big.Int { return new(big.Int).Add(v, big.NewInt(1)) }

// checkEnvelope checks that the vector's Permit2 envelope is the one our API
// derives from the witness: permitted = {token, amount}, nonce, deadline.
func checkEnvelope(t *testing.T, c *vectorCase, token common.Address, amount, nonce, deadline *big.Int) {
	t.Helper()
	m := c.Message
	if mustAddr(t, m.Permitted.Token) != token || mustBig(t, m.Permitted.Amount).Cmp(amount) != 0 ||
		mustBig(t, m.Nonce).Cmp(nonce) != 0 || mustBig(t, m.Deadline).Cmp(deadline) != 0 {
		t.Fatalf("vector envelope %+v does not derive from its witness", m)
	}
	if c.PrimaryType != PermitPrimaryType {
		t.Fatalf("vector primaryType %q", c.PrimaryType)
	}
}

// checkRecover checks Recover on sig in both v conventions.
func checkRecover(t *testing.T, digest [32]byte, sig []byte, want common.Address) {
	t.Helper()
	if sig[64] != 27 && sig[64] != 28 {
		t.Fatalf("vector v = %d, want 27/28", sig[64])
	}
	got, err := Recover(digest, sig)
	if err != nil || got != want {
		t.Fatalf("Recover = %s, %v; want %s", got, err, want)
	}
	sig01 := append([]byte(nil), sig...)
	sig01[64] -= 27
	if got, err := Recover(digest, sig01); err != nil || got != want {
		t.Fatalf("Recover(v in {0,1}) = %s, %v; want %s", got, err, want)
	}
}

// checkTypedDataJSON checks that our typed data, minus EIP712Domain (which
// ethers leaves out), is the vector's JSON value for value.
func checkTypedDataJSON(t *testing.T, td TypedData, vector json.RawMessage) {
	t.Helper()
	if _, ok := td.Types["EIP712Domain"]; !ok {
		t.Fatal("typed data lacks types.EIP712Domain (eth_signTypedData_v4 needs it)")
	}
	ours, err := json.Marshal(td)
	if err != nil {
		t.Fatal(err)
	}
	var got, want map[string]any
	if err := json.Unmarshal(ours, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(vector, &want); err != nil {
		t.Fatal(err)
	}
	delete(got["types"].(map[string]any), "EIP712Domain")
	for _, k := range []string{"witnessTypeString", "encodeType", "domain_separator", "digest", "signature"} {
		delete(want, k)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("typed data JSON differs from the vector\n got %s\nwant %s", g, w)
	}
}
