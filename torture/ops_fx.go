package torture

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// The workload trades USDC and EURC both ways, so pools and makers stay
// balanced over a long run.
const (
	usdc = "USDC"
	eurc = "EURC"
)

func (w *worker) direction() (string, string) {
	if w.rng.IntN(2) == 0 {
		return usdc, eurc
	}
	return eurc, usdc
}

// quoted is a quote and the server generation that made it (genUnknown
// when its request spanned a kill): quotes live in the server's memory, so
// a restart voids them.
type quoted struct {
	*client.Quote
	gen int
}

// quote asks for quotes and returns the one of route (nil: none).
func (w *worker) quote(ctx context.Context, from, to string, amount *big.Int, route string) (*quoted, error) {
	body := client.QuoteRequest{FromCurrency: from, ToCurrency: to, Amount: wallet.Decimal(amount, w.h.decimals),
		SourceWallet: w.trader.w.Address().Hex()}
	req, resp, err := w.write(ctx, "fx.quote", http.MethodPost, "/fx/quotes", body, false)
	if err != nil {
		return nil, nil
	}
	if resp.Status == http.StatusBadGateway && errorCode(resp.Body) == "no_quote_available" {
		return nil, nil
	}
	if resp.Status != http.StatusOK {
		return nil, unexpected("fx.quote", resp)
	}
	var ql client.QuoteList
	if err := decode(resp, &ql); err != nil {
		return nil, err
	}
	for i := range ql.Quotes {
		if ql.Quotes[i].Route == route {
			return &quoted{&ql.Quotes[i], req.gen}, nil
		}
	}
	return nil, nil
}

// accept accepts q; the order is registered even when the answer never
// came (it may exist). nil order: the quote was refused (expired).
func (w *worker) accept(ctx context.Context, q *quoted, from, to string, amount *big.Int) (*orderRec, *client.AcceptedOrder, error) {
	o := &orderRec{route: q.Route, from: from, to: to, amountIn: amount}
	o.kind, o.name, o.worker, o.m = kindOrder, q.ID, w, &ammOrder
	if q.Route == "rfq" {
		o.m = &rfqOrder
	}
	w.h.noteName(q.ID)
	o.flight.Lock()
	defer o.flight.Unlock()
	body := client.AcceptQuoteRequest{SourceWallet: w.trader.w.Address().Hex()}
	req, resp, err := w.write(ctx, "fx.accept", http.MethodPost, "/fx/quotes/"+q.ID+"/accept", body, true)
	o.create = req
	if err != nil {
		if req != nil {
			req.apply = func(status int, body []byte, _ bool) {
				var v client.Order
				if status == http.StatusOK && json.Unmarshal(body, &v) == nil {
					o.locked(func() { o.id = v.OrderID })
				}
			}
			w.h.reg.addOrder(o)
		}
		return nil, nil, nil
	}
	if resp.Status == http.StatusConflict && errorCode(resp.Body) == "quote_expired" || w.quoteForgotten(q, req, resp) {
		// A pause (or a long wait for the heavy rate limit) outlived the
		// quote, or a restart voided it (quotes live in memory).
		// Registered as refused: the lists must then not hold an order for
		// the quote (were an earlier, unanswered attempt durable, the
		// resend had to replay it).
		w.h.reg.addOrder(o)
		return nil, nil, nil
	}
	if resp.Status != http.StatusOK {
		err := unexpectedReq("fx.accept", req, resp)
		err.msg += fmt.Sprintf("; the quote: generation %d, expires_at %s, accept answered at %s",
			q.gen, q.ExpiresAt, req.answerAt.UTC().Format(time.RFC3339Nano))
		return nil, nil, err
	}
	var acc client.AcceptedOrder
	if err := decode(resp, &acc); err != nil {
		return nil, nil, err
	}
	o.id, req.recordID = acc.OrderID, acc.OrderID
	w.h.observeAnswer(o, resp)
	w.h.reg.addOrder(o)
	w.mu.Lock()
	w.orders = append(w.orders, o)
	w.mu.Unlock()
	return o, &acc, nil
}

// quoteRetention is how long past its expires_at the service still knows
// a quote (to answer quote_expired; fx/book.go keeps a minute), less a
// margin for the two clocks.
const quoteRetention = 55 * time.Second

// quoteForgotten reports whether a 404 to an accept is the service no
// longer knowing the quote: made by another generation than the one that
// answered the accept, or either not pinned to one (a restart voids the
// book), or accepted past its retention.
func (w *worker) quoteForgotten(q *quoted, req *request, resp *client.Response) bool {
	if resp.Status != http.StatusNotFound {
		return false
	}
	if req.gen != q.gen || q.gen == genUnknown {
		return true
	}
	exp, err := time.Parse(time.RFC3339, q.ExpiresAt)
	return err == nil && req.answerAt.After(exp.Add(quoteRetention))
}

// tradeAMM: quote, accept, check and sign the GaslessOrder, submit the
// signature; the service relays it. Some orders are left unsigned: they
// expire at the order deadline.
func (w *worker) tradeAMM(ctx context.Context) error {
	from, to := w.direction()
	amount := w.amount()
	q, err := w.quote(ctx, from, to, amount, "amm")
	if q == nil || err != nil {
		return err
	}
	o, acc, err := w.accept(ctx, q, from, to, amount)
	if o == nil || err != nil {
		return err
	}
	if w.rng.IntN(100) < 8 {
		return nil
	}
	if err := w.checkGasless(acc.Signing, from, to, amount, w.trader.w.Address()); err != nil {
		w.h.fail("order %s: %v", o.id, err)
		return nil
	}
	sig, err := w.trader.w.SignTypedData(acc.Signing.TypedData)
	if err != nil {
		return err
	}
	return w.submitOrder(ctx, o, client.SubmitRequest{Signature: sig}, nil)
}

// submitOrder submits a signature or a tx hash; st is the funding (nil
// for amm), whose revert makes funding_not_verified an answer.
func (w *worker) submitOrder(ctx context.Context, o *orderRec, body client.SubmitRequest, st *sentTx) error {
	o.flight.Lock()
	defer o.flight.Unlock()
	_, resp, err := w.write(ctx, "fx.submit", http.MethodPost, "/fx/orders/"+o.id+"/submit", body, true)
	if err != nil {
		return nil
	}
	switch {
	case resp.Status == http.StatusOK:
		w.h.observeAnswer(o, resp)
	case resp.Status == http.StatusConflict && errorCode(resp.Body) == "invalid_state":
		// Expired meanwhile (a pause or a kill outlived the deadline).
	case st != nil && errorCode(resp.Body) == "funding_not_verified" && !st.succeeded():
		// The funding reverted (its quote or permit ran out during a fault).
	default:
		return unexpected("fx.submit", resp)
	}
	return nil
}

// checkGasless checks a GaslessOrder witness before signing: the trader
// pays amount of from, and the output in `to` goes to recipient.
func (w *worker) checkGasless(s *client.Signing, from, to string, amount *big.Int, recipient common.Address) error {
	if s == nil || s.TypedData == nil {
		return fmt.Errorf("no signing.typed_data")
	}
	var o client.GaslessOrder
	if err := json.Unmarshal(s.TypedData.Message.Witness, &o); err != nil {
		return fmt.Errorf("typed data witness: %w", err)
	}
	return checkFields([]field{
		{"signer", o.Signer, w.trader.w.Address().Hex()}, {"tokenIn", o.TokenIn, w.h.tokens[from].Hex()},
		{"tokenOut", o.TokenOut, w.h.tokens[to].Hex()}, {"amountIn", o.AmountIn, amount.String()},
		{"recipient", o.Recipient, recipient.Hex()}, {"permitted.amount", s.TypedData.Message.Permitted.Amount, amount.String()},
	})
}

// field is one signed field and the value it must have.
type field struct{ name, got, want string }

// checkFields compares addresses case-insensitively, the rest exactly.
func checkFields(fs []field) error {
	for _, f := range fs {
		same := f.got == f.want
		if common.IsHexAddress(f.got) && common.IsHexAddress(f.want) {
			same = strings.EqualFold(f.got, f.want)
		}
		if !same {
			return fmt.Errorf("refusing to sign: %s is %s, want %s", f.name, f.got, f.want)
		}
	}
	return nil
}

// tradeRFQ: quote, accept a maker's firm quote, sign the escrow funding,
// broadcast it from the trader (submitting the hash before or after it is
// mined, or never: the watcher finds it).
func (w *worker) tradeRFQ(ctx context.Context) error {
	from, to := w.direction()
	amount := w.amount()
	q, err := w.quote(ctx, from, to, amount, "rfq")
	if q == nil || err != nil {
		return err
	}
	o, acc, err := w.accept(ctx, q, from, to, amount)
	if o == nil || err != nil || w.rng.IntN(100) < 5 {
		return err
	}
	if err := w.checkFunding(acc.Signing, from, amount); err != nil {
		w.h.fail("order %s: %v", o.id, err)
		return nil
	}
	sig, err := w.trader.w.SignTypedData(acc.Signing.TypedData)
	if err != nil {
		return err
	}
	escrow, data, err := wallet.EscrowCallData(acc.Signing.Call, sig)
	if err != nil {
		return err
	}
	st, err := w.h.prepareTx(ctx, w.trader.w, escrow, data, amount)
	if err != nil {
		return err // e.g. the quote expired during a pause: estimation reverts
	}
	o.locked(func() { o.funding = st })
	submit := func() error {
		return w.submitOrder(ctx, o, client.SubmitRequest{TxHash: st.tx.Hash().Hex()}, st)
	}
	switch mode := w.rng.IntN(100); {
	case mode < 40: // hash first, the tx on its way
		w.h.broadcastOnce(ctx, w.trader.w, st)
		if err := submit(); err != nil {
			return err
		}
		return w.h.mine(ctx, w.trader.w, st)
	case mode < 90:
		if err := w.h.mine(ctx, w.trader.w, st); err != nil {
			return err
		}
		return submit()
	default: // never submitted: the service must find the funding itself
		return w.h.mine(ctx, w.trader.w, st)
	}
}

// checkFunding checks an RfqEscrowFunding witness: the trader funds the
// escrow with amount of from.
func (w *worker) checkFunding(s *client.Signing, from string, amount *big.Int) error {
	if s == nil || s.TypedData == nil || s.Call == nil {
		return fmt.Errorf("no signing.typed_data or signing.call")
	}
	var f client.RFQFunding
	if err := json.Unmarshal(s.TypedData.Message.Witness, &f); err != nil {
		return fmt.Errorf("typed data witness: %w", err)
	}
	return checkFields([]field{
		{"signer", f.Signer, w.trader.w.Address().Hex()}, {"token", f.Token, w.h.tokens[from].Hex()},
		{"amount", f.Amount, amount.String()}, {"escrow", f.Escrow, s.Call.To},
		{"permitted.amount", s.TypedData.Message.Permitted.Amount, amount.String()},
	})
}
