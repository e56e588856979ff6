package domain

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// The commands of a transfer entity (Target KindTransfer). The host (the
// payments desk) checks what needs the chain or the account (permission,
// contact, wallet, pool quote, signatures, tx receipts) and says what it
// found; Decide checks the transition and builds the row.

// CreateTransfer is POST /transfers. Refusal, when set, is the host's
// answer (403 not_permitted, 404 contact, 400 wallet): stored under the
// Idempotency-Key like any answer, and nothing is created.
type CreateTransfer struct {
	ID, Account            string
	FromCurrency, Currency string
	Amount                 *big.Int // base units of FromCurrency
	Recipient, ContactID   string
	SourceWallet, Memo     string
	Signing                []byte // same-currency: the erc20_transfer object
	Refusal                *Error
}

// AcceptTransfer is POST /transfers/{id}/accept on a cross-currency
// transfer: the gasless leg the host built from the pool's quote. Issues
// is the pre-flight's view of the signer's allowance and balance, shown
// in every accept answer (re-accepts included). Refusal is the host's
// verdict, on a first accept and on a repeat alike: the account not
// permitted to pay or the wallet no longer its own (403, fail-closed), or
// no leg to build (no pool quote, an amount too small).
type AcceptTransfer struct {
	Account   string
	Gasless   *GaslessTerms
	AmountOut *big.Int
	Signing   []byte
	Issues    Issues
	Refusal   *Error
}

// SubmitTransferTx is POST /transfers/{id}/submit {tx_hash} on a
// same-currency transfer. Status is what the host found on chain:
// TxVerified (mined with the exact Transfer log, LogIndex; claimed for
// this transfer), TxPending (not mined yet). A mined tx without the log is
// the host's 400 transfer_not_verified and never reaches Decide.
type SubmitTransferTx struct {
	TxHash   string
	Status   string
	LogIndex uint64
	// Refusal is the host's verdict on a tx that cannot confirm this
	// transfer (400 transfer_not_verified, 409 tx_already_used): state
	// unchanged, stored under the Idempotency-Key like any answer.
	Refusal *Error
}

// The statuses of a submitted transaction as the host found it;
// TxUnchecked: the host did not look, as the transfer takes no tx in its
// state (WantsTx), and Decide refuses it.
const (
	TxVerified  = "verified"
	TxPending   = "pending"
	TxUnchecked = ""
)

// WantsTx reports whether a same-currency transfer can take a submitted
// tx in its state: the host looks the tx up (and claims its log) only
// then, so a refused submit never holds a claim.
func (t *Transfer) WantsTx() bool {
	return !t.Cross() && (t.State == TransferCreated || t.State == TransferSubmitted)
}

// SubmitTransferSignature is POST /transfers/{id}/submit {signature} on a
// cross-currency transfer; the host verified it off-chain (Verified) and
// ran the relay pre-flight (Preflight: nil when the relay would pass).
type SubmitTransferSignature struct {
	Signature string
	Verified  bool
	Preflight *Error
}

// TransferMined reports the chain's verdict on a submitted transfer: the
// relayed leg mined (AmountOut from its log) or reverted, or the caller's
// same-currency tx found by the watcher (LogIndex) or reverted.
type TransferMined struct {
	TxHash    string
	Success   bool
	AmountOut *big.Int // cross-currency success
	LogIndex  uint64   // same-currency success
	Reason    string   // failure
}

// ExpireTransfer expires a created or accepted transfer past its expiry.
type ExpireTransfer struct{}

func (CreateTransfer) Target() Kind          { return KindTransfer }
func (AcceptTransfer) Target() Kind          { return KindTransfer }
func (SubmitTransferTx) Target() Kind        { return KindTransfer }
func (SubmitTransferSignature) Target() Kind { return KindTransfer }
func (TransferMined) Target() Kind           { return KindTransfer }
func (ExpireTransfer) Target() Kind          { return KindTransfer }

// Limits of a transfer.
const (
	ReasonTxReverted   = "transaction reverted"
	ReasonTransferLate = "transfer expired before it was submitted"
)

// TransferTTL is how long a created transfer waits for its submit.
const TransferTTL = time.Hour

// Handle runs req through the transfer's idempotency store and Decide.
func (s *TransferState) Handle(req Request, env Env) Outcome {
	return s.Idem.Handle(req.Idem, env, MaxIdemPerOrder, "transfer", func() ([]Event, Reply, *Error) {
		prev := ""
		if s.Transfer != nil {
			prev = s.Transfer.EventID
		}
		rows, reply, err := s.Decide(req.Cmd, env)
		return TransferEvents(prev, rows), reply, err
	})
}

// Decide validates cmd against the transfer and returns the new rows and
// the reply (201 for a create, else 200 with the transfer).
func (s *TransferState) Decide(cmd Command, env Env) ([]*Transfer, Reply, *Error) {
	if c, ok := cmd.(CreateTransfer); ok {
		return s.create(c, env)
	}
	t := s.Transfer
	if t == nil {
		return nil, Reply{}, ErrNotFound("transfer")
	}
	switch c := cmd.(type) {
	case AcceptTransfer:
		return s.accept(c, env)
	case SubmitTransferTx:
		return s.submitTx(c, env)
	case SubmitTransferSignature:
		return s.submitSignature(c, env)
	case TransferMined:
		return s.mined(c, env)
	case ExpireTransfer:
		if err := t.need(TransferCreated, TransferAccepted); err != nil {
			return nil, Reply{}, err
		}
		if !env.Now.After(t.ExpiresAt) {
			return nil, Reply{}, ErrInvalidState("transfer %s is before its expiry %s", t.ID, RFC3339(t.ExpiresAt))
		}
		return transferReply(t.next(env, TransferExpired, func(n *Transfer) { n.FailureReason = ReasonTransferLate }))
	}
	panic(fmt.Sprintf("domain: decide of unknown transfer command %T", cmd))
}

func (s *TransferState) create(c CreateTransfer, env Env) ([]*Transfer, Reply, *Error) {
	if s.Transfer != nil {
		return nil, Reply{}, ErrInvalidState("transfer %s exists", s.Transfer.ID)
	}
	if c.Refusal != nil {
		return nil, Reply{}, c.Refusal
	}
	from, err := RequiredCurrency("from_currency", c.FromCurrency)
	if err != nil {
		return nil, Reply{}, err
	}
	if _, err := RequiredCurrency("currency", c.Currency); err != nil {
		return nil, Reply{}, err
	}
	if c.Amount == nil || c.Amount.Sign() <= 0 || c.Amount.Cmp(maxTransferUnits(from.Decimals)) > 0 {
		return nil, Reply{}, ErrInvalid("amount must be more than 0 and at most %d", maxTransferWhole)
	}
	recipient, err := NormalizeRecipient("recipient", c.Recipient)
	if err != nil {
		return nil, Reply{}, err
	}
	source, err := NormalizeAddress("source_wallet", c.SourceWallet)
	if err != nil {
		return nil, Reply{}, err
	}
	if err := checkNote("memo", c.Memo, maxMemoRunes); err != nil {
		return nil, Reply{}, err
	}
	if !strings.HasPrefix(c.ID, KindTransfer.Prefix()) || c.Account == "" {
		return nil, Reply{}, ErrInvalid("transfer id and account are required")
	}
	t := &Transfer{
		ID: c.ID, Account: c.Account, State: TransferCreated, FromCurrency: c.FromCurrency, Currency: c.Currency,
		Amount: new(big.Int).Set(c.Amount), AmountOut: new(big.Int), MinAmountOut: new(big.Int),
		Recipient: recipient, ContactID: c.ContactID, SourceWallet: source, Memo: c.Memo,
		// created + 1 h exactly, from the one clock reading that stamps
		// created_at (a second reading could straddle a second), in whole
		// seconds: the instant expires_at shows is the one checked.
		ExpiresAt: env.Now.Add(TransferTTL).Truncate(time.Second), CreatedAt: env.Now, UpdatedAt: env.Now,
	}
	if !t.Cross() {
		if len(c.Signing) == 0 || !json.Valid(c.Signing) {
			return nil, Reply{}, ErrInvalid("signing must be a JSON object")
		}
		t.Signing = append([]byte(nil), c.Signing...)
		t.AmountOut, t.MinAmountOut = new(big.Int).Set(c.Amount), new(big.Int).Set(c.Amount)
	}
	return []*Transfer{t}, jsonReply(201, ViewTransfer(t)), nil
}

// maxTransferWhole bounds one transfer: 10,000,000 tokens, as a quote.
const maxTransferWhole = 10_000_000

func maxTransferUnits(decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(maxTransferWhole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// accept builds the gasless leg of a cross-currency transfer; accepting
// again answers the transfer as it is, with fresh issues; accepting one
// that expired unaccepted is 409, as before its expiry was recorded.
func (s *TransferState) accept(c AcceptTransfer, env Env) ([]*Transfer, Reply, *Error) {
	t := s.Transfer
	if t.Account != c.Account {
		return nil, Reply{}, ErrNotFound("transfer")
	}
	if !t.Cross() {
		return nil, Reply{}, ErrInvalidState("transfer %s is in one currency: sign signing.tx and submit its tx_hash", t.ID)
	}
	if t.State != TransferCreated {
		// Accept is idempotent: a transfer accepted once answers as it is,
		// wherever it went since (as an accepted quote answers its order).
		// One that left created without an accept (it expired) never will.
		if t.Gasless == nil {
			return nil, Reply{}, ErrInvalidState("transfer %s is %s and was never accepted", t.ID, t.State)
		}
		if c.Refusal != nil { // the account could not accept it now
			return nil, Reply{}, c.Refusal
		}
		return nil, jsonReply(200, ViewTransferAccept(t, c.Issues)), nil
	}
	if c.Refusal != nil {
		return nil, Reply{}, c.Refusal
	}
	if env.Now.After(t.ExpiresAt) {
		return nil, Reply{}, ErrInvalidState("transfer %s expired at %s", t.ID, RFC3339(t.ExpiresAt))
	}
	g := c.Gasless
	if g == nil || g.valid() != nil || c.AmountOut == nil || g.MinAmountOut.Sign() <= 0 || g.MinAmountOut.Cmp(c.AmountOut) > 0 ||
		g.AmountIn.Cmp(t.Amount) != 0 || g.Recipient != t.Recipient || g.Signer != t.SourceWallet || len(c.Signing) == 0 {
		return nil, Reply{}, ErrInvalid("the gasless leg does not match the transfer")
	}
	deadline := time.Unix(g.Deadline.Int64(), 0).UTC()
	rows := t.next(env, TransferAccepted, func(n *Transfer) {
		n.Gasless, n.Signing = g, append([]byte(nil), c.Signing...)
		n.AmountOut, n.MinAmountOut = new(big.Int).Set(c.AmountOut), new(big.Int).Set(g.MinAmountOut)
		n.ExpiresAt = deadline // the signed leg's deadline is the transfer's now
	})
	return rows, jsonReply(200, ViewTransferAccept(rows[0], c.Issues)), nil
}

func (s *TransferState) submitTx(c SubmitTransferTx, env Env) ([]*Transfer, Reply, *Error) {
	t := s.Transfer
	if t.Cross() {
		return nil, Reply{}, ErrInvalid("transfer %s swaps currencies: submit signature, not tx_hash", t.ID)
	}
	h, err := normTxHash("tx_hash", c.TxHash)
	if err != nil {
		return nil, Reply{}, err
	}
	if c.Refusal != nil {
		return nil, Reply{}, c.Refusal
	}
	if t.TxHash == h && (t.State == TransferConfirmed || t.State == TransferSubmitted && c.Status != TxVerified) {
		return nil, jsonReply(200, ViewTransfer(t)), nil // the same tx again: an answer, not a conflict
	}
	switch {
	case c.Status == TxVerified && (t.State == TransferCreated || t.State == TransferSubmitted):
		// Submitted with another tx still unmined: a mined tx that pays
		// exactly this transfer confirms it (a wallet's speed-up replaces
		// the submitted tx with one of another hash).
		return transferReply(t.next(env, TransferConfirmed, func(n *Transfer) { n.TxHash, n.LogIndex = h, c.LogIndex }))
	case c.Status == TxPending && t.State == TransferCreated:
		if env.Now.After(t.ExpiresAt) {
			return nil, Reply{}, ErrInvalidState("transfer %s expired at %s", t.ID, RFC3339(t.ExpiresAt))
		}
		return transferReply(t.next(env, TransferSubmitted, func(n *Transfer) { n.TxHash = h }))
	case c.Status == TxPending && t.State == TransferSubmitted:
		return nil, Reply{}, ErrInvalidState("transfer %s is submitted with transaction %s, not mined yet; another transaction confirms it only once mined", t.ID, t.TxHash)
	case c.Status != TxVerified && c.Status != TxPending && c.Status != TxUnchecked:
		return nil, Reply{}, ErrInvalid("status must be verified, pending or unchecked")
	}
	return nil, Reply{}, ErrInvalidState("transfer %s is %s", t.ID, t.State)
}

func (s *TransferState) submitSignature(c SubmitTransferSignature, env Env) ([]*Transfer, Reply, *Error) {
	t := s.Transfer
	if !t.Cross() {
		return nil, Reply{}, ErrInvalid("transfer %s is in one currency: submit tx_hash, not signature", t.ID)
	}
	if err := t.need(TransferAccepted); err != nil {
		return nil, Reply{}, err
	}
	if env.Now.After(t.ExpiresAt) {
		return nil, Reply{}, ErrInvalidState("transfer %s passed its deadline", t.ID)
	}
	if err := checkSignatureForm(c.Signature); err != nil {
		return nil, Reply{}, err
	}
	if !c.Verified {
		return nil, Reply{}, ErrBadSignature("signature does not recover to the transfer's source wallet %s", t.SourceWallet)
	}
	if c.Preflight != nil {
		return nil, Reply{}, c.Preflight
	}
	sig := c.Signature
	return transferReply(t.next(env, TransferSubmitted, func(n *Transfer) { n.Signature = sig }))
}

func (s *TransferState) mined(c TransferMined, env Env) ([]*Transfer, Reply, *Error) {
	t := s.Transfer
	if err := t.need(TransferSubmitted); err != nil {
		return nil, Reply{}, err
	}
	h := ""
	if c.TxHash != "" {
		var err *Error
		if h, err = normTxHash("tx_hash", c.TxHash); err != nil {
			return nil, Reply{}, err
		}
	}
	if !c.Success {
		reason := c.Reason
		if reason == "" {
			reason = ReasonTxReverted
		}
		if err := checkText("reason", reason, maxReasonRunes, false); err != nil {
			return nil, Reply{}, err
		}
		return transferReply(t.next(env, TransferFailed, func(n *Transfer) { n.FailureReason = reason; n.TxHash = cmpOr(h, n.TxHash) }))
	}
	if h == "" {
		return nil, Reply{}, ErrInvalid("tx_hash is required")
	}
	if !t.Cross() {
		if h != t.TxHash {
			return nil, Reply{}, ErrInvalidState("transfer %s waits for %s, not %s", t.ID, t.TxHash, h)
		}
		return transferReply(t.next(env, TransferConfirmed, func(n *Transfer) { n.LogIndex = c.LogIndex }))
	}
	if c.AmountOut == nil || c.AmountOut.Cmp(t.MinAmountOut) < 0 {
		return nil, Reply{}, ErrInvalid("amount_out must be at least min_amount_out %s", t.MinAmountOut)
	}
	out := new(big.Int).Set(c.AmountOut)
	return transferReply(t.next(env, TransferConfirmed, func(n *Transfer) { n.TxHash, n.AmountOut = h, out }))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func transferReply(rows []*Transfer) ([]*Transfer, Reply, *Error) {
	return rows, jsonReply(200, ViewTransfer(rows[len(rows)-1])), nil
}

// next returns a copy of t in state with edit applied, stamped at env.Now;
// a state that fires an event gets its event id here, once.
func (t *Transfer) next(env Env, state string, edit func(*Transfer)) []*Transfer {
	n := *t
	n.State, n.UpdatedAt = state, env.Now
	if edit != nil {
		edit(&n)
	}
	if transferHasEvent(state) {
		n.EventID = env.NewID("evt_")
	}
	return []*Transfer{&n}
}

func (t *Transfer) need(states ...string) *Error {
	for _, st := range states {
		if t.State == st {
			return nil
		}
	}
	return ErrInvalidState("transfer %s is %s", t.ID, t.State)
}
