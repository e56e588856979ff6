package pay

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
)

// TestAccountWallet: the wallet a transfer pays from or a link pays out
// to. Unnamed is the primary (none: 400); a malformed address is 400; a
// well-formed one that is not the account's is refused as the caller says:
// 403 not_permitted for a source wallet, 400 for a payout wallet.
func TestAccountWallet(t *testing.T) {
	const (
		mine    = "0x1111111111111111111111111111111111111111"
		foreign = "0x000000000000000000000000000000000000dEaD"
	)
	info := actors.AccountInfo{Wallets: map[string]*domain.Wallet{mine: {Primary: true}}}
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name    string
		info    actors.AccountInfo
		named   *string
		foreign func(string) *domain.Error
		want    string
		status  int
		code    string
	}{
		{"primary", info, nil, notPermittedForPay, mine, 0, ""},
		{"named", info, str(mine), notPermittedForPay, mine, 0, ""},
		{"no wallet at all", actors.AccountInfo{}, nil, notPermittedForPay, "", 400, domain.CodeInvalidRequest},
		{"malformed", info, str("0xabc"), notPermittedForPay, "", 400, domain.CodeInvalidRequest},
		{"foreign source", info, str(foreign), notPermittedForPay, "", 403, domain.CodeNotPermitted},
		{"foreign payout", info, str(foreign), notOwnPayout, "", 400, domain.CodeInvalidRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, derr := accountWallet(c.info, "source_wallet", c.named, c.foreign)
			if c.status == 0 {
				require.Nil(t, derr)
				require.Equal(t, c.want, got)
				return
			}
			require.NotNil(t, derr)
			require.Equal(t, c.status, derr.Status)
			require.Equal(t, c.code, derr.Code)
		})
	}
}

// TestForeignSourceWallet: POST /transfers naming a source_wallet that is
// not the account's is 403 not_permitted with SPEC.md's message, on both
// kinds of transfer; a link's payout_wallet that is not the account's is
// 400.
func TestForeignSourceWallet(t *testing.T) {
	fp := newFuzzPay(t)
	ctx := context.Background()
	foreign, recipient := "0x000000000000000000000000000000000000dEaD", "0x00000000000000000000000000000000000000cc"
	for _, to := range []string{"USDC", "EURC"} {
		out, err := fp.desk.CreateTransfer(ctx, fp.acct, TransferRequest{FromCurrency: "USDC", Currency: to, Amount: "5",
			Recipient: &recipient, SourceWallet: &foreign}, nil)
		require.NoError(t, err)
		require.Equal(t, 403, out.Reply.Status, "%s", out.Reply.Body)
		require.JSONEq(t, `{"error":{"code":"not_permitted","message":"Source wallet is not permitted for pay"}}`, string(out.Reply.Body))
	}
	out, err := fp.desk.CreateLink(ctx, fp.acct, LinkRequest{Currency: "USDC", Amount: "10", PayoutWallet: &foreign}, nil)
	require.NoError(t, err)
	require.Equal(t, 400, out.Reply.Status, "%s", out.Reply.Body)
	require.Contains(t, string(out.Reply.Body), "payout_wallet")
}

// TestSubmitRefusedOnceNotPermitted: a permission revoked after accept
// stops the relay (SPEC.md: "The account must be permitted … for the
// action, otherwise the operation is refused", failing closed): the
// signature submit of an accepted cross-currency transfer, and accepting
// it again, are 403 not_permitted while the account may not pay, the
// transfer is untouched, and once it may again the repeat answers the
// transfer and the same submit gets past the check.
func TestSubmitRefusedOnceNotPermitted(t *testing.T) {
	fp := newFuzzPay(t)
	ctx := context.Background()
	no, yes := false, true
	rejected, approved := domain.KYCRejected, domain.KYCApproved
	sig := fp.subs["$SIG"]
	before, err := fp.desk.Transfer(ctx, fp.acct, fp.cross)
	require.NoError(t, err)
	for _, revoke := range []domain.UpdateAccount{{Pay: &no}, {KYC: &rejected}} {
		out, err := fp.e.Exec(ctx, fp.acct, domain.Request{Cmd: revoke})
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
		for _, step := range []func() (domain.Outcome, error){
			func() (domain.Outcome, error) {
				return fp.desk.SubmitTransfer(ctx, fp.acct, fp.cross, SubmitRequest{Signature: &sig}, nil)
			},
			func() (domain.Outcome, error) { return fp.desk.AcceptTransfer(ctx, fp.acct, fp.cross, nil) },
		} {
			out, err = step()
			require.NoError(t, err)
			require.Equal(t, 403, out.Reply.Status, "%s", out.Reply.Body)
			require.JSONEq(t, `{"error":{"code":"not_permitted","message":"Source wallet is not permitted for pay"}}`, string(out.Reply.Body))
		}
		tr, err := fp.desk.Transfer(ctx, fp.acct, fp.cross)
		require.NoError(t, err)
		require.Equal(t, before, tr)
		out, err = fp.e.Exec(ctx, fp.acct, domain.Request{Cmd: domain.UpdateAccount{Pay: &yes, KYC: &approved}})
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
	}
	again, err := fp.desk.AcceptTransfer(ctx, fp.acct, fp.cross, nil)
	require.NoError(t, err)
	require.Equal(t, 200, again.Reply.Status, "%s", again.Reply.Body)
	require.Contains(t, string(again.Reply.Body), `"state":"accepted"`)
	// Permitted again, the submit is past the check: the relay's
	// pre-flight answers (this fixture's wallet approved and holds none).
	out, err := fp.desk.SubmitTransfer(ctx, fp.acct, fp.cross, SubmitRequest{Signature: &sig}, nil)
	require.NoError(t, err)
	require.Equal(t, 400, out.Reply.Status, "%s", out.Reply.Body)
	require.Regexp(t, `"code":"insufficient_(allowance|balance)"`, string(out.Reply.Body))
}
