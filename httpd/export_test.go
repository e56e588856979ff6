package httpd

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/csv"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/domain"
)

// TestExportStreamsEveryPage: over real HTTP on loopback, the export of
// an account with more entries than pages hold (2,500; pages of 1,000)
// has the header and every selected entry exactly once, newest first, the
// same rows as the list, and the filter applies across pages.
func TestExportStreamsEveryPage(t *testing.T) {
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := actors.Open(actors.Config{DataDir: t.TempDir(), Logger: quiet})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	defer e.Close()
	ctx := context.Background()
	out, err := e.CreateAccount(ctx, domain.CreateAccount{Name: "export", KYC: domain.KYCApproved, Pay: true})
	require.NoError(t, err)
	var acct struct{ ID string }
	require.NoError(t, json.Unmarshal(out.Reply.Body, &acct))
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	keyID := e.NewID("svc_test_", acct.ID)
	_, err = e.Exec(ctx, acct.ID, domain.Request{Cmd: domain.CreateKey{KeyID: keyID, PublicKey: pub, Scopes: domain.ScopeByName("read")}})
	require.NoError(t, err)

	const rows = 2500
	var made []string
	for i := range rows {
		id := e.NewID("tr_", acct.ID)
		cur := "USDC"
		if i%5 == 0 {
			cur = "EURC"
		}
		out, err := e.Create(ctx, id, domain.Request{Cmd: domain.CreateTransfer{ID: id, Account: acct.ID, FromCurrency: cur, Currency: cur,
			Amount: big.NewInt(int64(i + 1)), Recipient: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
			SourceWallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", Memo: "=cmd", Signing: []byte(`{}`)}})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status)
		made = append(made, id)
	}

	s, err := New(Config{BasePath: "/public/v1", Logger: quiet, Started: time.Now().Add(-time.Second)}, e)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = s.Serve(ln) }()
	defer s.Shutdown(context.Background())
	c, err := client.New("http://"+ln.Addr().String(), keyID, priv)
	require.NoError(t, err)

	resp, err := c.Do(ctx, "GET", "/public/v1/transactions/export", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	require.Equal(t, "text/csv", resp.Header.Get("Content-Type"))
	require.Equal(t, rows+1, strings.Count(string(resp.Body), "\r\n"), "RFC 4180: every record ends in CRLF")
	require.Equal(t, rows+1, strings.Count(string(resp.Body), "\n"), "and no bare LF")
	got, err := csv.NewReader(strings.NewReader(string(resp.Body))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, domain.LedgerCSVHeader[:], got[0])
	require.Len(t, got, rows+1)
	for i, r := range got[1:] {
		require.Equal(t, made[rows-1-i], r[0], "row %d: newest first, each once", i)
		require.Equal(t, "'=cmd", r[9])
	}

	resp, err = c.Do(ctx, "GET", "/public/v1/transactions/export?currency=EURC", nil, nil)
	require.NoError(t, err)
	got, err = csv.NewReader(strings.NewReader(string(resp.Body))).ReadAll()
	require.NoError(t, err)
	require.Len(t, got, rows/5+1, "the filter holds across pages")

	resp, err = c.Do(ctx, "GET", "/public/v1/transactions?limit=3&currency=EURC", nil, nil)
	require.NoError(t, err)
	var page struct {
		Data []struct{ ID string } `json:"data"`
	}
	require.NoError(t, json.Unmarshal(resp.Body, &page))
	require.Equal(t, []string{got[1][0], got[2][0], got[3][0]}, []string{page.Data[0].ID, page.Data[1].ID, page.Data[2].ID})

	// An offset's "+" sent unencoded arrives as a space; it is read as "+".
	// The whole ledger was made at the fake clock's instants, before now.
	for _, q := range []string{"to=2999-01-01T01:00:00%2B01:00", "to=2999-01-01T01:00:00+01:00"} {
		resp, err = c.Do(ctx, "GET", "/public/v1/transactions?limit=3&currency=EURC&"+q, nil, nil)
		require.NoError(t, err)
		require.Equal(t, 200, resp.Status, "%s: %s", q, resp.Body)
		require.NoError(t, json.Unmarshal(resp.Body, &page))
		require.Len(t, page.Data, 3, q)
	}

	// A filter given with no value is a bad value (as an empty limit is),
	// not the whole unfiltered ledger.
	for _, route := range []string{"/public/v1/transactions", "/public/v1/transactions/export"} {
		for _, q := range []string{"type=", "currency=", "from=", "to=", "type=transfer&currency="} {
			resp, err = c.Do(ctx, "GET", route+"?"+q, nil, nil)
			require.NoError(t, err)
			require.Equal(t, 400, resp.Status, "%s?%s: %s", route, q, resp.Body)
			require.Contains(t, string(resp.Body), `"code":"invalid_request"`)
			require.Contains(t, string(resp.Body), "must not be empty")
		}
	}
}
