package pay

import (
	"context"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/fxd-labs/fxd/actors"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/domain"
)

// TransferRequest is the body of POST /transfers (CONTRACT.md).
type TransferRequest struct {
	FromCurrency string  `json:"from_currency"`
	Currency     string  `json:"currency"`
	Amount       string  `json:"amount"`
	Recipient    *string `json:"recipient"`
	ContactID    *string `json:"contact_id"`
	SourceWallet *string `json:"source_wallet"`
	Memo         *string `json:"memo"`
}

// SubmitRequest is the body of POST /transfers/{id}/submit: signature on a
// cross-currency transfer, tx_hash on a same-currency one.
type SubmitRequest struct {
	Signature *string `json:"signature"`
	TxHash    *string `json:"tx_hash"`
}

// ERC20Signing is signing of a same-currency transfer: the transaction the
// caller signs and broadcasts itself (eth_sendTransaction shape).
type ERC20Signing struct {
	Type string  `json:"type"`
	Tx   ERC20Tx `json:"tx"`
}

// ERC20Tx is signing.tx: transfer(recipient, amount) on the token.
type ERC20Tx struct {
	ChainID *big.Int `json:"chainId"`
	To      string   `json:"to"`
	Data    string   `json:"data"`
	Value   string   `json:"value"`
}

// erc20ABI encodes transfer(to, amount): TestToken's ABI is the standard
// ERC-20 one.
var erc20ABI = func() *abi.ABI {
	a, err := fxbind.TestTokenMetaData.GetAbi()
	must(err)
	return a
}()

func must(err error) {
	if err != nil {
		panic("pay: " + err.Error())
	}
}

// CreateTransfer is POST /transfers. With an Idempotency-Key the account
// first reserves the transfer's id under the key (so a retry reaches the
// same transfer entity, which keeps the create's answer); every check
// that needs the account (permission, wallet, contact) becomes the
// command's Refusal, stored with the key like any answer.
func (d *Desk) CreateTransfer(ctx context.Context, acct string, req TransferRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	if d.transfers.Len() >= MaxLiveTransfers { // a passing condition: answered, never stored
		return domain.Refuse(domain.ErrUnavailable("%d transfers are live; retry later", MaxLiveTransfers)), nil
	}
	r, out, err := d.e.Reserve(ctx, acct, domain.KindTransfer, idem)
	if r.ID == "" || err != nil {
		return out, err
	}
	id := r.ID
	cmd, err := d.createCommand(ctx, acct, req)
	if err != nil {
		return domain.Outcome{}, err
	}
	cmd.ID = id
	return d.e.CreateReserved(ctx, r, domain.Request{Cmd: cmd, Idem: idem})
}

// createCommand checks the request against the account: a refusal is set
// on the command, not returned, so it is stored under the key.
func (d *Desk) createCommand(ctx context.Context, acct string, req TransferRequest) (domain.CreateTransfer, error) {
	cmd := domain.CreateTransfer{Account: acct, FromCurrency: req.FromCurrency, Currency: req.Currency}
	if req.Memo != nil {
		cmd.Memo = *req.Memo
	}
	info, err := d.e.AccountInfo(ctx, acct)
	if err != nil {
		return cmd, err
	}
	from, derr := domain.RequiredCurrency("from_currency", req.FromCurrency)
	if derr == nil {
		_, derr = domain.RequiredCurrency("currency", req.Currency)
	}
	if derr == nil {
		cmd.Amount, derr = domain.ParseAmount("amount", req.Amount, from.Decimals)
	}
	if derr == nil && (req.Recipient == nil) == (req.ContactID == nil) {
		derr = domain.ErrInvalid("send exactly one of recipient or contact_id")
	}
	if derr == nil && !info.PayPermitted() { // fail closed, before anything of the account is read
		derr = domain.ErrNotPermitted(domain.MsgNotPermittedPay)
	}
	if derr == nil {
		if derr, err = d.resolvePayee(ctx, acct, req, &cmd); err != nil {
			return cmd, err // the account did not answer: 503, not stored
		}
	}
	if derr == nil {
		cmd.SourceWallet, derr = accountWallet(info, "source_wallet", req.SourceWallet, notPermittedForPay)
	}
	if derr == nil && req.FromCurrency == req.Currency {
		cmd.Signing, derr = d.erc20Signing(req.Currency, cmd.Recipient, cmd.Amount)
	}
	cmd.Refusal = derr
	return cmd, nil
}

// resolvePayee sets the recipient: given, or the contact's address. The
// refusal is the request's (stored); the error is the account not
// answering.
func (d *Desk) resolvePayee(ctx context.Context, acct string, req TransferRequest, cmd *domain.CreateTransfer) (*domain.Error, error) {
	if req.Recipient != nil {
		cmd.Recipient = *req.Recipient
		return nil, nil
	}
	v, err := d.e.Read(ctx, acct, func(s domain.Entity) any { return s.(*domain.AccountState).Contacts[*req.ContactID] })
	if err != nil {
		return nil, err
	}
	c, _ := v.(*domain.Contact)
	switch {
	case c == nil:
		return domain.ErrNotFound("contact"), nil
	case c.Currency != "" && c.Currency != req.Currency:
		return domain.ErrInvalid("contact %s is paid in %s, not %s", c.ID, c.Currency, req.Currency), nil
	}
	cmd.Recipient, cmd.ContactID = c.Address, c.ID
	return nil, nil
}

// accountWallet is the named wallet (a registered one) or the primary. A
// well-formed address that is none of the account's wallets is refused
// with foreign(addr): a source wallet the account may not spend from is
// 403 not_permitted (SPEC.md, Endpoints rule 4: "If the account or source
// wallet is not permitted, … create is refused with 403"), a payout wallet
// that is not the account's is a bad request.
func accountWallet(info actors.AccountInfo, field string, named *string, foreign func(addr string) *domain.Error) (string, *domain.Error) {
	if named == nil {
		if p := info.Primary(); p != "" {
			return p, nil
		}
		return "", domain.ErrInvalid("the account has no registered wallet: register one with POST /wallets first")
	}
	addr, err := domain.NormalizeAddress(field, *named)
	if err != nil {
		return "", err
	}
	if info.Wallets[addr] == nil {
		return "", foreign(addr)
	}
	return addr, nil
}

// notPermittedForPay refuses a source wallet that is not the account's.
func notPermittedForPay(string) *domain.Error {
	return domain.ErrNotPermitted(domain.MsgNotPermittedPay)
}

// notOwnPayout refuses a payout wallet that is not the account's.
func notOwnPayout(addr string) *domain.Error {
	return domain.ErrInvalid("payout_wallet %s is not a registered wallet of this account", addr)
}

// erc20Signing is the transaction a same-currency payer sends.
func (d *Desk) erc20Signing(symbol, recipient string, amount *big.Int) ([]byte, *domain.Error) {
	token, ok := d.cfg.Tokens[symbol]
	if !ok {
		return nil, domain.ErrUnsupportedAsset(symbol)
	}
	to, err := domain.NormalizeAddress("recipient", recipient)
	if err != nil || amount == nil {
		return nil, err // Decide reports it
	}
	data, perr := erc20ABI.Pack("transfer", common.HexToAddress(to), amount)
	must(perr)
	return mustJSON(ERC20Signing{Type: "erc20_transfer", Tx: ERC20Tx{ChainID: d.cfg.ChainID, To: token.Hex(), Data: hexutil.Encode(data), Value: "0"}}), nil
}

// Transfer reads a transfer of acct; another account's is ErrNoEntity.
func (d *Desk) Transfer(ctx context.Context, acct, id string) (*domain.Transfer, error) {
	r, err := d.e.Row(ctx, domain.KindTransfer, id, acct)
	if err != nil {
		return nil, err
	}
	return r.(*domain.Transfer), nil
}

// AcceptTransfer is POST /transfers/{id}/accept: the gasless leg of a
// cross-currency transfer, priced by the pool now, with the pre-flight's
// issues (read again on every accept while the transfer is accepted). A
// repeat answers the transfer as it is, or 403 if the account could not
// accept it now.
func (d *Desk) AcceptTransfer(ctx context.Context, acct, id string, idem *domain.IdemRequest) (domain.Outcome, error) {
	t, err := d.Transfer(ctx, acct, id)
	if errors.Is(err, actors.ErrNoEntity) {
		return domain.Refuse(domain.ErrNotFound("transfer")), nil
	}
	if err != nil {
		return domain.Outcome{}, err
	}
	cmd := domain.AcceptTransfer{Account: acct}
	terms := t.Gasless
	switch {
	case terms == nil && t.Cross() && t.State == domain.TransferCreated:
		terms, cmd.AmountOut, cmd.Refusal = d.buildLeg(ctx, acct, t)
		if terms != nil {
			cmd.Gasless, cmd.Signing = terms, mustJSON(d.cfg.Leg.Signing(terms))
		}
	case terms != nil: // a repeat: refused as the first accept would be now
		cmd.Refusal = d.checkPay(ctx, acct, t)
	}
	// Issues are read while there is something to fund (being accepted,
	// or accepted and not yet submitted); past that both are null, as for
	// orders: a spent balance after the relay is no issue.
	fundable := t.State == domain.TransferCreated || t.State == domain.TransferAccepted
	if terms != nil && cmd.Refusal == nil && fundable {
		cctx, cancel := context.WithTimeout(ctx, chainTimeout)
		defer cancel()
		if cmd.Issues, err = d.cfg.Leg.Issues(cctx, terms, domain.DecimalsOf(t.FromCurrency)); err != nil {
			return d.chainUnavailable(err), nil
		}
	}
	return d.e.Exec(ctx, id, domain.Request{Cmd: cmd, Idem: idem})
}

// legDeadline is the signed leg's deadline for an accept at now: the
// accept deadline, but never past the transfer's own expiry (created +
// 1 h), so an accept in its last minutes signs a shorter leg. Whole
// seconds (the typed data's uint256), rounded down.
func legDeadline(now time.Time, acceptDeadline time.Duration, expiresAt time.Time) time.Time {
	return minTime(now.Add(acceptDeadline), expiresAt).Truncate(time.Second)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// checkPay refuses, failing closed, a step of transfer t that commits the
// account's money: actors.Engine.CheckPermitted under the pay rule, from
// t's source wallet.
func (d *Desk) checkPay(ctx context.Context, acct string, t *domain.Transfer) *domain.Error {
	return d.e.CheckPermitted(ctx, acct, t.SourceWallet, actors.AccountInfo.PayPermitted, domain.MsgNotPermittedPay)
}

// buildLeg prices the swap on the pool and builds the terms the payer
// signs: recipient the payee, deadline accept + AcceptDeadline. The
// account must still be permitted to pay, and the wallet still its own.
func (d *Desk) buildLeg(ctx context.Context, acct string, t *domain.Transfer) (*domain.GaslessTerms, *big.Int, *domain.Error) {
	if derr := d.checkPay(ctx, acct, t); derr != nil {
		return nil, nil, derr
	}
	tokenIn, okIn := d.cfg.Tokens[t.FromCurrency]
	tokenOut, okOut := d.cfg.Tokens[t.Currency]
	if !okIn || !okOut {
		return nil, nil, domain.ErrUnsupportedAsset(t.FromCurrency + "/" + t.Currency)
	}
	pool, out, ok := d.cfg.Pools.Quote(tokenIn, tokenOut, t.Amount)
	if !ok {
		return nil, nil, domain.ErrNoQuote("no pool quotes %s %s → %s", domain.FormatAmount(t.Amount, domain.DecimalsOf(t.FromCurrency)), t.FromCurrency, t.Currency)
	}
	min := new(big.Int).Mul(out, big.NewInt(int64(10_000-d.cfg.SlippageBps)))
	min.Quo(min, big.NewInt(10_000))
	if min.Sign() <= 0 {
		return nil, nil, domain.ErrInvalid("amount is too small to swap")
	}
	deadline := legDeadline(d.cfg.Clock(), d.cfg.AcceptDeadline, t.ExpiresAt)
	return &domain.GaslessTerms{
		Signer: t.SourceWallet, TokenIn: tokenIn.Hex(), TokenOut: tokenOut.Hex(), AmountIn: new(big.Int).Set(t.Amount),
		MinAmountOut: min, Recipient: t.Recipient, Pool: pool.Hex(), Deadline: big.NewInt(deadline.Unix()), Nonce: eip712.RandomNonce(),
	}, out, nil
}
