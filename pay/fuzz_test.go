package pay

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/chain/siwe"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/domain/domaintest"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
)

// The payments desk's own checks of a request body, fuzzed through the
// desk's real functions on a simulated chain (a real EVM with the
// contract set and its pools) and a real engine: the currencies and the
// amount, recipient or contact (its currency), the account's permission,
// the source or payout wallet, expires_at, the erc20 signing built, the
// exactly-one-of signature or tx_hash, the off-chain signature check and
// the relay pre-flight, the receipt lookup and the Transfer log checks,
// and each record's Decide. Only the chain is in memory.
//
// POST /transfers is CreateTransfer = Reserve + createCommand + Create:
// the target runs createCommand (every check against the account, its
// contacts and wallets, the token) and a new transfer's Decide of its
// command, i.e. all but the write, so a long run does not fill the log.
// The others run the desk's entry points themselves.
//
// The body's decode is the front door's own (jsonbody.Decode, fuzzed by
// httpd's FuzzRequestBody): a body it refuses never reaches the desk, so
// these targets stop at a refusal.

// fuzzPay is a payments desk as fxd serve builds it, on a simulated chain,
// with one account holding a wallet (the user key) and two contacts (one
// paid in EURC), a same-currency transfer (created), a cross-currency one
// (accepted), two open links, and what seeds stand for: $SIG the
// wallet's valid signature of the cross transfer's leg, $TX a mined
// transaction that pays nothing here, $PAY a payment of the first link,
// $BOB and $EVE the contacts' ids.
type fuzzPay struct {
	desk         *Desk
	e            *actors.Engine
	acct         string
	same, cross  string // transfer ids
	link, cancel string // link ids: paid by $PAY; cancelled by the target
	subs         map[string]string
}

func newFuzzPay(tb testing.TB) *fuzzPay {
	tb.Helper()
	deployer, user := simtest.Key(tb, 0xd0), simtest.Key(tb, 0x11)
	c := simtest.New(tb, deployer, user)
	addrs, contracts := c.Deploy(deployer, fxbind.DeployConfig{})
	ctx := context.Background()
	pools, err := fx.LoadPools(ctx, c.Client, addrs.Pools)
	require.NoError(tb, err)
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	// Refused creates spawn an entity that holds nothing: let it go soon.
	e, err := actors.Open(actors.Config{DataDir: tb.TempDir(), Logger: quiet, PassivateAfter: time.Second})
	require.NoError(tb, err)
	require.NoError(tb, e.Recover())
	tb.Cleanup(func() { _ = e.Close() })
	leg := &gasless.Leg{Domain: eip712.Domain{ChainID: simtest.ChainID, Permit2: addrs.Permit2}, Router: addrs.RelayRouter,
		Chain: c.Client, Logger: quiet}
	tokens := map[string]common.Address{fxbind.USDC: addrs.USDC, fxbind.USDT: addrs.USDT, fxbind.EURC: addrs.EURC}
	fp := &fuzzPay{e: e, desk: New(Config{Engine: e, Chain: c.Client, ChainID: simtest.ChainID, Tokens: tokens, Leg: leg, Pools: pools,
		Factory: addrs.PaymentLinkFactory, PublicBase: "http://127.0.0.1/public/v1", Logger: quiet})}
	fp.acct = accountWithWallet(tb, e, simtest.Addr(user))
	fp.subs = map[string]string{}
	for name, body := range map[string]string{"$BOB": `{"name":"bob","address":"0x00000000000000000000000000000000000000bb"}`,
		"$EVE": `{"name":"eve","address":"0x00000000000000000000000000000000000000ee","currency":"EURC"}`} {
		var cmd domain.CreateContact
		require.NoError(tb, json.Unmarshal([]byte(body), &cmd))
		out, err := e.Exec(ctx, fp.acct, domain.Request{Cmd: cmd})
		require.NoError(tb, err)
		require.Equal(tb, 201, out.Reply.Status, "%s", out.Reply.Body)
		var v struct{ ID string }
		require.NoError(tb, json.Unmarshal(out.Reply.Body, &v))
		fp.subs[name] = v.ID
	}
	recipient := "0x00000000000000000000000000000000000000cc"
	fp.same = fp.create(tb, TransferRequest{FromCurrency: "USDC", Currency: "USDC", Amount: "5", Recipient: &recipient})
	fp.cross = fp.create(tb, TransferRequest{FromCurrency: "USDC", Currency: "EURC", Amount: "5", Recipient: &recipient})
	out, err := fp.desk.AcceptTransfer(ctx, fp.acct, fp.cross, nil)
	require.NoError(tb, err)
	require.Equal(tb, 200, out.Reply.Status, "%s", out.Reply.Body)
	fp.link, fp.cancel = fp.createLink(tb), fp.createLink(tb)
	fp.subs["$SIG"] = fp.sign(tb, user)
	usdc := contracts.Tokens[fxbind.USDC]
	fp.subs["$TX"] = c.Mine(usdc.Mint(c.Auth(deployer), simtest.Addr(user), fxbind.Units(100))).TxHash.Hex()
	l, err := fp.desk.Link(ctx, fp.acct, fp.link)
	require.NoError(tb, err)
	fp.subs["$PAY"] = c.Mine(usdc.Transfer(c.Auth(user), common.HexToAddress(l.ReceiveAddress), fxbind.Units(10))).TxHash.Hex()
	return fp
}

// accountWithWallet creates an account permitted to pay with wallet
// registered (the SIWE signature is the host's to check, so the test names
// the signer).
func accountWithWallet(tb testing.TB, e *actors.Engine, wallet common.Address) string {
	tb.Helper()
	ctx := context.Background()
	out, err := e.CreateAccount(ctx, domain.CreateAccount{Name: "fuzz", KYC: domain.KYCApproved, Swap: true, Pay: true})
	require.NoError(tb, err)
	var a struct{ ID string }
	require.NoError(tb, json.Unmarshal(out.Reply.Body, &a))
	out, err = e.Exec(ctx, a.ID, domain.Request{Cmd: domain.CreateChallenge{Address: wallet.Hex(), Domain: "127.0.0.1",
		URI: "http://127.0.0.1/public/v1", ChainID: simtest.ChainID.Uint64()}})
	require.NoError(tb, err)
	var ch domain.ChallengeView
	require.NoError(tb, json.Unmarshal(out.Reply.Body, &ch))
	parsed, perr := siwe.Parse(ch.Message)
	require.NoError(tb, perr)
	out, err = e.Exec(ctx, a.ID, domain.Request{Cmd: domain.RegisterWallet{Message: ch.Message, Parsed: parsed, Signer: wallet.Hex()}})
	require.NoError(tb, err)
	require.Equal(tb, 201, out.Reply.Status, "%s", out.Reply.Body)
	return a.ID
}

func (fp *fuzzPay) create(tb testing.TB, req TransferRequest) string {
	tb.Helper()
	out, err := fp.desk.CreateTransfer(context.Background(), fp.acct, req, nil)
	require.NoError(tb, err)
	require.Equal(tb, 201, out.Reply.Status, "%s", out.Reply.Body)
	var v struct{ ID string }
	require.NoError(tb, json.Unmarshal(out.Reply.Body, &v))
	return v.ID
}

func (fp *fuzzPay) createLink(tb testing.TB) string {
	tb.Helper()
	out, err := fp.desk.CreateLink(context.Background(), fp.acct, LinkRequest{Currency: "USDC", Amount: "10"}, nil)
	require.NoError(tb, err)
	require.Equal(tb, 201, out.Reply.Status, "%s", out.Reply.Body)
	var v struct{ ID string }
	require.NoError(tb, json.Unmarshal(out.Reply.Body, &v))
	return v.ID
}

// sign is the wallet's Permit2 signature of the cross transfer's leg.
func (fp *fuzzPay) sign(tb testing.TB, key *ecdsa.PrivateKey) string {
	tb.Helper()
	t, err := fp.desk.Transfer(context.Background(), fp.acct, fp.cross)
	require.NoError(tb, err)
	leg := fp.desk.cfg.Leg
	digest := eip712.GaslessDigest(leg.Domain, leg.Router, gasless.Order(t.Gasless))
	sig, err := crypto.Sign(digest[:], key)
	require.NoError(tb, err)
	return hexutil.Encode(sig)
}

// substitute replaces the seeds' placeholders in body.
func (fp *fuzzPay) substitute(body []byte) []byte {
	for k, v := range fp.subs {
		body = bytes.ReplaceAll(body, []byte(k), []byte(v))
	}
	return body
}

// Rows of FuzzTransferBody (sel % 3); seeds name them by number.
const (
	transferCreate = iota
	transferSubmitSame
	transferSubmitCross
	numTransferRows
)

// FuzzTransferBody feeds arbitrary bodies to POST /transfers (its checks
// and the new transfer's decision, not the write) and to submit on the
// same-currency and the cross-currency transfer: never a panic, every
// refusal a contract error that wrote nothing; a create decided is the
// request's transfer, a submit answered is the transfer it was for.
func FuzzTransferBody(f *testing.F) {
	fp := newFuzzPay(f)
	f.Add(uint8(transferCreate), []byte(`{"from_currency":"USDC","currency":"EURC","amount":"5","recipient":"0x00000000000000000000000000000000000000aa"}`))
	f.Fuzz(func(t *testing.T, sel uint8, body []byte) {
		body = fp.substitute(body)
		ctx := context.Background()
		index := fp.e.LastIndex()
		var reply domain.Reply
		want := ""
		switch row := int(sel) % numTransferRows; row {
		case transferCreate:
			var req TransferRequest
			if jsonbody.Decode(body, &req) != nil {
				return
			}
			cmd, err := fp.desk.createCommand(ctx, fp.acct, req)
			require.NoError(t, err)
			cmd.ID = fp.e.NewID(domain.KindTransfer.Prefix(), fp.acct)
			_, r, derr := domain.NewTransferState().Decide(cmd, domain.Env{Now: time.Now(), NewID: func(p string) string { return fp.e.NewID(p, fp.acct) }})
			if reply, want = r, cmd.ID; derr != nil {
				reply = derr.Reply()
			}
		default:
			var req SubmitRequest
			if jsonbody.Decode(body, &req) != nil {
				return
			}
			want = map[int]string{transferSubmitSame: fp.same, transferSubmitCross: fp.cross}[row]
			out, err := fp.desk.SubmitTransfer(ctx, fp.acct, want, req, nil)
			require.NoError(t, err)
			reply = out.Reply
		}
		t.Logf("sel %d: %d %.160s", sel, reply.Status, reply.Body)
		if reply.Status >= 400 {
			domaintest.RequireContractReply(t, reply)
			require.Equal(t, index, fp.e.LastIndex(), "a refusal wrote to the log: %s", reply.Body)
			return
		}
		var v domain.TransferView
		require.NoError(t, json.Unmarshal(reply.Body, &v))
		require.Equal(t, want, v.ID)
	})
}

// Rows of FuzzLinkBody (sel % 3); seeds name them by number.
const (
	linkCreate = iota
	linkPay
	linkCancel
	numLinkRows
)

// FuzzLinkBody feeds arbitrary bodies to POST /payment-links, to the
// public POST /pay/{id}/submit and to PATCH /payment-links/{id}: never a
// panic, every refusal a contract error that wrote nothing; an answer is
// a link, the one it was for.
func FuzzLinkBody(f *testing.F) {
	fp := newFuzzPay(f)
	f.Add(uint8(linkCreate), []byte(`{"currency":"USDC","amount":"10"}`))
	f.Fuzz(func(t *testing.T, sel uint8, body []byte) {
		body = fp.substitute(body)
		ctx := context.Background()
		index := fp.e.LastIndex()
		var out domain.Outcome
		var err error
		want := ""
		switch row := int(sel) % numLinkRows; row {
		case linkCreate:
			var req LinkRequest
			if jsonbody.Decode(body, &req) != nil {
				return
			}
			out, err = fp.desk.CreateLink(ctx, fp.acct, req, nil)
		case linkPay:
			var req PaySubmit
			if jsonbody.Decode(body, &req) != nil {
				return
			}
			want = fp.link
			out, err = fp.desk.SubmitPayment(ctx, want, req)
		default:
			var req LinkUpdate
			if jsonbody.Decode(body, &req) != nil {
				return
			}
			want = fp.cancel
			out, err = fp.desk.CancelLink(ctx, fp.acct, want, req, nil)
		}
		require.NoError(t, err)
		t.Logf("sel %d: %d %.160s", sel, out.Reply.Status, out.Reply.Body)
		if out.Reply.Status >= 400 {
			domaintest.RequireContractReply(t, out.Reply)
			require.Equal(t, index, fp.e.LastIndex(), "a refusal wrote to the log: %s", out.Reply.Body)
			return
		}
		var v struct{ ID string }
		require.NoError(t, json.Unmarshal(out.Reply.Body, &v))
		require.NotEmpty(t, v.ID, "%s", out.Reply.Body)
		if want != "" {
			require.Equal(t, want, v.ID)
		}
	})
}
