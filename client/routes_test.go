package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// TestRouteTableMatchesOpenAPI: the SDK's route table is the server's,
// route for route: same method and path, the method named after the
// operationId, public exactly where the document says so, and an
// Idempotency-Key exactly where the document takes one.
func TestRouteTableMatchesOpenAPI(t *testing.T) {
	ops := docOperations(t)
	mine := map[string]*route{}
	for _, rt := range routeTable {
		key := rt.method + " " + rt.path
		require.NotContains(t, mine, key, "route listed twice")
		mine[key] = rt
	}
	require.Equal(t, sortedKeys(ops), sortedKeys(mine), "the SDK's routes are the document's")
	clientType := reflect.TypeFor[*Client]()
	for key, op := range ops {
		rt := mine[key]
		require.Equal(t, upperFirst(op.id), rt.name, "%s: method named after operationId %s", key, op.id)
		_, ok := clientType.MethodByName(rt.name)
		require.True(t, ok, "%s: no method (*Client).%s", key, rt.name)
		require.Equal(t, op.public, rt.public, "%s: public", key)
		require.Equal(t, op.idem, rt.idem != idemNone, "%s: takes an Idempotency-Key", key)
		if rt.method == http.MethodGet {
			require.True(t, rt.repeatable, "%s: a read is repeatable", key)
		}
	}
}

func upperFirst(s string) string {
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// TestTypedMethodsMatchOpenAPIBodies: each method's request parameter
// and result are the Go types of the route's request and success body
// schemas (schemaTypes, which types_test.go holds field-equal to them).
func TestTypedMethodsMatchOpenAPIBodies(t *testing.T) {
	ops := docOperations(t)
	ctxType, optsType := reflect.TypeFor[context.Context](), reflect.TypeFor[[]CallOption]()
	for _, rt := range routeTable {
		op := ops[rt.method+" "+rt.path]
		m, _ := reflect.TypeFor[*Client]().MethodByName(rt.name)
		in := m.Type
		require.Equal(t, ctxType, in.In(1), "%s: first parameter", rt.name)
		require.True(t, in.IsVariadic() && in.In(in.NumIn()-1) == optsType, "%s: ends in ...CallOption", rt.name)
		params := strings.Count(rt.path, "{")
		for i := 0; i < params; i++ {
			require.Equal(t, reflect.String, in.In(2+i).Kind(), "%s: path parameter %d", rt.name, i)
		}
		rest := in.NumIn() - 3 - params // beyond receiver, ctx, path parameters and opts
		switch {
		case rt.name == "CancelPaymentLink": // its one body is fixed
			require.Equal(t, "PaymentLinkUpdate", op.body)
			require.Zero(t, rest)
		case op.body != "":
			require.Equal(t, 1, rest, "%s: one request parameter", rt.name)
			require.Equal(t, schemaTypes[op.body], deref(in.In(2+params)), "%s: request type", rt.name)
		case op.query:
			require.Equal(t, 1, rest, "%s: its query parameters", rt.name)
		default:
			require.Zero(t, rest, "%s: no request parameter", rt.name)
		}
		require.Equal(t, 2, in.NumOut(), rt.name)
		require.Equal(t, reflect.TypeFor[error](), in.Out(1), rt.name)
		switch {
		case op.resultType == "text/csv":
			require.Equal(t, reflect.TypeFor[io.ReadCloser](), in.Out(0), rt.name)
		case op.result == "":
			require.Equal(t, reflect.TypeFor[[]byte](), in.Out(0), rt.name)
		default:
			require.Contains(t, schemaTypes, op.result, rt.name)
			require.Equal(t, schemaTypes[op.result], deref(in.Out(0)), "%s: result type", rt.name)
		}
	}
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// seen is one request as an httptest server saw it.
type seen struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   string
}

// recorder answers every request with status and body and records it.
type recorder struct {
	mu     sync.Mutex
	reqs   []seen
	status int
	body   string
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.reqs = append(r.reqs, seen{req.Method, req.URL.EscapedPath(), req.URL.RawQuery, req.Header.Clone(), string(b)})
	status, body := r.status, r.body
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func (r *recorder) last() seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs[len(r.reqs)-1]
}

// routeCalls calls every typed method once, by "METHOD /path" (path
// parameters: id "x1", address "0xab").
var routeCalls = map[string]func(context.Context, *Client) error{
	"GET /health":                 func(ctx context.Context, c *Client) error { _, err := c.GetHealth(ctx); return err },
	"GET /time":                   func(ctx context.Context, c *Client) error { _, err := c.GetTime(ctx); return err },
	"GET /openapi.json":           func(ctx context.Context, c *Client) error { _, err := c.GetOpenAPI(ctx); return err },
	"POST /fx/quotes":             func(ctx context.Context, c *Client) error { _, err := c.CreateQuotes(ctx, QuoteRequest{}); return err },
	"POST /fx/quotes/{id}/accept": func(ctx context.Context, c *Client) error { _, err := c.AcceptQuote(ctx, "x1", nil); return err },
	"POST /fx/orders/{id}/submit": func(ctx context.Context, c *Client) error {
		_, err := c.SubmitOrder(ctx, "x1", SubmitRequest{})
		return err
	},
	"GET /fx/orders/{id}": func(ctx context.Context, c *Client) error { _, err := c.GetOrder(ctx, "x1"); return err },
	"GET /fx/orders":      func(ctx context.Context, c *Client) error { _, err := c.ListOrders(ctx, ListParams{}); return err },
	"GET /fx/rates":       func(ctx context.Context, c *Client) error { _, err := c.GetRates(ctx); return err },
	"GET /currencies":     func(ctx context.Context, c *Client) error { _, err := c.ListCurrencies(ctx); return err },
	"GET /account":        func(ctx context.Context, c *Client) error { _, err := c.GetAccount(ctx); return err },
	"GET /balances":       func(ctx context.Context, c *Client) error { _, err := c.GetBalances(ctx); return err },
	"GET /wallets":        func(ctx context.Context, c *Client) error { _, err := c.ListWallets(ctx, ListParams{}); return err },
	"POST /wallets/challenge": func(ctx context.Context, c *Client) error {
		_, err := c.CreateWalletChallenge(ctx, WalletChallengeRequest{})
		return err
	},
	"POST /wallets": func(ctx context.Context, c *Client) error {
		_, err := c.RegisterWallet(ctx, WalletRegisterRequest{})
		return err
	},
	"PATCH /wallets/{address}": func(ctx context.Context, c *Client) error {
		_, err := c.UpdateWallet(ctx, "0xab", WalletUpdateRequest{})
		return err
	},
	"DELETE /wallets/{address}": func(ctx context.Context, c *Client) error { _, err := c.DeleteWallet(ctx, "0xab"); return err },
	"GET /transactions": func(ctx context.Context, c *Client) error {
		_, err := c.ListTransactions(ctx, TransactionListParams{})
		return err
	},
	"GET /transactions/export": exportCall,
	"POST /transfers": func(ctx context.Context, c *Client) error {
		_, err := c.CreateTransfer(ctx, TransferRequest{})
		return err
	},
	"GET /transfers":              func(ctx context.Context, c *Client) error { _, err := c.ListTransfers(ctx, ListParams{}); return err },
	"GET /transfers/{id}":         func(ctx context.Context, c *Client) error { _, err := c.GetTransfer(ctx, "x1"); return err },
	"POST /transfers/{id}/accept": func(ctx context.Context, c *Client) error { _, err := c.AcceptTransfer(ctx, "x1"); return err },
	"POST /transfers/{id}/submit": func(ctx context.Context, c *Client) error {
		_, err := c.SubmitTransfer(ctx, "x1", SubmitRequest{})
		return err
	},
	"POST /payment-links": func(ctx context.Context, c *Client) error {
		_, err := c.CreatePaymentLink(ctx, PaymentLinkRequest{})
		return err
	},
	"GET /payment-links": func(ctx context.Context, c *Client) error {
		_, err := c.ListPaymentLinks(ctx, ListParams{})
		return err
	},
	"GET /payment-links/{id}":   func(ctx context.Context, c *Client) error { _, err := c.GetPaymentLink(ctx, "x1"); return err },
	"PATCH /payment-links/{id}": func(ctx context.Context, c *Client) error { _, err := c.CancelPaymentLink(ctx, "x1"); return err },
	"GET /pay/{id}":             func(ctx context.Context, c *Client) error { _, err := c.GetPublicPaymentLink(ctx, "x1"); return err },
	"POST /pay/{id}/submit": func(ctx context.Context, c *Client) error {
		_, err := c.PayPaymentLink(ctx, "x1", TxHashRequest{})
		return err
	},
	"POST /contacts": func(ctx context.Context, c *Client) error {
		_, err := c.CreateContact(ctx, ContactCreate{})
		return err
	},
	"GET /contacts":      func(ctx context.Context, c *Client) error { _, err := c.ListContacts(ctx, ListParams{}); return err },
	"GET /contacts/{id}": func(ctx context.Context, c *Client) error { _, err := c.GetContact(ctx, "x1"); return err },
	"PATCH /contacts/{id}": func(ctx context.Context, c *Client) error {
		_, err := c.UpdateContact(ctx, "x1", ContactUpdate{})
		return err
	},
	"DELETE /contacts/{id}": func(ctx context.Context, c *Client) error { _, err := c.DeleteContact(ctx, "x1"); return err },
	"POST /webhooks": func(ctx context.Context, c *Client) error {
		_, err := c.CreateWebhook(ctx, WebhookCreate{})
		return err
	},
	"GET /webhooks":      func(ctx context.Context, c *Client) error { _, err := c.ListWebhooks(ctx, ListParams{}); return err },
	"GET /webhooks/{id}": func(ctx context.Context, c *Client) error { _, err := c.GetWebhook(ctx, "x1"); return err },
	"PATCH /webhooks/{id}": func(ctx context.Context, c *Client) error {
		_, err := c.UpdateWebhook(ctx, "x1", WebhookUpdate{})
		return err
	},
	"DELETE /webhooks/{id}":             func(ctx context.Context, c *Client) error { _, err := c.DeleteWebhook(ctx, "x1"); return err },
	"POST /webhooks/{id}/test":          func(ctx context.Context, c *Client) error { _, err := c.TestWebhook(ctx, "x1"); return err },
	"POST /webhooks/{id}/rotate-secret": func(ctx context.Context, c *Client) error { _, err := c.RotateWebhookSecret(ctx, "x1"); return err },
	"POST /webhooks/{id}/resend": func(ctx context.Context, c *Client) error {
		_, err := c.ResendWebhook(ctx, "x1", WebhookResend{EventID: "evt_x"})
		return err
	},
	"GET /webhooks/{id}/deliveries": func(ctx context.Context, c *Client) error {
		_, err := c.ListWebhookDeliveries(ctx, "x1", ListParams{})
		return err
	},
	"GET /events":      func(ctx context.Context, c *Client) error { _, err := c.ListEvents(ctx, EventListParams{}); return err },
	"GET /events/{id}": func(ctx context.Context, c *Client) error { _, err := c.GetEvent(ctx, "x1"); return err },
}

func exportCall(ctx context.Context, c *Client) error {
	body, err := c.ExportTransactions(ctx, TransactionFilter{})
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, body)
	return errors.Join(err, body.Close())
}

// TestEveryRouteHasACallingMethod: routeCalls covers the route table
// exactly, and each call reaches its route: method, path (parameters
// path-escaped in place), auth headers where the route is authenticated,
// an Idempotency-Key where it takes one (none made for POST /fx/quotes),
// and a JSON body where the route has one.
func TestEveryRouteHasACallingMethod(t *testing.T) {
	ops := docOperations(t)
	require.Equal(t, sortedKeys(ops), sortedKeys(routeCalls), "routeCalls covers every route")
	rec := &recorder{status: 200, body: `{}`}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, newClock(1_795_000_000))
	for key, call := range routeCalls {
		t.Run(key, func(t *testing.T) {
			require.NoError(t, call(context.Background(), c))
			got, op := rec.last(), ops[key]
			want := strings.NewReplacer("{id}", "x1", "{address}", "0xab").Replace(op.path)
			require.Equal(t, op.method, got.Method)
			require.Equal(t, DefaultBasePath+want, got.Path)
			require.Equal(t, !op.public, got.Header.Get("SVC-SIGNATURE") != "", "signed iff authenticated")
			wantKey := op.idem && key != "POST /fx/quotes"
			require.Equal(t, wantKey, got.Header.Get("Idempotency-Key") != "", "Idempotency-Key")
			if op.body != "" {
				require.True(t, strings.HasPrefix(got.Body, "{"), "a JSON body: %q", got.Body)
				require.Equal(t, "application/json", got.Header.Get("Content-Type"))
			}
		})
	}
}
