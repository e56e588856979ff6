package httpd

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/domain/domaintest"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
	"github.com/fxd-labs/fxd/internal/rfc3339"
	"github.com/fxd-labs/fxd/pay"
	"github.com/fxd-labs/fxd/webhook"
)

// The fixed world the body checks run against: no engine, no clock.
const (
	fuzzAccount = "acct_1"
	fuzzContact = "ct_1"
	fuzzHook    = "wh_1"
)

var fuzzNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// fuzzWallet is the account's one wallet, EIP-55 as the state keys it.
var fuzzWallet = common.HexToAddress("0x00000000000000000000000000000000000000aa").Hex()

// bodyCodes are the codes a body's decode and validation may answer
// with; their statuses are CONTRACT.md's (domain.ErrorTable).
var bodyCodes = []string{
	domain.CodeInvalidRequest, domain.CodeUnsupportedAsset, domain.CodeInvalidSignature,
	domain.CodeInvalidWebhookURL, domain.CodeNotPermitted, domain.CodeNotFound, domain.CodeInvalidState,
}

// requireContractCode: a refusal renders as the contract's error reply
// (its code in the table, with the table's status) and its code is one a
// body may be refused with.
func requireContractCode(t *testing.T, err *domain.Error) {
	t.Helper()
	domaintest.RequireContractReply(t, err.Reply())
	require.Contains(t, bodyCodes, err.Code, "%v", err)
}

// bodyCase is one route that reads a JSON body: check decodes it exactly
// as the handler does, then runs the validation that needs neither an
// engine nor the network.
type bodyCase struct {
	route string // "METHOD /path" of the route table
	check func(t *testing.T, body []byte) *domain.Error
}

// decodeThen is the handler's decode step for a body of type T (an empty
// body allowed when optional, as entityWrite does), then validate. A body
// that decodes re-encodes to JSON that decodes to the same value.
func decodeThen[T any](optional bool, validate func(*T) *domain.Error) func(*testing.T, []byte) *domain.Error {
	return func(t *testing.T, body []byte) *domain.Error {
		var v T
		if len(body) > 0 || !optional {
			if err := jsonbody.Decode(body, &v); err != nil {
				return err
			}
			again, jerr := json.Marshal(&v)
			require.NoError(t, jerr)
			var w T
			require.Nil(t, jsonbody.Decode(again, &w), "re-encoded %s", again)
			require.Equal(t, v, w, "re-encoded %s", again)
		}
		if validate == nil {
			return nil
		}
		return validate(&v)
	}
}

// emptyThen is emptyBody, for the deletes of the account's records.
func emptyThen(_ *testing.T, body []byte) *domain.Error { return emptyBody(body) }

// bodyCases lists every route that reads a body; the fuzz target's first
// argument indexes it, so rows are only ever appended (the seeds name
// their row by index).
var bodyCases = []bodyCase{
	{"POST /fx/quotes", decodeThen(false, checkQuote)},
	{"POST /fx/quotes/{id}/accept", decodeThen(true, func(r *fx.AcceptRequest) *domain.Error { return checkWallet("source_wallet", r.SourceWallet) })},
	{"POST /fx/orders/{id}/submit", decodeThen[fx.SubmitRequest](false, nil)},
	{"POST /wallets/challenge", decodeThen(false, checkChallenge)},
	{"POST /wallets", decodeThen(false, checkRegisterWallet)},
	{"PATCH /wallets/{address}", decodeThen(false, func(c *domain.UpdateWallet) *domain.Error {
		c.Address = fuzzWallet
		return decideAccount(*c)
	})},
	{"DELETE /wallets/{address}", emptyThen},
	{"POST /transfers", decodeThen(false, checkTransfer)},
	{"POST /transfers/{id}/accept", decodeThen[struct{}](true, nil)},
	{"POST /transfers/{id}/submit", decodeThen[pay.SubmitRequest](false, nil)},
	{"POST /payment-links", decodeThen(false, checkLink)},
	{"PATCH /payment-links/{id}", decodeThen(false, func(r *pay.LinkUpdate) *domain.Error {
		if r.State != domain.LinkCancelled { // pay.Desk.CancelLink's first check
			return domain.ErrInvalid(`state must be "cancelled"`)
		}
		return nil
	})},
	{"POST /pay/{id}/submit", decodeThen[pay.PaySubmit](false, nil)},
	{"POST /contacts", decodeThen(false, func(c *domain.CreateContact) *domain.Error { return decideAccount(*c) })},
	{"PATCH /contacts/{id}", decodeThen(false, func(c *domain.UpdateContact) *domain.Error {
		c.ID = fuzzContact
		return decideAccount(*c)
	})},
	{"DELETE /contacts/{id}", emptyThen},
	{"POST /webhooks", decodeThen(false, checkCreateEndpoint)},
	{"PATCH /webhooks/{id}", decodeThen(false, checkUpdateEndpoint)},
	{"DELETE /webhooks/{id}", decodeThen[struct{}](true, nil)},
	{"POST /webhooks/{id}/test", decodeThen[struct{}](true, nil)},
	{"POST /webhooks/{id}/rotate-secret", decodeThen[struct{}](true, nil)},
	{"POST /webhooks/{id}/resend", decodeThen(false, func(r *webhook.ResendRequest) *domain.Error {
		if r.EventID == "" { // webhook.Desk.Resend's first check
			return domain.ErrInvalid("event_id is required")
		}
		return nil
	})},
}

// TestBodyCasesCoverEveryWrite: every route that may read a body (every
// non-GET route but the unbuilt ones) has its row, and every row is a
// route, so a new write cannot skip the fuzzing.
func TestBodyCasesCoverEveryWrite(t *testing.T) {
	var want, got []string
	for _, r := range (&Server{}).routes() {
		if r.Method != "GET" && r.Handler != nil {
			want = append(want, r.Method+" "+r.Path)
		}
	}
	for _, c := range bodyCases {
		got = append(got, c.route)
	}
	slices.Sort(want)
	slices.Sort(got)
	require.Equal(t, want, got)
}

// FuzzRequestBody feeds arbitrary bodies to the decode and validation of
// the route bodyCases[route % len]: never a panic, and every refusal is a
// contract error. Running it twice gives the same answer.
func FuzzRequestBody(f *testing.F) {
	f.Add(uint8(0), []byte(`{"from_currency":"USDC","to_currency":"EURC","amount":"100"}`))
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		c := bodyCases[int(route)%len(bodyCases)]
		err := c.check(t, body)
		if err != nil {
			requireContractCode(t, err)
		}
		require.Equal(t, err, c.check(t, body), "%s: a second run answers differently", c.route)
	})
}

// checkQuote is fx.Desk.parseQuote's checks of the body (the token
// addresses are the chain's), and the source wallet's syntax (pickTaker).
func checkQuote(r *fx.QuoteRequest) *domain.Error {
	from, err := domain.CurrencyBySymbol(r.FromCurrency)
	if err != nil {
		return err
	}
	to, err := domain.CurrencyBySymbol(r.ToCurrency)
	if err != nil {
		return err
	}
	if from.Symbol == to.Symbol {
		return domain.ErrInvalid("from_currency and to_currency must differ")
	}
	amount, err := domain.ParseAmount("amount", r.Amount, from.Decimals)
	if err != nil {
		return err
	}
	if amount.Sign() <= 0 {
		return domain.ErrInvalid("amount must be more than 0")
	}
	return checkWallet("source_wallet", r.SourceWallet)
}

func checkWallet(field string, addr *string) *domain.Error {
	if addr == nil {
		return nil
	}
	_, err := domain.NormalizeAddress(field, *addr)
	return err
}

// checkChallenge fills what the handler takes from the request and the
// chain, then decides on a fixed account.
func checkChallenge(c *domain.CreateChallenge) *domain.Error {
	c.Domain, c.URI, c.ChainID = "api.example.com", "https://api.example.com/v1", 31337
	return decideAccount(*c)
}

// checkRegisterWallet is registerWallet's parsing and recovery, then the
// account's decision (no challenge was issued: a refusal).
func checkRegisterWallet(c *domain.RegisterWallet) *domain.Error {
	if err := recoverWalletSigner(c); err != nil {
		return err
	}
	return decideAccount(*c)
}

// checkTransfer is pay.Desk.createCommand's checks of the body alone.
func checkTransfer(r *pay.TransferRequest) *domain.Error {
	from, err := domain.CurrencyBySymbol(r.FromCurrency)
	if err != nil {
		return err
	}
	if _, err := domain.CurrencyBySymbol(r.Currency); err != nil {
		return err
	}
	if _, err := domain.ParseAmount("amount", r.Amount, from.Decimals); err != nil {
		return err
	}
	if (r.Recipient == nil) == (r.ContactID == nil) {
		return domain.ErrInvalid("send exactly one of recipient or contact_id")
	}
	if err := checkWallet("recipient", r.Recipient); err != nil {
		return err
	}
	return checkWallet("source_wallet", r.SourceWallet)
}

// checkLink is pay.Desk.CreateLink's checks of the body alone.
func checkLink(r *pay.LinkRequest) *domain.Error {
	cur, err := domain.CurrencyBySymbol(r.Currency)
	if err != nil {
		return err
	}
	if _, err := domain.ParseAmount("amount", r.Amount, cur.Decimals); err != nil {
		return err
	}
	if r.ExpiresAt != nil {
		if _, perr := rfc3339.Parse(*r.ExpiresAt); perr != nil {
			return domain.ErrInvalid("expires_at must be an RFC 3339 time")
		}
	}
	return checkWallet("payout_wallet", r.PayoutWallet)
}

// checkCreateEndpoint builds webhook.Desk.CreateEndpoint's command (the
// URL's SSRF screening resolves names, so it is left to package screen's
// own fuzzing) and lets a new endpoint entity decide.
func checkCreateEndpoint(r *webhook.EndpointRequest) *domain.Error {
	cmd := domain.CreateEndpoint{ID: fuzzHook, Account: fuzzAccount, URL: r.URL, Sealed: []byte{1}}
	if r.Events != nil {
		cmd.Events = *r.Events
		if cmd.Events == nil {
			cmd.Events = []string{}
		}
	}
	if r.Description != nil {
		cmd.Description = *r.Description
	}
	_, _, err := (&domain.EndpointState{}).Decide(cmd, fuzzEnv())
	return err
}

// checkUpdateEndpoint is webhook.Desk.UpdateEndpoint's command, decided by
// an existing endpoint of the account.
func checkUpdateEndpoint(r *webhook.EndpointUpdate) *domain.Error {
	cmd := domain.UpdateEndpoint{Account: fuzzAccount, URL: r.URL, Description: r.Description, State: r.State}
	if r.Events != nil {
		events := *r.Events
		if events == nil {
			events = []string{}
		}
		cmd.Events = &events
	}
	st := &domain.EndpointState{Endpoint: &domain.Endpoint{ID: fuzzHook, Account: fuzzAccount, URL: "https://hooks.example.com/x",
		Events: []string{"*"}, State: domain.EndpointEnabled, Secrets: []domain.SealedSecret{{Sealed: []byte{1}}}, CreatedAt: fuzzNow, UpdatedAt: fuzzNow}}
	_, _, err := st.Decide(cmd, fuzzEnv())
	return err
}

func fuzzEnv() domain.Env {
	return domain.Env{Now: fuzzNow, NewID: func(p string) string { return p + "1" }}
}

// decideAccount runs cmd on a fresh account that has one wallet and one
// contact, so updates reach their validation.
func decideAccount(cmd domain.Command) *domain.Error {
	st := domain.NewAccountState()
	st.Account = &domain.Account{ID: fuzzAccount}
	st.AddWallet(&domain.Wallet{Address: fuzzWallet, Account: fuzzAccount, Primary: true, CreatedAt: fuzzNow, UpdatedAt: fuzzNow})
	st.AddContact(&domain.Contact{ID: fuzzContact, Account: fuzzAccount, Name: "Bob", Address: fuzzWallet, CreatedAt: fuzzNow, UpdatedAt: fuzzNow})
	_, _, err := st.Decide(cmd, fuzzEnv())
	return err
}
