package eip712

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

var secp256k1N, _ = new(big.Int).SetString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16)

// highS returns sig with s replaced by n - s and v flipped: the same
// signature in its malleable form, which ecrecover would still accept.
func highS(sig []byte) []byte {
	out := append([]byte(nil), sig...)
	s := new(big.Int).SetBytes(sig[32:64])
	new(big.Int).Sub(secp256k1N, s).FillBytes(out[32:64])
	if out[64] >= 27 {
		out[64] = 27 + 28 - out[64]
	} else {
		out[64] ^= 1
	}
	return out
}

// compact is sig (65 bytes, v 27/28 or 0/1, s ≤ n/2 expected) in EIP-2098
// form: r ‖ (s with the parity in its top bit).
func compact(sig []byte) []byte {
	out := append([]byte(nil), sig[:64]...)
	if sig[64] == 28 || sig[64] == 1 {
		out[32] |= 0x80
	}
	return out
}

func TestRecoverRefuses(t *testing.T) {
	v := loadVectors(t)
	digest := mustHash(t, v.Gasless.Digest)
	good := hexutil.MustDecode(v.Gasless.Signature)
	if _, err := Recover(digest, good); err != nil {
		t.Fatal(err)
	}
	with := func(f func(s []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for name, c := range map[string]struct {
		sig  []byte
		want error
	}{
		"empty":      {nil, ErrSignatureLength},
		"63 bytes":   {good[:63], ErrSignatureLength},
		"66 bytes":   {append(append([]byte(nil), good...), 0), ErrSignatureLength},
		"v=2":        {with(func(s []byte) []byte { s[64] = 2; return s }), ErrSignatureV},
		"v=26":       {with(func(s []byte) []byte { s[64] = 26; return s }), ErrSignatureV},
		"v=29":       {with(func(s []byte) []byte { s[64] = 29; return s }), ErrSignatureV},
		"v=37 (155)": {with(func(s []byte) []byte { s[64] = 37; return s }), ErrSignatureV},
		"r=0":        {with(func(s []byte) []byte { clear(s[:32]); return s }), ErrSignatureRange},
		"s=0":        {with(func(s []byte) []byte { clear(s[32:64]); return s }), ErrSignatureRange},
		"r=n":        {with(func(s []byte) []byte { secp256k1N.FillBytes(s[:32]); return s }), ErrSignatureRange},
		"r=2^256-1":  {with(func(s []byte) []byte { copy(s[:32], bytes.Repeat([]byte{0xff}, 32)); return s }), ErrSignatureRange},
		"s=n":        {with(func(s []byte) []byte { secp256k1N.FillBytes(s[32:64]); return s }), ErrSignatureHighS},
		"high s":     {highS(good), ErrSignatureHighS},
	} {
		t.Run(name, func(t *testing.T) {
			addr, err := Recover(digest, c.sig)
			if !errors.Is(err, c.want) || !errors.Is(err, ErrBadSignature) {
				t.Fatalf("Recover = %s, %v; want %v", addr, err, c.want)
			}
			if addr != (common.Address{}) {
				t.Fatalf("Recover returned %s with an error", addr)
			}
		})
	}
	// The EIP-2098 compact form names the same key (ethers'
	// Signature.compactSerialized; Permit2 accepts it on chain).
	want, err := Recover(digest, good)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Recover(digest, compact(good)); err != nil || got != want {
		t.Fatalf("compact: %s, %v; want %s", got, err, want)
	}
	if c := compact(good); !bytes.Equal(Expand(c), good) {
		t.Fatalf("Expand(%x) = %x, want %x", c, Expand(c), good)
	}
	// The malleable twin really is a valid signature for go-ethereum's
	// permissive ecrecover: refusing it is our choice, not an accident.
	twin := highS(good)
	twin[64] -= 27
	if pub, err := crypto.Ecrecover(digest[:], twin); err != nil {
		t.Fatalf("high-s twin does not recover at all: %v", err)
	} else if addr := common.BytesToAddress(crypto.Keccak256(pub[1:])[12:]); addr != mustAddr(t, v.SignerAddress) {
		t.Fatalf("high-s twin recovers %s", addr)
	}
}

func TestRecoverDoesNotAliasInput(t *testing.T) {
	v := loadVectors(t)
	sig := hexutil.MustDecode(v.Gasless.Signature)
	orig := append([]byte(nil), sig...)
	if _, err := Recover(mustHash(t, v.Gasless.Digest), sig); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sig, orig) {
		t.Fatal("Recover modified its signature argument")
	}
}

func TestVerifyOtherSigner(t *testing.T) {
	r := rng(1)
	k, other := randKey(t, r), randKey(t, r)
	signer := crypto.PubkeyToAddress(k.PublicKey)
	d, spender := randDomain(r), randAddr(r)
	o := randGasless(r, signer)
	if err := VerifyGasless(d, spender, o, sign(t, GaslessDigest(d, spender, o), k)); err != nil {
		t.Fatal(err)
	}
	err := VerifyGasless(d, spender, o, sign(t, GaslessDigest(d, spender, o), other))
	if !errors.Is(err, ErrSignerMismatch) {
		t.Fatalf("VerifyGasless(other key) = %v", err)
	}
	f := randRfq(r, signer)
	if err := VerifyRfq(d, spender, f, sign(t, RfqDigest(d, spender, f), k)); err != nil {
		t.Fatal(err)
	}
	// A gasless signature is no rfq signature, and the other way round.
	if err := VerifyRfq(d, spender, f, sign(t, GaslessDigest(d, spender, o), k)); !errors.Is(err, ErrSignerMismatch) {
		t.Fatalf("VerifyRfq(gasless signature) = %v", err)
	}
	if err := VerifyGasless(d, spender, o, sign(t, RfqDigest(d, spender, f), k)); !errors.Is(err, ErrSignerMismatch) {
		t.Fatalf("VerifyGasless(rfq signature) = %v", err)
	}
}

func TestVerifyRefusesInvalidMessage(t *testing.T) {
	v := loadVectors(t)
	d, o, f := v.Gasless.domain(t), v.Gasless.gaslessOrder(t), v.Rfq.rfqFunding(t)
	spender := mustAddr(t, v.Gasless.Message.Spender)
	sig := hexutil.MustDecode(v.Gasless.Signature)
	neg, wide := big.NewInt(-1), new(big.Int).Lsh(big.NewInt(1), 256)

	gasless := map[string]func(d *Domain, s *common.Address, o *GaslessOrder){
		"nil order":        nil,
		"chainId nil":      func(d *Domain, _ *common.Address, _ *GaslessOrder) { d.ChainID = nil },
		"chainId 0":        func(d *Domain, _ *common.Address, _ *GaslessOrder) { d.ChainID = new(big.Int) },
		"chainId negative": func(d *Domain, _ *common.Address, _ *GaslessOrder) { d.ChainID = neg },
		"permit2 zero":     func(d *Domain, _ *common.Address, _ *GaslessOrder) { d.Permit2 = common.Address{} },
		"spender zero":     func(_ *Domain, s *common.Address, _ *GaslessOrder) { *s = common.Address{} },
		"signer zero":      func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Signer = common.Address{} },
		"tokenIn zero":     func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.TokenIn = common.Address{} },
		"tokenOut zero":    func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.TokenOut = common.Address{} },
		"recipient zero":   func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Recipient = common.Address{} },
		"pool zero":        func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Pool = common.Address{} },
		"amountIn nil":     func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.AmountIn = nil },
		"amountIn -1":      func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.AmountIn = neg },
		"amountIn 2^256":   func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.AmountIn = wide },
		"minAmountOut nil": func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.MinAmountOut = nil },
		"deadline -1":      func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Deadline = neg },
		"nonce 2^256":      func(_ *Domain, _ *common.Address, o *GaslessOrder) { o.Nonce = wide },
	}
	for name, mutate := range gasless {
		t.Run("gasless "+name, func(t *testing.T) {
			d2, s2, o2 := d, spender, *o
			op := &o2
			if mutate == nil {
				op = nil
			} else {
				mutate(&d2, &s2, op)
			}
			err := VerifyGasless(d2, s2, op, sig)
			if !errors.Is(err, ErrInvalidMessage) || errors.Is(err, ErrBadSignature) {
				t.Fatalf("VerifyGasless = %v, want ErrInvalidMessage", err)
			}
		})
	}
	rfq := map[string]func(f *RfqEscrowFunding){
		"nil funding":  nil,
		"signer zero":  func(f *RfqEscrowFunding) { f.Signer = common.Address{} },
		"escrow zero":  func(f *RfqEscrowFunding) { f.Escrow = common.Address{} },
		"token zero":   func(f *RfqEscrowFunding) { f.Token = common.Address{} },
		"amount nil":   func(f *RfqEscrowFunding) { f.Amount = nil },
		"deadline nil": func(f *RfqEscrowFunding) { f.Deadline = nil },
		"nonce -1":     func(f *RfqEscrowFunding) { f.Nonce = neg },
	}
	for name, mutate := range rfq {
		t.Run("rfq "+name, func(t *testing.T) {
			f2 := *f
			fp := &f2
			if mutate == nil {
				fp = nil
			} else {
				mutate(fp)
			}
			if err := VerifyRfq(d, f.Escrow, fp, sig); !errors.Is(err, ErrInvalidMessage) {
				t.Fatalf("VerifyRfq = %v, want ErrInvalidMessage", err)
			}
		})
	}
}

// TestOutOfRangeHashing pins the documented behaviour of the digest functions
// for values Validate refuses: nil hashes as zero, others modulo 2^256, and
// nothing panics.
func TestOutOfRangeHashing(t *testing.T) {
	v := loadVectors(t)
	d, o := v.Gasless.domain(t), v.Gasless.gaslessOrder(t)
	spender := mustAddr(t, v.Gasless.Message.Spender)

	a, b := *o, *o
	a.Nonce, b.Nonce = nil, new(big.Int)
	if GaslessDigest(d, spender, &a) != GaslessDigest(d, spender, &b) {
		t.Error("nil nonce does not hash as zero")
	}
	a.Nonce, b.Nonce = big.NewInt(-1), new(big.Int).Set(maxUint256)
	if GaslessDigest(d, spender, &a) != GaslessDigest(d, spender, &b) {
		t.Error("-1 does not hash as 2^256-1")
	}
	keep := new(big.Int).Set(a.Nonce)
	_ = GaslessDigest(d, spender, &a)
	if a.Nonce.Cmp(keep) != 0 {
		t.Error("hashing modified the caller's number")
	}
	_ = GaslessTypedData(Domain{}, common.Address{}, &GaslessOrder{})
	_ = RfqTypedData(Domain{}, common.Address{}, &RfqEscrowFunding{})
	_ = RfqDigest(Domain{}, common.Address{}, &RfqEscrowFunding{})
}

func TestTypedDataIsACopy(t *testing.T) {
	v := loadVectors(t)
	d, o := v.Gasless.domain(t), v.Gasless.gaslessOrder(t)
	td := GaslessTypedData(d, common.Address{1}, o)
	td.Domain.ChainID.SetInt64(5)
	td.Types["GaslessOrder"][0].Name = "mangled"
	td.Types["EIP712Domain"][0].Name = "mangled"
	if d.ChainID.Int64() != 1337 {
		t.Fatal("typed data shares the domain's chain id")
	}
	again := GaslessTypedData(d, common.Address{1}, o)
	if again.Types["GaslessOrder"][0].Name != "signer" || again.Types["EIP712Domain"][0].Name != "name" {
		t.Fatal("typed data shares the package's type lists")
	}
}

func FuzzRecover(f *testing.F) {
	v := loadVectors(f)
	good := hexutil.MustDecode(v.Gasless.Signature)
	digest := mustHash(f, v.Gasless.Digest)
	f.Add(digest[:], good)
	f.Add(digest[:], highS(good))
	f.Add(digest[:], good[:64])
	f.Add(digest[:], []byte{})
	f.Add([]byte{}, good)
	f.Add(make([]byte, 32), make([]byte, 65))
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 65))
	f.Add(digest[:], append(bytes.Repeat([]byte{0xff}, 64), 27))
	f.Fuzz(func(t *testing.T, dig, sig []byte) {
		var d [32]byte
		copy(d[:], dig)
		addr, err := Recover(d, sig)
		if err != nil {
			if !errors.Is(err, ErrBadSignature) {
				t.Fatalf("error %v does not wrap ErrBadSignature", err)
			}
			if addr != (common.Address{}) {
				t.Fatalf("address %s with error %v", addr, err)
			}
			return
		}
		if len(sig) == CompactSignatureLength {
			if full, _ := Recover(d, Expand(sig)); full != addr || compact(Expand(sig)) == nil || !bytes.Equal(compact(Expand(sig)), sig) {
				t.Fatalf("compact %x recovers %s, its 65 bytes %s", sig, addr, full)
			}
			return
		}
		if len(sig) != SignatureLength {
			t.Fatalf("accepted a %d-byte signature", len(sig))
		}
		if s := new(big.Int).SetBytes(sig[32:64]); s.Sign() == 0 || s.Cmp(new(big.Int).Rsh(secp256k1N, 1)) > 0 {
			t.Fatalf("accepted s = %x", s)
		}
		// Both v conventions name the same key.
		alt := append([]byte(nil), sig...)
		if alt[64] >= 27 {
			alt[64] -= 27
		} else {
			alt[64] += 27
		}
		if addr2, err := Recover(d, alt); err != nil || addr2 != addr {
			t.Fatalf("v %d gives %s, v %d gives %s, %v", sig[64], addr, alt[64], addr2, err)
		}
	})
}

// TestConcurrentDigests hammers the pooled hasher from many goroutines; run
// with -race.
func TestConcurrentDigests(t *testing.T) {
	v := loadVectors(t)
	d, o, f := v.Gasless.domain(t), v.Gasless.gaslessOrder(t), v.Rfq.rfqFunding(t)
	sp := mustAddr(t, v.Gasless.Message.Spender)
	wantG, wantR := mustHash(t, v.Gasless.Digest), mustHash(t, v.Rfq.Digest)
	sigG, sigR := hexutil.MustDecode(v.Gasless.Signature), hexutil.MustDecode(v.Rfq.Signature)
	t.Run("group", func(t *testing.T) {
		for range 8 {
			t.Run("worker", func(t *testing.T) {
				t.Parallel()
				for range 200 {
					if GaslessDigest(d, sp, o) != wantG || RfqDigest(d, f.Escrow, f) != wantR {
						t.Error("digest changed under concurrency")
						return
					}
				}
				if VerifyGasless(d, sp, o, sigG) != nil || VerifyRfq(d, f.Escrow, f, sigR) != nil {
					t.Error("verify failed under concurrency")
				}
			})
		}
	})
}
