package fx

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
)

// TestCheckSigner: who may sign an accepted quote. A wallet that is not
// the account's is 403 not_permitted with SPEC.md's message, whether it is
// the quote's taker or the source_wallet named at accept; a registered
// wallet other than the taker is 400; a malformed one is 400.
func TestCheckSigner(t *testing.T) {
	const (
		taker   = "0x1111111111111111111111111111111111111111"
		other   = "0x2222222222222222222222222222222222222222"
		foreign = "0x000000000000000000000000000000000000dEaD"
	)
	both := actors.AccountInfo{Wallets: map[string]*domain.Wallet{taker: {Primary: true}, other: {}}}
	onlyOther := actors.AccountInfo{Wallets: map[string]*domain.Wallet{other: {Primary: true}}}
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name   string
		info   actors.AccountInfo
		source *string
		status int // 0: accepted
		code   string
	}{
		{"the taker, unnamed", both, nil, 0, ""},
		{"the taker, named", both, str(taker), 0, ""},
		{"the taker, named in lower case", both, str("0x1111111111111111111111111111111111111111"), 0, ""},
		{"another wallet of the account", both, str(other), 400, domain.CodeInvalidRequest},
		{"a wallet not the account's", both, str(foreign), 403, domain.CodeNotPermitted},
		{"malformed", both, str("0x12"), 400, domain.CodeInvalidRequest},
		{"the taker unlinked since the quote", onlyOther, nil, 403, domain.CodeNotPermitted},
		{"the taker unlinked, named", onlyOther, str(taker), 403, domain.CodeNotPermitted},
	} {
		t.Run(c.name, func(t *testing.T) {
			derr := checkSigner(c.info, c.source, taker)
			if c.status == 0 {
				require.Nil(t, derr)
				return
			}
			require.NotNil(t, derr)
			require.Equal(t, c.status, derr.Status)
			require.Equal(t, c.code, derr.Code)
			if c.status == 403 {
				require.Equal(t, domain.MsgNotPermittedSwap, derr.Message)
			}
		})
	}
}

// TestForeignTakerQuotedThenRefused: POST /fx/quotes for a source_wallet
// that is not the account's quotes it (quoting is allowed; CONTRACT.md puts
// the 403 at accept), and accepting that quote is 403 not_permitted, on
// both rails, with no order made.
func TestForeignTakerQuotedThenRefused(t *testing.T) {
	env := newQuoteEnv(t)
	foreign := "0x000000000000000000000000000000000000dEaD"
	req := QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "10", SourceWallet: &foreign}
	view, derr := env.desk.Quote(context.Background(), env.acct, req)
	require.Nil(t, derr)
	require.NotEmpty(t, view.Quotes)
	for _, q := range view.Quotes {
		require.Equal(t, foreign, q.Taker)
		out, err := env.desk.Accept(context.Background(), env.acct, q.ID, AcceptRequest{}, nil)
		require.NoError(t, err)
		require.Equal(t, 403, out.Reply.Status, "%s", out.Reply.Body)
		require.JSONEq(t, `{"error":{"code":"not_permitted","message":"Source wallet is not permitted for swap"}}`, string(out.Reply.Body))
		id, _ := OrderID(q.ID)
		_, err = env.desk.e.Order(context.Background(), id)
		require.ErrorIs(t, err, actors.ErrNoOrder)
	}
}

// TestOrderCreatedAtIsItsQuotes: an order is created_at its quote's
// instant, the one its id carries, whenever it is accepted: quote A, then
// B, accept B, then A, and A is still the older, by id and by created_at
// alike (lists sort by id); each deadline is its own accept's + 120 s.
func TestOrderCreatedAtIsItsQuotes(t *testing.T) {
	env := newFuzzDesk(t).quoteEnv // a desk that reads the chain at accept
	ctx := context.Background()
	quote := func() string {
		view, derr := env.desk.Quote(ctx, env.acct, QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "10"})
		require.Nil(t, derr)
		return view.BestQuoteID
	}
	qa, qb := quote(), quote() // ids are monotonic: B's sorts after A's
	orders := map[string]*domain.Order{}
	for _, q := range []string{qb, qa} {
		out, err := env.desk.Accept(ctx, env.acct, q, AcceptRequest{}, nil)
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
		id, _ := OrderID(q)
		o, err := env.desk.e.Order(ctx, id)
		require.NoError(t, err)
		raw, ok := ids.Parse("q_", q)
		require.True(t, ok)
		require.Equal(t, raw.Time(), o.CreatedAt, "created_at is the quote's instant")
		require.Equal(t, o.UpdatedAt.Add(env.desk.cfg.OrderDeadline).Truncate(time.Second), o.Deadline, "the deadline is the accept's")
		orders[q] = o
	}
	a, b := orders[qa], orders[qb]
	require.Less(t, a.ID, b.ID)
	require.False(t, a.CreatedAt.After(b.CreatedAt), "id order and created_at order agree")
	require.True(t, a.UpdatedAt.After(b.UpdatedAt), "A was accepted after B")
}

// TestSubmitRefusedOnceNotPermitted: a permission revoked after accept
// stops the relay of an amm order (SPEC.md: "The account must be
// permitted … for the action, otherwise the operation is refused",
// failing closed): its signature submit, and accepting its quote again,
// are 403 not_permitted while the account may not swap, the order is
// untouched, and once it may again the repeat answers the order and the
// same submit gets past the check.
func TestSubmitRefusedOnceNotPermitted(t *testing.T) {
	fd := newFuzzDesk(t)
	ctx := context.Background()
	no, yes := false, true
	rejected, approved := domain.KYCRejected, domain.KYCApproved
	before, err := fd.desk.e.Order(ctx, fd.amm)
	require.NoError(t, err)
	for _, revoke := range []domain.UpdateAccount{{Swap: &no}, {KYC: &rejected}} {
		out, err := fd.desk.e.Exec(ctx, fd.acct, domain.Request{Cmd: revoke})
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
		for _, step := range []func() (domain.Outcome, error){
			func() (domain.Outcome, error) {
				return fd.desk.Submit(ctx, fd.acct, fd.amm, SubmitRequest{Signature: &fd.ammSig}, nil)
			},
			func() (domain.Outcome, error) { return fd.desk.Accept(ctx, fd.acct, fd.ammQuote, AcceptRequest{}, nil) },
		} {
			out, err = step()
			require.NoError(t, err)
			require.Equal(t, 403, out.Reply.Status, "%s", out.Reply.Body)
			require.JSONEq(t, `{"error":{"code":"not_permitted","message":"Source wallet is not permitted for swap"}}`, string(out.Reply.Body))
		}
		o, err := fd.desk.e.Order(ctx, fd.amm)
		require.NoError(t, err)
		require.Equal(t, before, o)
		out, err = fd.desk.e.Exec(ctx, fd.acct, domain.Request{Cmd: domain.UpdateAccount{Swap: &yes, KYC: &approved}})
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
	}
	again, err := fd.desk.Accept(ctx, fd.acct, fd.ammQuote, AcceptRequest{}, nil)
	require.NoError(t, err)
	require.Equal(t, 200, again.Reply.Status, "%s", again.Reply.Body)
	require.Contains(t, string(again.Reply.Body), `"order_id":"`+fd.amm+`"`)
	// Permitted again, the submit is past the check: the relay's
	// pre-flight answers (this fixture's wallet approved and holds none).
	out, err := fd.desk.Submit(ctx, fd.acct, fd.amm, SubmitRequest{Signature: &fd.ammSig}, nil)
	require.NoError(t, err)
	require.Equal(t, 400, out.Reply.Status, "%s", out.Reply.Body)
	require.Regexp(t, `"code":"insufficient_(allowance|balance)"`, string(out.Reply.Body))
}
