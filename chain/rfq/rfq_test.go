package rfq

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/simtest"
)

var simChainID = simtest.ChainID

func mustKey(t testing.TB, b byte) *ecdsa.PrivateKey { return simtest.Key(t, b) }

func addr(k *ecdsa.PrivateKey) common.Address { return simtest.Addr(k) }

// env: a simulated chain with DeployAll's contract set, Permit2 at the
// canonical address, a registered and funded maker (approved the escrow) and
// a funded taker (approved Permit2), as in chain/bind's tests.
type env struct {
	*simtest.Chain
	t        *testing.T
	addrs    *fxbind.Addresses
	c        *fxbind.Contracts
	deployer *ecdsa.PrivateKey
	user     *ecdsa.PrivateKey
	maker    *ecdsa.PrivateKey
	other    *ecdsa.PrivateKey
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, deployer: mustKey(t, 0xd0), user: mustKey(t, 0x11), maker: mustKey(t, 0x22), other: mustKey(t, 0x44)}
	e.Chain = simtest.New(t, e.deployer, e.user, e.maker, e.other)
	e.addrs, e.c = e.Deploy(e.deployer, fxbind.DeployConfig{
		Makers:         []common.Address{addr(e.maker)},
		MakerInventory: fxbind.Units(1_000_000),
	})
	for _, sym := range []string{fxbind.USDC, fxbind.USDT, fxbind.EURC} {
		e.mine(e.c.Tokens[sym].Mint(e.auth(e.deployer), addr(e.user), fxbind.Units(1_000_000)))
		e.mine(e.c.Tokens[sym].Approve(e.auth(e.user), e.addrs.Permit2, maxUint256))
		e.mine(e.c.Tokens[sym].Approve(e.auth(e.maker), e.addrs.RfqEscrow, maxUint256))
		e.mine(e.c.Tokens[sym].Approve(e.auth(e.other), e.addrs.RfqEscrow, maxUint256))
	}
	return e
}

func (e *env) auth(k *ecdsa.PrivateKey) *bind.TransactOpts { return e.Auth(k) }

// mine requires success, naming the custom error of a refused send.
func (e *env) mine(tx *types.Transaction, err error) *types.Receipt {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("send: %v (revert %s)", err, revertName(err))
	}
	return e.Mine(tx, nil)
}

func (e *env) now() uint64 {
	e.t.Helper()
	h, err := e.Client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return h.Time
}

var escrowErrors = func() map[[4]byte]string {
	m := map[[4]byte]string{}
	for _, md := range []*bind.MetaData{fxbind.RfqEscrowMetaData, fxbind.Permit2MetaData, fxbind.TestTokenMetaData} {
		a, err := md.GetAbi()
		if err != nil {
			panic(err)
		}
		for name, er := range a.Errors {
			m[[4]byte(er.ID[:4])] = name
		}
	}
	return m
}()

// revertName is the custom error carried by a call/estimation error ("" if none).
func revertName(err error) string {
	var de rpc.DataError
	if err == nil || !errors.As(err, &de) {
		return ""
	}
	s, _ := de.ErrorData().(string)
	data, derr := hexutil.Decode(s)
	if derr != nil || len(data) < 4 {
		return ""
	}
	return escrowErrors[[4]byte(data[:4])]
}

func randAddr(rng *rand.Rand) common.Address {
	var a common.Address
	for i := range a {
		a[i] = byte(rng.Uint32())
	}
	return a
}

func randUint(rng *rand.Rand) *big.Int {
	buf := make([]byte, rng.IntN(33))
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	return new(big.Int).SetBytes(buf)
}

func TestDigestMatchesEscrow(t *testing.T) {
	e := newEnv(t)
	rng := rand.New(rand.NewPCG(7, 11))
	sep, err := e.c.RfqEscrow.DOMAINSEPARATOR(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := DomainSeparator(simChainID, e.addrs.RfqEscrow); got != sep {
		t.Fatalf("DomainSeparator %x, escrow %x", got, sep)
	}
	for i := 0; i < 200; i++ {
		q := &Quote{
			Maker: randAddr(rng), Taker: randAddr(rng), TokenIn: randAddr(rng), TokenOut: randAddr(rng),
			AmountIn: randUint(rng), AmountOut: randUint(rng), Expiry: randUint(rng), Salt: randUint(rng),
		}
		if i == 0 {
			q.AmountIn, q.Salt = maxUint256, new(big.Int)
		}
		h, err := e.c.RfqEscrow.HashQuote(nil, q.Binding())
		if err != nil {
			t.Fatal(err)
		}
		if got := QuoteHash(q); got != h {
			t.Fatalf("quote %d: QuoteHash %x, hashQuote %x", i, got, h)
		}
		d, err := e.c.RfqEscrow.QuoteDigest(nil, q.Binding())
		if err != nil {
			t.Fatal(err)
		}
		if got := Digest(simChainID, e.addrs.RfqEscrow, q); got != d {
			t.Fatalf("quote %d: Digest %x, quoteDigest %x", i, got, d)
		}
	}
}

// rfqCase is a signed quote and the taker's signed Permit2 funding for it.
type rfqCase struct {
	quote    *Quote
	makerSig []byte
	funding  fxbind.RfqEscrowFunding
	takerSig []byte
}

func (e *env) newCase(signer *ecdsa.PrivateKey, maker common.Address, salt int64) rfqCase {
	e.t.Helper()
	now := e.now()
	q := &Quote{
		Maker: maker, Taker: addr(e.user), TokenIn: e.addrs.USDC, TokenOut: e.addrs.EURC,
		AmountIn: fxbind.Units(250), AmountOut: fxbind.Units(230),
		Expiry: new(big.Int).SetUint64(now + 30), Salt: big.NewInt(salt),
	}
	makerSig, err := SignQuote(signer, simChainID, e.addrs.RfqEscrow, q)
	if err != nil {
		e.t.Fatal(err)
	}
	qh := QuoteHash(q)
	nonce := big.NewInt(1000 + salt)
	f := &eip712.RfqEscrowFunding{
		Signer: q.Taker, ExecutionID: ExecutionID(qh, q.Taker, nonce), Escrow: e.addrs.RfqEscrow, QuoteHash: qh,
		Token: q.TokenIn, Amount: q.AmountIn, Deadline: new(big.Int).SetUint64(now + 120), Nonce: nonce,
	}
	dig := eip712.RfqDigest(eip712.Domain{ChainID: simChainID, Permit2: e.addrs.Permit2}, e.addrs.RfqEscrow, f)
	takerSig, err := crypto.Sign(dig[:], e.user)
	if err != nil {
		e.t.Fatal(err)
	}
	takerSig[64] += 27
	return rfqCase{
		quote: q, makerSig: makerSig, takerSig: takerSig,
		funding: fxbind.RfqEscrowFunding{
			Signer: f.Signer, ExecutionId: f.ExecutionID, Escrow: f.Escrow, QuoteHash: f.QuoteHash,
			Token: f.Token, Amount: f.Amount, Deadline: f.Deadline, Nonce: f.Nonce,
		},
	}
}

func (e *env) escrow(c rfqCase) (*types.Transaction, error) {
	return e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote.Binding(), c.makerSig, c.funding, c.takerSig)
}

func TestEscrowAcceptsSignedQuote(t *testing.T) {
	e := newEnv(t)
	c := e.newCase(e.maker, addr(e.maker), 1)
	if err := Verify(simChainID, e.addrs.RfqEscrow, c.quote, c.makerSig); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	r := e.mine(e.escrow(c))
	hdr, err := e.Client.HeaderByHash(context.Background(), r.BlockHash)
	if err != nil {
		t.Fatal(err)
	}
	var ev *fxbind.RfqEscrowQuoteEscrowed
	for _, l := range r.Logs {
		if p, err := e.c.RfqEscrow.ParseQuoteEscrowed(*l); err == nil {
			ev = p
		}
	}
	q := c.quote
	wantDeadline := hdr.Time + uint64(fxbind.DefaultSettleWindow/time.Second)
	if ev == nil || ev.ExecutionId != ExecutionID(QuoteHash(q), q.Taker, c.funding.Nonce) || ev.QuoteHash != QuoteHash(q) ||
		ev.Taker != q.Taker || ev.Maker != q.Maker || ev.TokenIn != q.TokenIn || ev.AmountIn.Cmp(q.AmountIn) != 0 ||
		ev.TokenOut != q.TokenOut || ev.AmountOut.Cmp(q.AmountOut) != 0 || ev.SettleDeadline.Uint64() != wantDeadline {
		t.Fatalf("bad QuoteEscrowed %+v", ev)
	}
	if used, _ := e.c.RfqEscrow.QuoteUsed(nil, QuoteHash(q)); !used {
		t.Fatal("quote not marked used")
	}

	// The EIP-2098 compact form of the same signature verifies too, as on chain.
	compact := make([]byte, 64)
	copy(compact, c.makerSig[:64])
	if c.makerSig[64] == 28 {
		compact[32] |= 0x80
	}
	if err := Verify(simChainID, e.addrs.RfqEscrow, q, compact); err != nil {
		t.Fatalf("Verify compact: %v", err)
	}
}

func TestEscrowRefusesUnregisteredMaker(t *testing.T) {
	e := newEnv(t)

	// Signed by an unregistered key in its own name: the signature is fine,
	// the allowlist is what refuses it.
	c := e.newCase(e.other, addr(e.other), 2)
	if err := Verify(simChainID, e.addrs.RfqEscrow, c.quote, c.makerSig); err != nil {
		t.Fatalf("Verify (self-consistent signature): %v", err)
	}
	_, err := e.escrow(c)
	if got := revertName(err); got != "MakerNotRegistered" {
		t.Fatalf("unregistered maker: revert %q (%v)", got, err)
	}

	// Signed by an unregistered key in the registered maker's name.
	c = e.newCase(e.other, addr(e.maker), 3)
	if err := Verify(simChainID, e.addrs.RfqEscrow, c.quote, c.makerSig); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("Verify forged: %v", err)
	}
	_, err = e.escrow(c)
	if got := revertName(err); got != "InvalidMakerSignature" {
		t.Fatalf("forged maker signature: revert %q (%v)", got, err)
	}

	// The genuine quote still goes through afterwards.
	e.mine(e.escrow(e.newCase(e.maker, addr(e.maker), 4)))
}

func validQuote() *Quote {
	return &Quote{
		Maker: common.HexToAddress("0x01"), Taker: common.HexToAddress("0x02"),
		TokenIn: common.HexToAddress("0x03"), TokenOut: common.HexToAddress("0x04"),
		AmountIn: big.NewInt(10), AmountOut: big.NewInt(9), Expiry: big.NewInt(100), Salt: big.NewInt(0),
	}
}

func TestSignVerify(t *testing.T) {
	key := mustKey(t, 0x22)
	escrow := common.HexToAddress("0xE5C40")
	halfN := new(big.Int).Rsh(crypto.S256().Params().N, 1)
	for i := int64(0); i < 50; i++ {
		q := validQuote()
		q.Maker = addr(key)
		q.Salt = big.NewInt(i)
		sig, err := SignQuote(key, simChainID, escrow, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) || new(big.Int).SetBytes(sig[32:64]).Cmp(halfN) > 0 {
			t.Fatalf("bad signature shape %x", sig)
		}
		if err := Verify(simChainID, escrow, q, sig); err != nil {
			t.Fatal(err)
		}
		// Other chain, other escrow, changed field: refused.
		if err := Verify(big.NewInt(1), escrow, q, sig); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("other chain: %v", err)
		}
		if err := Verify(simChainID, common.HexToAddress("0xE5C41"), q, sig); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("other escrow: %v", err)
		}
		q2 := *q
		q2.AmountOut = big.NewInt(10)
		if err := Verify(simChainID, escrow, &q2, sig); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("changed amount: %v", err)
		}
		// High-s twin is refused.
		hi := append([]byte(nil), sig...)
		s := new(big.Int).Sub(crypto.S256().Params().N, new(big.Int).SetBytes(sig[32:64]))
		s.FillBytes(hi[32:64])
		hi[64] = 55 - hi[64] // 27 <-> 28
		if err := Verify(simChainID, escrow, q, hi); !errors.Is(err, eip712.ErrSignatureHighS) {
			t.Fatalf("high s: %v", err)
		}
	}
	if err := Verify(simChainID, escrow, validQuote(), make([]byte, 10)); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("short sig: %v", err)
	}
}

func TestValidate(t *testing.T) {
	if err := validQuote().Validate(); err != nil {
		t.Fatal(err)
	}
	over96 := new(big.Int).Lsh(big.NewInt(1), 96)
	for name, mut := range map[string]func(*Quote){
		"zero maker":    func(q *Quote) { q.Maker = common.Address{} },
		"zero taker":    func(q *Quote) { q.Taker = common.Address{} },
		"same token":    func(q *Quote) { q.TokenOut = q.TokenIn },
		"zero amountIn": func(q *Quote) { q.AmountIn = new(big.Int) },
		"nil amountOut": func(q *Quote) { q.AmountOut = nil },
		"amountIn>u96":  func(q *Quote) { q.AmountIn = over96 },
		"neg expiry":    func(q *Quote) { q.Expiry = big.NewInt(-1) },
		"nil salt":      func(q *Quote) { q.Salt = nil },
	} {
		q := validQuote()
		mut(q)
		if err := q.Validate(); !errors.Is(err, ErrInvalidQuote) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestExecutionID(t *testing.T) {
	b32, _ := abi.NewType("bytes32", "", nil)
	ad, _ := abi.NewType("address", "", nil)
	u256, _ := abi.NewType("uint256", "", nil)
	args := abi.Arguments{{Type: b32}, {Type: ad}, {Type: u256}}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 50; i++ {
		var qh [32]byte
		for j := range qh {
			qh[j] = byte(rng.Uint32())
		}
		taker, nonce := randAddr(rng), randUint(rng)
		enc, err := args.Pack(qh, taker, nonce)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ExecutionID(qh, taker, nonce), crypto.Keccak256Hash(enc); got != want {
			t.Fatalf("ExecutionID %x, keccak256(abi.encode) %x", got, want)
		}
	}
	a := ExecutionID([32]byte{1}, common.HexToAddress("0x02"), big.NewInt(3))
	if a == ExecutionID([32]byte{1}, common.HexToAddress("0x02"), big.NewInt(4)) {
		t.Fatal("nonce ignored")
	}
}
