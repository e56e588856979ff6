package eip712

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

type benchFixture struct {
	d       Domain
	spender common.Address
	o       *GaslessOrder
	f       *RfqEscrowFunding
	sig     []byte
	gTypes  apitypes.Types
	rTypes  apitypes.Types
}

func newBenchFixture(b *testing.B) *benchFixture {
	v := loadVectors(b)
	return &benchFixture{
		d:       v.Gasless.domain(b),
		spender: mustAddr(b, v.Gasless.Message.Spender),
		o:       v.Gasless.gaslessOrder(b),
		f:       v.Rfq.rfqFunding(b),
		sig:     hexutil.MustDecode(v.Gasless.Signature),
		gTypes:  apitypesTypes(b, &v.Gasless),
		rTypes:  apitypesTypes(b, &v.Rfq),
	}
}

var sinkHash [32]byte

// BenchmarkGaslessDigest is the hot path: the digest of a GaslessOrder.
func BenchmarkGaslessDigest(b *testing.B) {
	x := newBenchFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		sinkHash = GaslessDigest(x.d, x.spender, x.o)
	}
}

// BenchmarkGaslessDigestApitypes is the same digest through go-ethereum's
// generic encoder, message already built.
func BenchmarkGaslessDigestApitypes(b *testing.B) {
	x := newBenchFixture(b)
	td := apitypesGasless(x.gTypes, x.d, x.spender, x.o)
	b.ReportAllocs()
	for b.Loop() {
		h, _, err := apitypes.TypedDataAndHash(td)
		if err != nil {
			b.Fatal(err)
		}
		sinkHash = [32]byte(h)
	}
}

// BenchmarkGaslessTypedDataAndDigest is what accept does: build
// signing.typed_data and the digest to remember.
func BenchmarkGaslessTypedDataAndDigest(b *testing.B) {
	x := newBenchFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		td := GaslessTypedData(x.d, x.spender, x.o)
		sinkHash = GaslessDigest(x.d, x.spender, x.o)
		_ = td
	}
}

// BenchmarkGaslessTypedDataAndDigestApitypes does the same with apitypes:
// build its TypedData from the order, then hash it.
func BenchmarkGaslessTypedDataAndDigestApitypes(b *testing.B) {
	x := newBenchFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		h, _, err := apitypes.TypedDataAndHash(apitypesGasless(x.gTypes, x.d, x.spender, x.o))
		if err != nil {
			b.Fatal(err)
		}
		sinkHash = [32]byte(h)
	}
}

func BenchmarkRfqDigest(b *testing.B) {
	x := newBenchFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		sinkHash = RfqDigest(x.d, x.spender, x.f)
	}
}

func BenchmarkRfqDigestApitypes(b *testing.B) {
	x := newBenchFixture(b)
	td := apitypesRfq(x.rTypes, x.d, x.spender, x.f)
	b.ReportAllocs()
	for b.Loop() {
		h, _, err := apitypes.TypedDataAndHash(td)
		if err != nil {
			b.Fatal(err)
		}
		sinkHash = [32]byte(h)
	}
}

// BenchmarkVerifyGasless is what submit does: validate, hash, recover,
// compare. Recovery (secp256k1) dominates.
func BenchmarkVerifyGasless(b *testing.B) {
	x := newBenchFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := VerifyGasless(x.d, x.spender, x.o, x.sig); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyGaslessApitypes is the generic route: apitypes digest, then
// crypto.SigToPub.
func BenchmarkVerifyGaslessApitypes(b *testing.B) {
	x := newBenchFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		h, _, err := apitypes.TypedDataAndHash(apitypesGasless(x.gTypes, x.d, x.spender, x.o))
		if err != nil {
			b.Fatal(err)
		}
		sig := append([]byte(nil), x.sig...)
		sig[64] -= 27
		pub, err := crypto.SigToPub(h, sig)
		if err != nil || crypto.PubkeyToAddress(*pub) != x.o.Signer {
			b.Fatal("mismatch", err)
		}
	}
}

func BenchmarkRecover(b *testing.B) {
	x := newBenchFixture(b)
	dg := GaslessDigest(x.d, x.spender, x.o)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recover(dg, x.sig); err != nil {
			b.Fatal(err)
		}
	}
}
