package actors

import (
	"context"
	"crypto/sha256"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/stretchr/testify/require"
)

func acceptCmd(acct, orderID string, now time.Time) domain.AcceptQuote {
	return domain.AcceptQuote{Account: acct, Create: domain.CreateOrder{
		ID: orderID, Account: acct, QuoteID: "q_" + orderID[4:], Route: domain.RouteAMM,
		FromCurrency: "USDC", ToCurrency: "EURC",
		AmountIn: big.NewInt(1_000_000), AmountOut: big.NewInt(900_000), MinAmountOut: big.NewInt(890_000),
		Signer: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", Deadline: now.Add(2 * time.Minute), AcceptedAt: now,
		Signing: []byte(`{"type":"permit2_witness"}`),
		Gasless: &domain.GaslessTerms{Signer: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
			TokenIn: "0x00000000000000000000000000000000000000A1", TokenOut: "0x00000000000000000000000000000000000000A2",
			AmountIn: big.NewInt(1_000_000), MinAmountOut: big.NewInt(890_000), Recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
			Pool: "0x00000000000000000000000000000000000000A3", Deadline: big.NewInt(now.Add(2 * time.Minute).Unix()), Nonce: big.NewInt(1)},
	}}
}

// TestOrderActorsDurableAndRebuilt: orders are entities of their own; their
// rows and stored answers survive a restart exactly, the hook sees every
// committed row, lists are newest first, and terminal orders leave the
// live index.
func TestOrderActorsDurableAndRebuilt(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(Config{DataDir: dir, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), SyncEvery: 50 * time.Millisecond})
	require.NoError(t, err)
	var mu sync.Mutex
	var seen []string
	e.AddHook(domain.KindOrder, func(_ string, events []domain.Event) {
		mu.Lock()
		defer mu.Unlock()
		for _, ev := range events {
			if o := ev.Order; o != nil {
				seen = append(seen, o.ID+":"+o.State)
			}
		}
	})
	require.NoError(t, e.Recover())
	ctx := context.Background()
	now := time.Now()

	_, err = e.Order(ctx, "ord_missing")
	require.ErrorIs(t, err, ErrNoOrder)
	_, err = e.Exec(ctx, "ord_missing", domain.Request{Cmd: domain.ExpireOrder{}})
	require.ErrorIs(t, err, ErrNoOrder)

	key := &domain.IdemRequest{Scope: domain.IdemScope("svc_test_k", "POST", "/public/v1/fx/quotes/q_a1/accept", "k"), BodyHash: sha256.Sum256(nil)}
	out, err := e.Create(ctx, "ord_a1", domain.Request{Cmd: acceptCmd("acct_1", "ord_a1", now), Idem: key})
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status, string(out.Reply.Body))
	for _, id := range []string{"ord_a2", "ord_a3"} {
		out, err := e.Create(ctx, id, domain.Request{Cmd: acceptCmd("acct_1", id, now)})
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status)
	}
	// The same accept again is the same order, no new row; replayed with its key.
	again, err := e.Create(ctx, "ord_a1", domain.Request{Cmd: acceptCmd("acct_1", "ord_a1", now), Idem: key})
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, out.Reply.Body, again.Reply.Body)
	signature := "0x" + strings.Repeat("ab", 65)
	sig := domain.Request{Cmd: domain.SubmitAMMSignature{Signature: signature, Verified: true}}
	sub, err := e.Exec(ctx, "ord_a2", sig)
	require.NoError(t, err)
	require.Equal(t, 200, sub.Reply.Status, string(sub.Reply.Body))
	failed, err := e.Exec(ctx, "ord_a2", domain.Request{Cmd: domain.RelayMined{Reason: "reverted"}})
	require.NoError(t, err)
	require.Equal(t, 200, failed.Reply.Status, string(failed.Reply.Body))

	list, err := e.AccountRows(ctx, "acct_1", domain.KindOrder, "", 10)
	require.NoError(t, err)
	require.Equal(t, []string{"ord_a3", "ord_a2", "ord_a1"}, orderIDs(list))
	list, err = e.AccountRows(ctx, "acct_1", domain.KindOrder, "ord_a3", 1)
	require.NoError(t, err)
	require.Equal(t, []string{"ord_a2"}, orderIDs(list))
	mu.Lock()
	require.Equal(t, []string{"ord_a1:accepted", "ord_a2:accepted", "ord_a3:accepted", "ord_a2:awaiting_funding", "ord_a2:failed"}, seen)
	mu.Unlock()
	before, err := e.Order(ctx, "ord_a2")
	require.NoError(t, err)
	require.NoError(t, e.Close())

	e = openEngine(t, dir)
	defer e.Close()
	after, err := e.Order(ctx, "ord_a2")
	require.NoError(t, err)
	require.Equal(t, before, after)
	require.Equal(t, signature, after.Signature)
	require.NotEmpty(t, after.EventID)
	var live []string
	require.NoError(t, e.LiveRows(domain.KindOrder, nil, 100, func(r domain.Row) error { live = append(live, r.RowID()); return nil }))
	require.Equal(t, []string{"ord_a1", "ord_a3"}, live)
	replay, err := e.Create(ctx, "ord_a1", domain.Request{Cmd: acceptCmd("acct_1", "ord_a1", now), Idem: key})
	require.NoError(t, err)
	require.True(t, replay.Replayed, "stored answers come back from the store")
	require.Equal(t, out.Reply.Body, replay.Reply.Body)
	other, err := e.Create(ctx, "ord_a1", domain.Request{Cmd: acceptCmd("acct_2", "ord_a1", now)})
	require.NoError(t, err)
	require.Equal(t, 404, other.Reply.Status)
}

func orderIDs(rows []domain.Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.RowID()
	}
	return out
}

// TestAccountInfoFollowsCommits: the published view the quote path reads
// changes with the committed profile, at once after the write returns.
func TestAccountInfoFollowsCommits(t *testing.T) {
	e := openEngine(t, t.TempDir())
	defer e.Close()
	acct := createAccount(t, e)
	ctx := context.Background()
	info, err := e.AccountInfo(ctx, acct)
	require.NoError(t, err)
	require.True(t, info.SwapPermitted())
	no := false
	out, err := e.Exec(ctx, acct, domain.Request{Cmd: domain.UpdateAccount{Swap: &no}})
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status, string(out.Reply.Body))
	info, err = e.AccountInfo(ctx, acct)
	require.NoError(t, err)
	require.False(t, info.SwapPermitted())
	_, err = e.AccountInfo(ctx, "acct_missing")
	require.ErrorIs(t, err, ErrNoAccount)
}
