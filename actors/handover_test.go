package actors

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/partlog"
)

// handoverConfig opens an engine in its own dir on the two streams named
// after stream, owning nothing until Own.
func handoverConfig(t *testing.T, stream string) Config {
	cfg := streamConfig(t, t.TempDir(), stream)
	cfg.Partitions, cfg.Handover = 2, true
	return cfg
}

// TestHandoverBetweenEngines moves a partition between two engines on the
// same streams, as leadership moves between cluster nodes: the new owner
// catches up from the stream and writes; the old one is fenced, gives the
// part up (not the process) and refuses; taking the part back catches up
// with what the other wrote. Every acknowledged write is in the end state.
func TestHandoverBetweenEngines(t *testing.T) {
	ctx := context.Background()
	// givenUp[0] and [1]: the parts A and B gave up on their own (GivenUp);
	// told[0] and [1]: what their ownership hooks heard.
	var givenUp [2]chan int
	var told [2]chan ownershipCall
	open := func(i int) *Engine {
		givenUp[i], told[i] = make(chan int, 4), make(chan ownershipCall, 16)
		c := handoverConfig(t, "engine_handover")
		c.GivenUp = func(part int) { givenUp[i] <- part }
		c.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
		c.SyncEvery = 50 * time.Millisecond
		e, err := Open(c)
		require.NoError(t, err)
		e.AddOwnership(func(part int, owned bool) { told[i] <- ownershipCall{part, owned} })
		require.NoError(t, e.Recover())
		return e
	}
	a := open(0)
	defer a.Close()
	_, err := a.CreateAccount(ctx, domain.CreateAccount{Name: "Ada"})
	require.ErrorIs(t, err, ErrNotOwner, "nothing is owned before Own")
	require.NoError(t, a.Own(1))
	for range 20 {
		placed := createAccount(t, a)
		require.Equal(t, 1, a.partOf(placed).n, "an account is created in a partition its node owns")
	}
	require.NoError(t, a.Own(0))
	require.NoError(t, a.Own(1), "owning an owned part does nothing")
	acct := createAccount(t, a)
	n := a.partOf(acct).n
	other := 1 - n
	write := func(e *Engine, i int) {
		t.Helper()
		out, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(i)})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status)
	}
	for i := range 10 {
		write(a, i)
	}

	require.True(t, a.Owns(acct))
	aWrote := a.LogBatchSizes().Sum
	require.GreaterOrEqual(t, aWrote, uint64(10), "A's writes are in its counted batches")
	b := open(1)
	defer b.Close()
	// B follows what A writes, so its store is warm before it owns.
	write(a, 20)
	storedContacts := func(e *Engine) int { return storedContacts(t, e, acct) }
	require.Eventually(t, func() bool { return storedContacts(b) == 11 }, 10*time.Second, 10*time.Millisecond)
	_, err = b.Exec(ctx, acct, domain.Request{Cmd: contactCmd(99)})
	require.ErrorIs(t, err, ErrNotOwner)
	require.False(t, b.Owns(acct))
	require.NoError(t, b.Own(n))
	require.True(t, b.Owns(acct))
	write(b, 10)

	// A's next append is fenced: it gives the part up, and only that part.
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	_, err = a.Exec(wctx, acct, domain.Request{Cmd: contactCmd(11)})
	cancel()
	require.Error(t, err, "a deposed owner never appends")
	require.Eventually(t, func() bool { return !a.Parts()[n].Owned }, 5*time.Second, 10*time.Millisecond)
	select {
	case p := <-givenUp[0]:
		require.Equal(t, n, p, "A tells its owner which part it gave up")
	case <-time.After(5 * time.Second):
		t.Fatal("A gave the part up without telling GivenUp")
	}
	require.True(t, a.Parts()[other].Owned)
	_, err = a.Exec(ctx, acct, domain.Request{Cmd: contactCmd(12)})
	require.ErrorIs(t, err, ErrNotOwner)

	// A follows B now.
	require.Eventually(t, func() bool { return storedContacts(a) == 12 }, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, aWrote+1, a.LogBatchSizes().Sum, "the part's log was reopened; what it counted before stays (write 20)")

	// Leadership comes back to A: B lets go, A catches up with B's write.
	b.Disown(n)
	_, err = b.Exec(ctx, acct, domain.Request{Cmd: contactCmd(98)})
	require.ErrorIs(t, err, ErrNotOwner)
	require.NoError(t, a.Own(n))
	write(a, 13)
	require.Equal(t, aWrote+2, a.LogBatchSizes().Sum)
	st := liveState(t, a, acct)
	require.Len(t, st.Contacts, 13, "eleven from A, one from B, one from A again; the fenced write is not there")
	names := map[string]bool{}
	for _, c := range st.Contacts {
		names[c.Name] = true
	}
	require.True(t, names["c10"], "B's write")
	require.False(t, names["c11"], "the fenced write")

	taken, given := a.Handovers()
	require.Equal(t, [2]uint64{3, 1}, [2]uint64{taken, given}, "A took parts 1, 0 and n again, and gave n up once")
	taken, given = b.Handovers()
	require.Equal(t, [2]uint64{1, 1}, [2]uint64{taken, given})
	require.Eventually(t, func() bool {
		ps := a.Parts()
		return len(ps) == 2 && ps[n].Owned && ps[other].Owned && ps[n].Applied == ps[n].Last && ps[n].Last > 0
	}, 5*time.Second, 10*time.Millisecond, "%+v", a.Parts())
	require.False(t, b.Parts()[n].Owned)
	require.Empty(t, givenUp[0], "A gave up once")
	require.Empty(t, givenUp[1], "Disown is the owner's own call: not reported back")
	require.Equal(t, []ownershipCall{{1, true}, {0, true}, {n, false}, {n, true}}, drain(told[0]),
		"A's hooks hear every take-up and give-up, the fenced one included, in order")
	require.Equal(t, []ownershipCall{{n, true}, {n, false}}, drain(told[1]))
}

// ownershipCall is one call of an AddOwnership function.
type ownershipCall struct {
	part  int
	owned bool
}

// drain takes what c holds now.
func drain[T any](c chan T) []T {
	var out []T
	for {
		select {
		case v := <-c:
			out = append(out, v)
		default:
			return out
		}
	}
}

// TestFollowsAgainAfterAFailedOpen: a handover opens a part's log once
// (the cluster gives up fast so that one unreadable stream does not hold
// up the others). When that open fails, the part's log is closed; the
// engine keeps opening it to follow the stream, so its store catches up
// with what the owner writes, and a later Own works.
func TestFollowsAgainAfterAFailedOpen(t *testing.T) {
	ctx := context.Background()
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	a, err := Open(func() Config { c := handoverConfig(t, "engine_refollow"); c.Logger = quiet; return c }())
	require.NoError(t, err)
	defer a.Close()
	require.NoError(t, a.Recover())
	require.NoError(t, a.Own(0))
	require.NoError(t, a.Own(1))
	acct := createAccount(t, a)
	n := a.partOf(acct).n
	write := func(e *Engine, i int) {
		t.Helper()
		out, err := e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(i)})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status)
	}
	write(a, 0)

	var refuse atomic.Bool
	c := handoverConfig(t, "engine_refollow")
	c.Logger = quiet
	open := c.OpenLog
	c.OpenLog = func(part int, opts partlog.Options) (partlog.PartitionLog, error) {
		if refuse.Load() {
			return nil, errors.New("stream not readable yet")
		}
		return open(part, opts)
	}
	b, err := Open(c)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, b.Recover())
	stored := func(e *Engine) int { return storedContacts(t, e, acct) }
	require.Eventually(t, func() bool { return stored(b) == 1 }, 10*time.Second, 10*time.Millisecond)

	refuse.Store(true)
	require.Error(t, b.Own(n), "the stream cannot be opened")
	require.False(t, b.Owns(acct))
	write(a, 1)
	write(a, 2)
	time.Sleep(refollowEvery + time.Second) // one attempt failed meanwhile
	require.Equal(t, 1, stored(b), "the log is closed while it cannot be opened")
	refuse.Store(false)
	require.Eventually(t, func() bool { return stored(b) == 3 }, 3*refollowEvery, 10*time.Millisecond,
		"the part follows its stream again without a handover")

	a.Disown(n)
	require.NoError(t, b.Own(n))
	write(b, 3)
	require.Len(t, liveState(t, b, acct).Contacts, 4)
}

// storedContacts is how many contacts e's store holds for acct (what its
// applier has applied, whether or not e owns the account).
func storedContacts(t *testing.T, e *Engine, acct string) int {
	t.Helper()
	st, ok, err := e.store.LoadAccount(acct, time.Now())
	require.NoError(t, err)
	if !ok {
		return 0
	}
	return len(st.Contacts)
}

// TestSlowHandoverSaysWhichStep: the handovers of all partitions run one
// after another, so a slow one holds up the rest; its log line names the
// step that took the time (here the stream's open).
func TestSlowHandoverSaysWhichStep(t *testing.T) {
	var buf bytes.Buffer
	c := handoverConfig(t, "engine_slow_handover")
	c.Logger = slog.New(slog.NewJSONHandler(&buf, nil))
	open := c.OpenLog
	var slow atomic.Bool
	c.OpenLog = func(part int, opts partlog.Options) (partlog.PartitionLog, error) {
		if slow.Load() {
			time.Sleep(slowHandover)
		}
		return open(part, opts)
	}
	e, err := Open(c)
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	require.NoError(t, e.Own(0))
	slow.Store(true)
	require.NoError(t, e.Own(1))
	require.NoError(t, e.Close()) // no more log lines after this

	var lines []map[string]any
	for _, l := range jsonLines(t, &buf) {
		if l["msg"] == "partition handover slow" {
			lines = append(lines, l)
		}
	}
	require.Len(t, lines, 1, "only part 1's handover was slow")
	require.EqualValues(t, 1, lines[0]["part"])
	require.Equal(t, true, lines[0]["owner"])
	require.GreaterOrEqual(t, lines[0]["open_ms"], float64(slowHandover.Milliseconds()))
	require.GreaterOrEqual(t, lines[0]["took_ms"], lines[0]["open_ms"])
}

// TestFollowerDirectoryHasTheOwnersKeys: a node that does not own a part
// learns its keys (made, revoked) from the records it applies, so the new
// owner authenticates them the moment it takes the part up; Own reads no
// key rows from the store.
func TestFollowerDirectoryHasTheOwnersKeys(t *testing.T) {
	ctx := context.Background()
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	open := func() *Engine {
		c := handoverConfig(t, "engine_follow_keys")
		c.Logger = quiet
		e, err := Open(c)
		require.NoError(t, err)
		t.Cleanup(func() { _ = e.Close() })
		require.NoError(t, e.Recover())
		return e
	}
	a := open()
	require.NoError(t, a.Own(0))
	require.NoError(t, a.Own(1))
	b := open()
	acct := createAccount(t, a)
	n := a.partOf(acct).n
	keyID := a.NewID("svc_test_", acct)
	pub, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	out, err := a.Exec(ctx, acct, domain.Request{Cmd: domain.CreateKey{KeyID: keyID, PublicKey: pub, Scopes: domain.ScopeByName("read")}})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))

	require.Eventually(t, func() bool { _, ok := b.Directory().Get(keyID); return ok }, 10*time.Second, 10*time.Millisecond,
		"the follower applies the key's record and learns the key")
	k, _ := b.Directory().Get(keyID)
	require.Equal(t, acct, k.Account)
	require.False(t, k.Revoked)

	out, err = a.Exec(ctx, acct, domain.Request{Cmd: domain.RevokeKey{KeyID: keyID}})
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status, string(out.Reply.Body))
	require.Eventually(t, func() bool { k, _ := b.Directory().Get(keyID); return k.Revoked }, 10*time.Second, 10*time.Millisecond,
		"the follower learns the revocation")

	a.Disown(n)
	require.NoError(t, b.Own(n))
	k, ok := b.Directory().Get(keyID)
	require.True(t, ok)
	require.True(t, k.Revoked, "the new owner refuses the revoked key at once")
}
