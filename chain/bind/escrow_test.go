package bind

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// rfqCase is one RFQ execution: the maker's quote and signature, the taker's funding
// and Permit2 signature.
type rfqCase struct {
	quote     RfqEscrowQuote
	makerSig  []byte
	funding   RfqEscrowFunding
	takerSig  []byte
	quoteHash [32]byte
}

// rfq builds a signed USDC -> EURC quote from the env's maker to its user, and the
// user's signed funding for it. Salt and nonce make it unique.
func (e *env) rfq(n int64) rfqCase {
	e.t.Helper()
	now := e.now()
	q := RfqEscrowQuote{
		Maker:     addr(e.maker),
		Taker:     addr(e.user),
		TokenIn:   e.addrs.USDC,
		TokenOut:  e.addrs.EURC,
		AmountIn:  Units(250),
		AmountOut: new(big.Int).Div(Units(250*92), big.NewInt(100)), // 230 EURC
		Expiry:    new(big.Int).SetUint64(now + 30),
		Salt:      big.NewInt(n),
	}
	c := rfqCase{quote: q}
	c.signQuote(e, e.maker)
	c.funding = RfqEscrowFunding{
		Signer:      addr(e.user),
		ExecutionId: crypto.Keccak256Hash([]byte(fmt.Sprintf("execution-%d", n))),
		Escrow:      e.addrs.RfqEscrow,
		QuoteHash:   c.quoteHash,
		Token:       q.TokenIn,
		Amount:      q.AmountIn,
		Deadline:    new(big.Int).SetUint64(now + 120),
		Nonce:       big.NewInt(1000 + n),
	}
	c.signFunding(e, e.user, e.addrs.RfqEscrow)
	return c
}

// signQuote (re)computes the quote hash and signs the quote with k.
func (c *rfqCase) signQuote(e *env, k *ecdsaKey) {
	td := quoteTypedData(simChainID, e.addrs.RfqEscrow, c.quote)
	c.quoteHash = structHash(e.t, td, "Quote", td.Message)
	c.makerSig = sign(e.t, k, td)
}

// signFunding signs the funding with k for the given Permit2 spender.
func (c *rfqCase) signFunding(e *env, k *ecdsaKey, spender common.Address) {
	c.takerSig = sign(e.t, k, fundingTypedData(simChainID, e.addrs.Permit2, spender, c.funding))
}

func (e *env) mustEscrow(c rfqCase) {
	e.t.Helper()
	e.mine(e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote, c.makerSig, c.funding, c.takerSig))
}

func (e *env) escrow(c rfqCase) error {
	_, err := e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote, c.makerSig, c.funding, c.takerSig)
	return err
}

// call runs an escrow method as eth_call from `from` against the latest block and
// returns the revert name ("" on success).
func (e *env) callEscrow(from common.Address, method string, args ...interface{}) string {
	e.t.Helper()
	a, _ := RfqEscrowMetaData.GetAbi()
	data, err := a.Pack(method, args...)
	if err != nil {
		e.t.Fatal(err)
	}
	to := e.addrs.RfqEscrow
	_, err = e.client.CallContract(context.Background(), ethereum.CallMsg{From: from, To: &to, Data: data}, nil)
	if err != nil && revertName(err) == "" {
		return err.Error()
	}
	return revertName(err)
}

func TestRfqEscrowSettle(t *testing.T) {
	e := newEnv(t)
	taker, maker := addr(e.user), addr(e.maker)
	c := e.rfq(1)

	// On-chain hashing agrees with the Go EIP-712 implementation.
	if h, _ := e.c.RfqEscrow.HashQuote(nil, c.quote); h != c.quoteHash {
		t.Fatalf("hashQuote %x, want %x", h, c.quoteHash)
	}
	td := quoteTypedData(simChainID, e.addrs.RfqEscrow, c.quote)
	if d, _ := e.c.RfqEscrow.QuoteDigest(nil, c.quote); common.BytesToHash(d[:]) != common.BytesToHash(digest(t, td)) {
		t.Fatalf("quoteDigest mismatch")
	}
	ftd := fundingTypedData(simChainID, e.addrs.Permit2, e.addrs.RfqEscrow, c.funding)
	if h, _ := e.c.RfqEscrow.HashFunding(nil, c.funding); h != structHash(t, ftd, "RfqEscrowFunding", fundingMessage(c.funding)) {
		t.Fatalf("hashFunding mismatch")
	}

	usdcTaker, eurcTaker := e.balance(USDC, taker), e.balance(EURC, taker)
	usdcMaker, eurcMaker := e.balance(USDC, maker), e.balance(EURC, maker)

	r := e.mine(e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote, c.makerSig, c.funding, c.takerSig))
	t.Logf("gas: RfqEscrow.escrowQuoteWithPermit2 = %d", r.GasUsed)
	hdr, _ := e.client.HeaderByHash(t.Context(), r.BlockHash)
	wantDeadline := hdr.Time + uint64(DefaultSettleWindow/time.Second)

	if d := new(big.Int).Sub(usdcTaker, e.balance(USDC, taker)); d.Cmp(c.quote.AmountIn) != 0 {
		t.Fatalf("taker paid %v", d)
	}
	if b := e.balance(USDC, e.addrs.RfqEscrow); b.Cmp(c.quote.AmountIn) != 0 {
		t.Fatalf("escrow holds %v", b)
	}
	ev := findLog(t, r, e.c.RfqEscrow.ParseQuoteEscrowed)
	if ev.ExecutionId != c.funding.ExecutionId || ev.QuoteHash != c.quoteHash || ev.Taker != taker || ev.Maker != maker ||
		ev.TokenIn != c.quote.TokenIn || ev.AmountIn.Cmp(c.quote.AmountIn) != 0 || ev.TokenOut != c.quote.TokenOut ||
		ev.AmountOut.Cmp(c.quote.AmountOut) != 0 || ev.SettleDeadline.Uint64() != wantDeadline {
		t.Fatalf("bad QuoteEscrowed %+v (want deadline %d)", ev, wantDeadline)
	}
	rec, _ := e.c.RfqEscrow.Escrows(nil, c.funding.ExecutionId)
	if rec.Maker != maker || rec.Taker != taker || rec.Status != 1 || rec.SettleDeadline != wantDeadline ||
		rec.AmountIn.Cmp(c.quote.AmountIn) != 0 || rec.AmountOut.Cmp(c.quote.AmountOut) != 0 {
		t.Fatalf("bad record %+v", rec)
	}
	if used, _ := e.c.RfqEscrow.QuoteUsed(nil, c.quoteHash); !used {
		t.Fatalf("quote not marked used")
	}

	// Only the maker settles.
	_, err := e.c.RfqEscrow.Settle(e.auth(e.user), c.funding.ExecutionId)
	requireRevert(t, err, "NotMaker")
	// Refunding inside the window is too early.
	_, err = e.c.RfqEscrow.Refund(e.auth(e.other), c.funding.ExecutionId)
	requireRevert(t, err, "RefundTooEarly")

	r = e.mine(e.c.RfqEscrow.Settle(e.auth(e.maker), c.funding.ExecutionId))
	t.Logf("gas: RfqEscrow.settle = %d", r.GasUsed)
	if d := new(big.Int).Sub(e.balance(EURC, taker), eurcTaker); d.Cmp(c.quote.AmountOut) != 0 {
		t.Errorf("taker received %v EURC", d)
	}
	if d := new(big.Int).Sub(eurcMaker, e.balance(EURC, maker)); d.Cmp(c.quote.AmountOut) != 0 {
		t.Errorf("maker paid %v EURC", d)
	}
	if d := new(big.Int).Sub(e.balance(USDC, maker), usdcMaker); d.Cmp(c.quote.AmountIn) != 0 {
		t.Errorf("maker received %v USDC", d)
	}
	if b := e.balance(USDC, e.addrs.RfqEscrow); b.Sign() != 0 {
		t.Errorf("escrow still holds %v", b)
	}
	sev := findLog(t, r, e.c.RfqEscrow.ParseQuoteSettled)
	if sev.ExecutionId != c.funding.ExecutionId || sev.Maker != maker || sev.Taker != taker || sev.TokenIn != c.quote.TokenIn ||
		sev.AmountIn.Cmp(c.quote.AmountIn) != 0 || sev.TokenOut != c.quote.TokenOut || sev.AmountOut.Cmp(c.quote.AmountOut) != 0 {
		t.Errorf("bad QuoteSettled %+v", sev)
	}

	// Settled is final.
	_, err = e.c.RfqEscrow.Settle(e.auth(e.maker), c.funding.ExecutionId)
	requireRevert(t, err, "AlreadySettled")
	e.advance(2 * DefaultSettleWindow)
	_, err = e.c.RfqEscrow.Refund(e.auth(e.other), c.funding.ExecutionId)
	requireRevert(t, err, "AlreadySettled")
	_, err = e.c.RfqEscrow.Settle(e.auth(e.maker), crypto.Keccak256Hash([]byte("nope")))
	requireRevert(t, err, "UnknownExecution")
}

func TestRfqEscrowRefund(t *testing.T) {
	e := newEnv(t)
	taker := addr(e.user)
	c := e.rfq(2)
	usdcTaker := e.balance(USDC, taker)
	r := e.mine(e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote, c.makerSig, c.funding, c.takerSig))
	id := c.funding.ExecutionId

	// Exactly at the deadline the maker may still settle and nobody may refund; one
	// second later it is the other way round.
	ev := findLog(t, r, e.c.RfqEscrow.ParseQuoteEscrowed)
	if escrowed := e.blockTime(r.BlockNumber); ev.SettleDeadline.Uint64() != escrowed+uint64(DefaultSettleWindow/time.Second) {
		t.Fatalf("deadline %v, escrowed at %d", ev.SettleDeadline, escrowed)
	}
	e.advanceTo(ev.SettleDeadline.Uint64())
	if got := e.callEscrow(addr(e.other), "refund", id); got != "RefundTooEarly" {
		t.Fatalf("refund at deadline: %q", got)
	}
	if got := e.callEscrow(addr(e.maker), "settle", id); got != "" {
		t.Fatalf("settle at deadline: %q", got)
	}
	e.advance(time.Second)
	_, err := e.c.RfqEscrow.Settle(e.auth(e.maker), id)
	requireRevert(t, err, "SettleWindowClosed")

	// Anyone may trigger the refund; the taker gets exactly amountIn back.
	r = e.mine(e.c.RfqEscrow.Refund(e.auth(e.other), id))
	t.Logf("gas: RfqEscrow.refund = %d", r.GasUsed)
	if b := e.balance(USDC, taker); b.Cmp(usdcTaker) != 0 {
		t.Fatalf("taker balance %v, want %v", b, usdcTaker)
	}
	if b := e.balance(USDC, e.addrs.RfqEscrow); b.Sign() != 0 {
		t.Fatalf("escrow holds %v", b)
	}
	rev := findLog(t, r, e.c.RfqEscrow.ParseQuoteRefunded)
	if rev.ExecutionId != id || rev.Taker != taker || rev.Maker != addr(e.maker) || rev.TokenIn != c.quote.TokenIn || rev.AmountIn.Cmp(c.quote.AmountIn) != 0 {
		t.Fatalf("bad QuoteRefunded %+v", rev)
	}

	_, err = e.c.RfqEscrow.Settle(e.auth(e.maker), id)
	requireRevert(t, err, "AlreadyRefunded")
	_, err = e.c.RfqEscrow.Refund(e.auth(e.other), id)
	requireRevert(t, err, "AlreadyRefunded")
}

func TestRfqEscrowReverts(t *testing.T) {
	e := newEnv(t)
	n := int64(100)
	next := func() rfqCase { n++; return e.rfq(n) }

	t.Run("forged maker signature", func(t *testing.T) {
		c := next()
		c.makerSig = sign(t, e.other, quoteTypedData(simChainID, e.addrs.RfqEscrow, c.quote))
		requireRevert(t, e.escrow(c), "InvalidMakerSignature")
		// The maker's signature for another escrow (domain) does not carry over.
		c.makerSig = sign(t, e.maker, quoteTypedData(simChainID, e.addrs.RelayRouter, c.quote))
		requireRevert(t, e.escrow(c), "InvalidMakerSignature")
		c.makerSig = malleate(sign(t, e.maker, quoteTypedData(simChainID, e.addrs.RfqEscrow, c.quote)))
		requireRevert(t, e.escrow(c), "InvalidSignatureS")
		c.makerSig = c.makerSig[:10]
		requireRevert(t, e.escrow(c), "InvalidSignatureLength")
	})
	t.Run("quote changed after the maker signed", func(t *testing.T) {
		c := next()
		c.quote.AmountOut = new(big.Int).Sub(c.quote.AmountOut, big.NewInt(1))
		requireRevert(t, e.escrow(c), "InvalidMakerSignature")
	})
	t.Run("unregistered maker", func(t *testing.T) {
		c := next()
		c.quote.Maker = addr(e.other)
		c.signQuote(e, e.other) // a valid signature, by an unregistered key
		c.funding.QuoteHash = c.quoteHash
		c.signFunding(e, e.user, e.addrs.RfqEscrow)
		requireRevert(t, e.escrow(c), "MakerNotRegistered")
		// De-registering the real maker stops its quotes.
		c = next()
		e.mine(e.c.RfqEscrow.SetMaker(e.auth(e.deployer), addr(e.maker), false))
		requireRevert(t, e.escrow(c), "MakerNotRegistered")
		e.mine(e.c.RfqEscrow.SetMaker(e.auth(e.deployer), addr(e.maker), true))
		e.mustEscrow(c)
		_, err := e.c.RfqEscrow.SetMaker(e.auth(e.other), addr(e.other), true)
		requireRevert(t, err, "NotOwner")
		_, err = e.c.RfqEscrow.SetSettleWindow(e.auth(e.other), 1)
		requireRevert(t, err, "NotOwner")
	})
	t.Run("expired quote", func(t *testing.T) {
		c := next()
		c.quote.Expiry = new(big.Int).SetUint64(e.now() - 1)
		c.signQuote(e, e.maker)
		c.funding.QuoteHash = c.quoteHash
		c.signFunding(e, e.user, e.addrs.RfqEscrow)
		requireRevert(t, e.escrow(c), "QuoteExpired")
	})
	t.Run("invalid quote", func(t *testing.T) {
		c := next()
		c.quote.AmountOut = big.NewInt(0)
		c.signQuote(e, e.maker)
		requireRevert(t, e.escrow(c), "InvalidQuote")
		// Amounts must fit the packed uint96 storage.
		c = next()
		c.quote.AmountOut = new(big.Int).Lsh(big.NewInt(1), 96)
		c.signQuote(e, e.maker)
		requireRevert(t, e.escrow(c), "InvalidQuote")
		c.quote.AmountOut = new(big.Int).Sub(c.quote.AmountOut, big.NewInt(1))
		c.signQuote(e, e.maker)
		c.funding.QuoteHash = c.quoteHash
		c.signFunding(e, e.user, e.addrs.RfqEscrow)
		e.mustEscrow(c) // the maximum fits (the maker just cannot settle it)
	})
	t.Run("funding field does not match the quote", func(t *testing.T) {
		// Each binding field, re-signed by the taker so only the binding check can fail.
		cases := []struct {
			field  string
			mutate func(f *RfqEscrowFunding)
			want   string
		}{
			{"signer", func(f *RfqEscrowFunding) { f.Signer = addr(e.other) }, "FundingSignerMismatch"},
			{"escrow", func(f *RfqEscrowFunding) { f.Escrow = e.addrs.RelayRouter }, "FundingEscrowMismatch"},
			{"quoteHash", func(f *RfqEscrowFunding) { f.QuoteHash[0] ^= 1 }, "FundingQuoteHashMismatch"},
			{"token", func(f *RfqEscrowFunding) { f.Token = e.addrs.USDT }, "FundingTokenMismatch"},
			{"amount", func(f *RfqEscrowFunding) { f.Amount = new(big.Int).Sub(f.Amount, big.NewInt(1)) }, "FundingAmountMismatch"},
		}
		for _, tc := range cases {
			c := next()
			tc.mutate(&c.funding)
			signer := e.user
			if tc.field == "signer" {
				signer = e.other
			}
			c.signFunding(e, signer, e.addrs.RfqEscrow)
			if err := e.escrow(c); revertName(err) != tc.want {
				t.Errorf("%s: got %q (%v), want %s", tc.field, revertName(err), err, tc.want)
			}
		}
	})
	t.Run("funding changed after the taker signed", func(t *testing.T) {
		cases := []struct {
			field  string
			mutate func(f *RfqEscrowFunding)
		}{
			{"executionId", func(f *RfqEscrowFunding) { f.ExecutionId[31] ^= 1 }},
			{"deadline", func(f *RfqEscrowFunding) { f.Deadline = new(big.Int).Add(f.Deadline, big.NewInt(1)) }},
			{"nonce", func(f *RfqEscrowFunding) { f.Nonce = new(big.Int).Add(f.Nonce, big.NewInt(1<<20)) }},
		}
		for _, tc := range cases {
			c := next()
			tc.mutate(&c.funding)
			if err := e.escrow(c); revertName(err) != "InvalidSigner" {
				t.Errorf("%s: got %q (%v), want InvalidSigner", tc.field, revertName(err), err)
			}
		}
	})
	t.Run("bad taker signature", func(t *testing.T) {
		c := next()
		c.signFunding(e, e.other, e.addrs.RfqEscrow)
		requireRevert(t, e.escrow(c), "InvalidSigner")
		// Signed for another spender (the router).
		c.signFunding(e, e.user, e.addrs.RelayRouter)
		requireRevert(t, e.escrow(c), "InvalidSigner")
		// Expired Permit2 deadline.
		c.funding.Deadline = new(big.Int).SetUint64(e.now() - 1)
		c.signFunding(e, e.user, e.addrs.RfqEscrow)
		requireRevert(t, e.escrow(c), "SignatureExpired")
	})
	t.Run("replays", func(t *testing.T) {
		c := next()
		e.mustEscrow(c)
		// The same transaction again.
		requireRevert(t, e.escrow(c), "ExecutionIdUsed")
		// The same quote under a new executionId (and fresh Permit2 nonce).
		c2 := c
		c2.funding.ExecutionId = crypto.Keccak256Hash([]byte("another execution"))
		c2.funding.Nonce = big.NewInt(5_000_000)
		c2.signFunding(e, e.user, e.addrs.RfqEscrow)
		requireRevert(t, e.escrow(c2), "QuoteAlreadyUsed")
		// A fresh quote and executionId, but the Permit2 nonce already used.
		c3 := next()
		c3.funding.Nonce = c.funding.Nonce
		c3.signFunding(e, e.user, e.addrs.RfqEscrow)
		requireRevert(t, e.escrow(c3), "InvalidNonce")
	})
	t.Run("maker without allowance cannot settle", func(t *testing.T) {
		c := next()
		e.mustEscrow(c)
		e.mine(e.c.Tokens[EURC].Approve(e.auth(e.maker), e.addrs.RfqEscrow, big.NewInt(0)))
		_, err := e.c.RfqEscrow.Settle(e.auth(e.maker), c.funding.ExecutionId)
		requireRevert(t, err, "InsufficientAllowance")
		e.mine(e.c.Tokens[EURC].Approve(e.auth(e.maker), e.addrs.RfqEscrow, maxUint256))
		e.mine(e.c.RfqEscrow.Settle(e.auth(e.maker), c.funding.ExecutionId))
	})
	t.Run("settle window is configurable", func(t *testing.T) {
		e.mine(e.c.RfqEscrow.SetSettleWindow(e.auth(e.deployer), 5))
		c := next()
		r := e.mine(e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote, c.makerSig, c.funding, c.takerSig))
		hdr, _ := e.client.HeaderByHash(t.Context(), r.BlockHash)
		ev := findLog(t, r, e.c.RfqEscrow.ParseQuoteEscrowed)
		if ev.SettleDeadline.Uint64() != hdr.Time+5 {
			t.Fatalf("deadline %v, block %d", ev.SettleDeadline, hdr.Time)
		}
	})
}
