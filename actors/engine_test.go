package actors

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/stretchr/testify/require"
)

func openEngine(t *testing.T, dir string) *Engine {
	t.Helper()
	return openEngineWith(t, Config{DataDir: dir})
}

// openEngineWith opens and recovers an engine with cfg, quiet and with a
// short store sync period unless cfg says otherwise.
func openEngineWith(t *testing.T, cfg Config) *Engine {
	t.Helper()
	cfg.Logger = cmp.Or(cfg.Logger, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	cfg.SyncEvery = cmp.Or(cfg.SyncEvery, 50*time.Millisecond)
	e, err := Open(cfg)
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	return e
}

func createAccount(t *testing.T, e *Engine) string {
	t.Helper()
	out, err := e.CreateAccount(context.Background(), domain.CreateAccount{Name: "Ada", KYC: domain.KYCApproved, Swap: true, Pay: true})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))
	var v struct{ ID string }
	require.NoError(t, json.Unmarshal(out.Reply.Body, &v))
	return v.ID
}

func contactCmd(i int) domain.CreateContact {
	return domain.CreateContact{Name: fmt.Sprintf("c%d", i), Address: fmt.Sprintf("0x%040x", i+1)}
}

func idem(key string, body string) *domain.IdemRequest {
	return &domain.IdemRequest{Scope: domain.IdemScope("svc_test_k", "POST", "/public/v1/contacts", key), BodyHash: sha256.Sum256([]byte(body))}
}

// liveState reads an account's committed state out of its actor.
func liveState(t *testing.T, e *Engine, acct string) *domain.AccountState {
	t.Helper()
	sh := e.reg.shard(acct)
	sh.mu.Lock()
	en := sh.m[acct]
	sh.mu.Unlock()
	require.NotNil(t, en, "account %s not active", acct)
	// Ask through the mailbox so we read between messages.
	done := make(chan *domain.AccountState, 1)
	e.system.Root.Send(en.pid, probeMsg{done: done})
	return <-done
}

func TestExecWritesAreDurableAndReplayable(t *testing.T) {
	forEachLog(t, testExecWritesAreDurableAndReplayable)
}

func testExecWritesAreDurableAndReplayable(t *testing.T, k logKind) {
	dir := t.TempDir()
	e := openEngineWith(t, k.config(t, dir))
	acct := createAccount(t, e)
	ctx := context.Background()

	out, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(1), Idem: idem("k1", "a")})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status)
	require.False(t, out.Replayed)
	require.GreaterOrEqual(t, e.LastIndex(), uint64(2), "account and contact records are in the log")

	again, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(1), Idem: idem("k1", "a")})
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, out.Reply.Body, again.Reply.Body)

	other, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(2), Idem: idem("k1", "b")})
	require.NoError(t, err)
	require.Equal(t, 422, other.Reply.Status)

	_, err = e.Exec(ctx, "acct_missing", domain.Request{Cmd: contactCmd(3)})
	require.ErrorIs(t, err, ErrNoAccount)
	require.NoError(t, e.Close())

	// After a restart the replay answer is the same bytes.
	e = openEngineWith(t, k.config(t, dir))
	defer e.Close()
	after, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(1), Idem: idem("k1", "a")})
	require.NoError(t, err)
	require.True(t, after.Replayed)
	require.Equal(t, out.Reply.Body, after.Reply.Body)
}

// TestRebuiltStateEqualsLive drives many concurrent commands, then proves
// that state rebuilt from the snapshot store plus the log tail equals the
// live committed state, both with the store caught up and with the store
// behind (recovery replays the tail). It runs with the applier fed by the
// log writer (the steady state) and with a feed so small that it drops
// batches all the time, so the applier mixes fed records and records read
// back from the log.
func TestRebuiltStateEqualsLive(t *testing.T) {
	for _, tc := range []struct {
		name     string
		feedSize int
		drops    bool
	}{
		{"fed", 0, false},
		{"feed overflowing", 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachLog(t, func(t *testing.T, k logKind) { testRebuiltStateEqualsLive(t, k, tc.feedSize, tc.drops) })
		})
	}
}

func testRebuiltStateEqualsLive(t *testing.T, k logKind, feedSize int, drops bool) {
	dir := t.TempDir()
	cfg := k.config(t, dir)
	cfg.feedSize = feedSize
	e := openEngineWith(t, cfg)
	ctx := context.Background()
	accts := []string{createAccount(t, e), createAccount(t, e), createAccount(t, e)}
	var wg sync.WaitGroup
	for w := 0; w < 12; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			acct := accts[w%len(accts)]
			var mine []string
			for i := 0; i < 40; i++ {
				n := w*1000 + i
				out, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(n), Idem: idem(fmt.Sprintf("w%d-%d", w, i), "x")})
				require.NoError(t, err)
				require.Equal(t, 201, out.Reply.Status)
				var v struct{ ID string }
				require.NoError(t, json.Unmarshal(out.Reply.Body, &v))
				mine = append(mine, v.ID)
				if i%5 == 4 { // delete one, rename another
					_, err := e.Exec(ctx, acct, domain.Request{Cmd: domain.DeleteContact{ID: mine[0]}})
					require.NoError(t, err)
					name := "renamed"
					_, err = e.Exec(ctx, acct, domain.Request{Cmd: domain.UpdateContact{ID: mine[1], Name: &name}})
					require.NoError(t, err)
					mine = mine[2:]
				}
			}
		}(w)
	}
	wg.Wait()
	live := map[string]*domain.AccountState{}
	for _, a := range accts {
		live[a] = liveState(t, e, a)
	}
	// Store caught up with the log: load straight from Pebble.
	require.Eventually(t, func() bool { return e.AppliedIndex() == e.LastIndex() }, 5*time.Second, 10*time.Millisecond)
	var dropped uint64
	for _, p := range e.parts {
		dropped += p.feed.dropped()
	}
	require.Equal(t, drops, dropped > 0, "feed drops: %d", dropped)
	for _, a := range accts {
		st, ok, err := e.store.LoadAccount(a, time.Now())
		require.NoError(t, err)
		require.True(t, ok)
		requireSameState(t, live[a], st)
	}
	require.NoError(t, e.Close())

	// Restart: recovery rebuilds from store + log and the actors load it.
	e = openEngineWith(t, k.config(t, dir))
	defer e.Close()
	for _, a := range accts {
		_, err := e.Ask(ctx, a, domain.GetAccount{})
		require.NoError(t, err)
		requireSameState(t, live[a], liveState(t, e, a))
	}
}

func requireSameState(t *testing.T, want, got *domain.AccountState) {
	t.Helper()
	require.Equal(t, want.Account, got.Account)
	require.Equal(t, want.Keys, got.Keys)
	require.Equal(t, want.Contacts, got.Contacts)
	require.Equal(t, want.Idem, got.Idem)
	require.Equal(t, want.Wallets, got.Wallets)
	require.Equal(t, want.Challenges, got.Challenges)
}

func TestRecoveryReplaysLogTailIntoStore(t *testing.T) {
	forEachLog(t, testRecoveryReplaysLogTailIntoStore)
}

func testRecoveryReplaysLogTailIntoStore(t *testing.T, k logKind) {
	dir := t.TempDir()
	e := openEngineWith(t, k.config(t, dir))
	acct := createAccount(t, e)
	for i := 0; i < 50; i++ {
		_, err := e.Exec(context.Background(), acct, domain.Request{Cmd: contactCmd(i)})
		require.NoError(t, err)
	}
	last := e.LastIndex()
	want := liveState(t, e, acct)
	// Simulate a crash in which the store lost its unsynced tail: stop the
	// applier's effect by closing without the final catch-up is not
	// possible from outside, so instead reopen only the store and check
	// that it never claims more than the log holds.
	require.NoError(t, e.Close())
	e = openEngineWith(t, k.config(t, dir))
	defer e.Close()
	require.Equal(t, last, e.LastIndex())
	require.Equal(t, last, e.AppliedIndex())
	_, err := e.Ask(context.Background(), acct, domain.GetAccount{})
	require.NoError(t, err)
	requireSameState(t, want, liveState(t, e, acct))
}

func TestPassivationKeepsState(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(Config{DataDir: dir, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		PassivateAfter: 30 * time.Millisecond, SyncEvery: 20 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	defer e.Close()
	acct := createAccount(t, e)
	out, err := e.Exec(context.Background(), acct, domain.Request{Cmd: contactCmd(7)})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status)
	require.Eventually(t, func() bool { return e.ActiveAccounts() == 0 }, 5*time.Second, 10*time.Millisecond, "idle account passivates")
	r, err := e.Ask(context.Background(), acct, domain.ListContacts{Page: domain.Page{Limit: 50}})
	require.NoError(t, err)
	require.Contains(t, string(r.Body), `"name":"c7"`)
	require.Equal(t, 1, e.ActiveAccounts())
}

// TestPassivationRetriesWhenBusy: an actor with a message on its way when
// the sweeper finds it idle stays, and passivates at a later sweep once it
// is idle (the sweeper asks again a period later).
func TestPassivationRetriesWhenBusy(t *testing.T) {
	e := openEngineWith(t, Config{DataDir: t.TempDir(), PassivateAfter: 30 * time.Millisecond, SyncEvery: 20 * time.Millisecond})
	defer e.Close()
	acct := createAccount(t, e)
	sh := e.reg.shard(acct)
	sh.mu.Lock()
	en := sh.m[acct]
	sh.mu.Unlock()
	require.NotNil(t, en)
	atomic.AddInt64(&en.inflight, 1)   // as if a message were on its way
	time.Sleep(150 * time.Millisecond) // several idle periods
	require.Equal(t, 1, e.ActiveAccounts(), "a busy actor stays")
	atomic.AddInt64(&en.inflight, -1)
	require.Eventually(t, func() bool { return e.ActiveAccounts() == 0 }, 5*time.Second, 10*time.Millisecond,
		"passivates at a later sweep")
}

func TestBindChainRefusesAnotherChain(t *testing.T) {
	dir := t.TempDir()
	e := openEngine(t, dir)
	require.NoError(t, e.BindChain("0xaaa"))
	require.NoError(t, e.BindChain("0xaaa"), "binding again to the same chain is fine")
	require.NoError(t, e.Close())
	e = openEngine(t, dir)
	defer e.Close()
	require.NoError(t, e.BindChain("0xaaa"))
	require.ErrorContains(t, e.BindChain("0xbbb"), "refusing to start")
}

// TestGetAccountFromPublishedView: once GET /account has been asked, it is
// answered from the view the actor publishes, and every acknowledged
// change to the account is in the view by the time its reply arrives.
func TestGetAccountFromPublishedView(t *testing.T) {
	e := openEngine(t, t.TempDir())
	defer e.Close()
	acct := createAccount(t, e)
	ctx := context.Background()
	require.Nil(t, e.published(acct), "nothing published before anyone asks")

	first, err := e.Ask(ctx, acct, domain.GetAccount{})
	require.NoError(t, err)
	require.Equal(t, 200, first.Status)
	require.NotNil(t, e.published(acct), "the first read publishes the view")
	require.Equal(t, liveState(t, e, acct).Ask(domain.GetAccount{}), first)

	for i, swap := range []bool{false, true, false} {
		out, err := e.Exec(ctx, acct, domain.Request{Cmd: domain.UpdateAccount{Swap: &swap}})
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
		got, err := e.Ask(ctx, acct, domain.GetAccount{})
		require.NoError(t, err)
		require.Contains(t, string(got.Body), fmt.Sprintf(`"swap":%t`, swap), "update %d is visible right after its reply", i)
		require.Equal(t, liveState(t, e, acct).Ask(domain.GetAccount{}), got, "the view is the actor's own answer")
	}
}
