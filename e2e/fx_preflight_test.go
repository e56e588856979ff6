package e2e

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
)

// acceptedView is the answer of accept on the wire: the order and the
// relay pre-flight's issues (CONTRACT.md).
type acceptedView struct {
	orderView
	Issues issuesView `json:"issues"`
}

type issuesView struct {
	Allowance *allowanceIssue `json:"allowance"`
	Balance   *balanceIssue   `json:"balance"`
}

type allowanceIssue struct {
	Token    string `json:"token"`
	Spender  string `json:"spender"`
	Actual   string `json:"actual"`
	Required string `json:"required"`
}

type balanceIssue struct {
	Token    string `json:"token"`
	Actual   string `json:"actual"`
	Required string `json:"required"`
}

// acceptWithIssues accepts quoteID and decodes the answer strictly,
// issues included.
func (tr *fxTrader) acceptWithIssues(t *testing.T, quoteID string) acceptedView {
	t.Helper()
	resp := call(t, tr.c, "POST", basePath+"/fx/quotes/"+quoteID+"/accept", "", nil)
	require.Equal(t, 200, resp.Status, "accept: %s", resp.Body)
	var a acceptedView
	decodeStrictJSON(t, resp.Body, &a)
	require.Contains(t, string(resp.Body), `"issues":{"allowance":`, "issues are always present, null where nothing is short")
	return a
}

// signingPermit2 is signing.relay.permit2: the Permit2 the wallet approves.
func signingPermit2(t *testing.T, signing json.RawMessage) string {
	t.Helper()
	var s struct {
		Relay struct {
			Permit2 string `json:"permit2"`
		} `json:"relay"`
	}
	require.NoError(t, json.Unmarshal(signing, &s))
	require.True(t, common.IsHexAddress(s.Relay.Permit2), "signing.relay.permit2 %q", s.Relay.Permit2)
	return s.Relay.Permit2
}

// hexToken is a 0x-prefixed run of hex digits in a text.
var hexToken = regexp.MustCompile(`0[xX][0-9a-fA-F]+`)

// requireDecoded requires a reason a user reads to name what the chain
// refused, never raw revert data: the only hex in it may be addresses
// (40 digits) and hashes (64), never a selector (0x192b9e4e is
// InsufficientAllowance) or ABI-encoded arguments.
func requireDecoded(t *testing.T, reason string) {
	t.Helper()
	require.NotContains(t, reason, "192b9e4e", "InsufficientAllowance's selector, raw")
	for _, h := range hexToken.FindAllString(reason, -1) {
		require.Contains(t, []int{40, 64}, len(h)-2, "raw hex %s in %q", h, reason)
	}
}

// TestFXPreflightBeforeRelay: a wallet that never approved Permit2 is told
// so at accept (issues.allowance: the token, Permit2 as spender, actual 0,
// required the amount) on both routes and on a re-accept; its signature is
// refused with 400 insufficient_allowance and nothing is relayed (the order
// stays accepted); once the wallet approves Permit2 with ethers, the same
// signature is accepted and the order settles. A relay the chain would
// refuse for another reason (the wallet cancelled the order's Permit2
// nonce) is refused the same way with the decoded revert.
func TestFXPreflightBeforeRelay(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	tr := newTrader(t, srv, "fx preflight", nil)
	srv.faucet(t, tr.wallet.Address, "USDC", "1000") // funded, never approved
	usdc := tr.tokens["USDC"].Hex()

	q := tr.quote(t, "USDC", "EURC", "100")
	a := tr.acceptWithIssues(t, q.pick(t, "amm").ID)
	require.Equal(t, "accepted", a.State)
	permit2 := signingPermit2(t, a.Signing)
	require.Equal(t, canonicalPermit2.Hex(), permit2)
	short := &allowanceIssue{Token: usdc, Spender: permit2, Actual: "0", Required: "100"}
	require.Equal(t, issuesView{Allowance: short}, a.Issues, "funded, not approved")
	again := tr.acceptWithIssues(t, a.QuoteID)
	require.Equal(t, a.OrderID, again.OrderID)
	require.Equal(t, a.Issues, again.Issues, "a re-accept carries the issues too")

	// The rfq route: the escrow pulls through Permit2 as well.
	r := tr.acceptWithIssues(t, q.pick(t, "rfq").ID)
	require.Equal(t, "rfq", r.Route)
	require.Equal(t, permit2, signingPermit2(t, r.Signing))
	require.Equal(t, issuesView{Allowance: short}, r.Issues)

	// Submit before approving: refused by the pre-flight, nothing relayed.
	sig := tr.signTyped(t, a.Signing)
	refused := tr.submit(t, a.OrderID, fmt.Sprintf(`{"signature":%q}`, sig))
	requireError(t, refused, 400, "insufficient_allowance")
	requireDecoded(t, errorMessage(t, refused.Body))
	o := tr.order(t, a.OrderID)
	require.Equal(t, "accepted", o.State)
	require.Nil(t, o.TxHash, "nothing was relayed")
	require.Nil(t, o.FailureReason)

	// The wallet approves Permit2 (ethers); the same signature now goes through.
	tr.approvePermit2(t, "USDC")
	require.Equal(t, issuesView{}, tr.acceptWithIssues(t, a.QuoteID).Issues, "nothing is short any more")
	usdc0, eurc0 := tr.balance(t, "USDC"), tr.balance(t, "EURC")
	sub := tr.submit(t, a.OrderID, fmt.Sprintf(`{"signature":%q}`, sig))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	done := tr.await(t, a.OrderID, "settled", 60*time.Second)
	require.Nil(t, done.FailureReason)
	require.Equal(t, new(big.Int).Sub(usdc0, units(100)), tr.balance(t, "USDC"))
	require.Equal(t, new(big.Int).Add(eurc0, baseUnits(t, done.AmountOut)), tr.balance(t, "EURC"))

	// Approved and funded, but the wallet cancels the order's Permit2 nonce
	// (invalidateUnorderedNonces) after signing: the simulated relay reverts
	// with InvalidNonce(), which the refusal names decoded.
	q = tr.quote(t, "USDC", "EURC", "10")
	c := tr.acceptWithIssues(t, q.pick(t, "amm").ID)
	require.Equal(t, issuesView{}, c.Issues)
	sig = tr.signTyped(t, c.Signing)
	tr.cancelPermit2Nonce(t, c.Signing)
	refused = tr.submit(t, c.OrderID, fmt.Sprintf(`{"signature":%q}`, sig))
	requireError(t, refused, 400, "relay_would_revert")
	msg := errorMessage(t, refused.Body)
	require.Contains(t, msg, "InvalidNonce()")
	requireDecoded(t, msg)
	o = tr.order(t, c.OrderID)
	require.Equal(t, "accepted", o.State)
	require.Nil(t, o.TxHash)
	require.Nil(t, o.FailureReason)
}

// cancelPermit2Nonce spends signing.order.nonce in the wallet's Permit2
// nonce bitmap (Permit2.invalidateUnorderedNonces, sent with ethers), which
// voids every signature over it.
func (tr *fxTrader) cancelPermit2Nonce(t *testing.T, signing json.RawMessage) {
	t.Helper()
	var s struct {
		Order struct {
			Nonce string `json:"nonce"`
		} `json:"order"`
	}
	require.NoError(t, json.Unmarshal(signing, &s))
	nonce, ok := new(big.Int).SetString(s.Order.Nonce, 10)
	require.True(t, ok, "nonce %q", s.Order.Nonce)
	p2, err := fxbind.Permit2MetaData.GetAbi()
	require.NoError(t, err)
	mask := new(big.Int).Lsh(big.NewInt(1), uint(new(big.Int).And(nonce, big.NewInt(255)).Uint64()))
	data, err := p2.Pack("invalidateUnorderedNonces", new(big.Int).Rsh(nonce, 8), mask)
	require.NoError(t, err)
	var out struct {
		TxHash string `json:"tx_hash"`
		Status *int   `json:"status"`
	}
	runNode(t, "fx.mjs", map[string]any{"op": "send_call", "rpc": tr.rpc, "chain_id": tr.chainID, "key": tr.wallet.Hex,
		"to": tr.permit2.Hex(), "data": hexutil.Encode(data)}, &out)
	require.NotNil(t, out.Status)
	require.Equal(t, 1, *out.Status, "invalidateUnorderedNonces %s", out.TxHash)
}
