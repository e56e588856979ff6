package domain

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	scopeA = IdemScope(keyID, "POST", "/public/v1/contacts", "idem-a")
	scopeB = IdemScope(keyID, "POST", "/public/v1/contacts", "idem-b")
	hash1  = sha256.Sum256([]byte(`{"name":"Alice","address":"` + addrSum + `"}`))
	hash2  = sha256.Sum256([]byte(`{"name":"Bob","address":"` + addr2Sum + `"}`))
)

func idemReq(cmd Command, scope string, hash [32]byte) Request {
	return Request{Cmd: cmd, Idem: &IdemRequest{Scope: scope, BodyHash: hash}}
}

// handle runs Handle and checks it did not touch the state.
func handle(t *testing.T, s *AccountState, req Request, env Env) Outcome {
	t.Helper()
	before := cloneState(s)
	out := s.Handle(req, env)
	require.Equal(t, before, s, "Handle mutated the state")
	return out
}

func TestIdemScope(t *testing.T) {
	require.Equal(t, "svc_test_1\x00POST\x00/v1/contacts\x00k", IdemScope("svc_test_1", "POST", "/v1/contacts", "k"))
	require.NotEqual(t, IdemScope("a", "POST", "/p", "k"), IdemScope("a", "PATCH", "/p", "k"))
	require.NotEqual(t, IdemScope("a", "POST", "/p", "k"), IdemScope("b", "POST", "/p", "k"))
	require.NotEqual(t, IdemScope("a", "POST", "/p", "k"), IdemScope("a", "POST", "/q", "k"))
}

func TestHandleWithoutIdempotencyKey(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	out := handle(t, s, Request{Cmd: CreateContact{Name: "Alice", Address: addrSum}}, c.env())
	require.False(t, out.Replayed)
	require.Len(t, out.Events, 1)
	require.Equal(t, EvContactPut, out.Events[0].Kind)
	require.Equal(t, 201, out.Reply.Status)

	out = handle(t, s, Request{Cmd: CreateContact{Name: "Alice", Address: "0x1"}}, c.env())
	require.Equal(t, Reply{Status: 400, Body: []byte(errBody(CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"))}, out.Reply)
	require.Empty(t, out.Events)
	require.Equal(t, CodeInvalidRequest, out.Err.Code, "the refusal is a value, not only a status")
}

func TestHandleIdempotentCreateAndReplay(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	cmd := CreateContact{Name: "Alice", Address: addrSum}
	out := handle(t, s, idemReq(cmd, scopeA, hash1), c.env())
	require.False(t, out.Replayed)
	wantBody := `{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":null,"memo":null,"created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`
	require.Equal(t, Reply{Status: 201, Body: []byte(wantBody)}, out.Reply)
	require.Equal(t, []Event{
		{Kind: EvContactPut, Contact: &Contact{ID: "ct_000001", Account: acctID, Name: "Alice", Address: addrSum, CreatedAt: t0, UpdatedAt: t0}},
		{Kind: EvIdemPut, Idem: &IdemRecord{Scope: scopeA, BodyHash: hash1, Status: 201, Body: []byte(wantBody), CreatedAt: t0}},
	}, out.Events)
	applyAll(s, out.Events)
	require.Equal(t, out.Events[1].Idem, s.Idem.Live(scopeA, t0))

	// Replays, up to just before the retention ends: no events, no new id,
	// byte-identical status and body, even for a command that would now fail
	// or differ.
	for _, d := range []time.Duration{0, time.Second, time.Hour, IdemRetention - time.Nanosecond} {
		for _, cmd := range []Command{cmd, CreateContact{Name: "Alice", Address: "bad"}, DeleteContact{ID: "ct_000001"}} {
			out := handle(t, s, idemReq(cmd, scopeA, hash1), fixedEnv(t, t0.Add(d)))
			require.Equal(t, Outcome{Reply: Reply{Status: 201, Body: []byte(wantBody)}, Replayed: true}, out)
		}
	}
	require.Len(t, s.Contacts, 1)
}

func TestHandleKeyReusedWithDifferentBody(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	out := handle(t, s, idemReq(CreateContact{Name: "Alice", Address: addrSum}, scopeA, hash1), c.env())
	applyAll(s, out.Events)
	stored := out.Reply

	c.advance(time.Minute)
	out = handle(t, s, idemReq(CreateContact{Name: "Bob", Address: addr2Sum}, scopeA, hash2), c.env())
	require.Equal(t, Outcome{Reply: Reply{Status: 422, Body: []byte(errBody(CodeIdempotencyKeyReused, "this Idempotency-Key was used with a different request body"))}}, out)

	// Nothing was stored: the original answer still replays.
	out = handle(t, s, idemReq(CreateContact{Name: "Alice", Address: addrSum}, scopeA, hash1), c.env())
	require.Equal(t, Outcome{Reply: stored, Replayed: true}, out)

	// The same key under another scope (another route) is independent.
	other := IdemScope(keyID, "PATCH", "/public/v1/contacts/ct_000001", "idem-a")
	out = handle(t, s, idemReq(UpdateContact{ID: "ct_000001", Name: ptr("Alicia")}, other, hash2), c.env())
	require.False(t, out.Replayed)
	require.Equal(t, 200, out.Reply.Status)
	require.Len(t, out.Events, 2)
}

func TestHandleRefusalsAreStoredAndReplayed(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	for _, tc := range []struct {
		cmd    Command
		status int
		body   string
	}{
		{CreateContact{Name: "Alice", Address: "0xnope"}, 400, errBody(CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address")},
		{CreateContact{Name: "Alice", Address: addrSum, Currency: ptr("BTC")}, 400, errBody(CodeUnsupportedAsset, `currency "BTC" is not supported; see GET /currencies`)},
		{DeleteContact{ID: "ct_999999"}, 404, errBody(CodeNotFound, "contact not found")},
		{RevokeKey{KeyID: "nope"}, 404, errBody(CodeNotFound, "key not found")},
	} {
		scope := IdemScope(keyID, "POST", "/x", fmt.Sprintf("%T", tc.cmd)+tc.body)
		out := handle(t, s, idemReq(tc.cmd, scope, hash1), c.env())
		require.Equal(t, []Event{{Kind: EvIdemPut, Idem: &IdemRecord{Scope: scope, BodyHash: hash1, Status: tc.status, Body: []byte(tc.body), CreatedAt: c.now}}}, out.Events)
		require.Equal(t, Reply{Status: tc.status, Body: []byte(tc.body)}, out.Reply)
		require.Equal(t, tc.status, out.Err.Status)
		applyAll(s, out.Events)

		// Make the command succeed if it were run again: the replay still
		// answers the stored refusal.
		mustApply(t, s, CreateContact{Name: "Alice", Address: addrSum}, c.env())
		c.advance(time.Hour)
		out = handle(t, s, idemReq(tc.cmd, scope, hash1), c.env())
		require.Equal(t, Outcome{Reply: Reply{Status: tc.status, Body: []byte(tc.body)}, Replayed: true}, out)
		out = handle(t, s, idemReq(tc.cmd, scope, hash2), c.env())
		require.Equal(t, 422, out.Reply.Status)
		require.Empty(t, out.Events)
	}
}

// A no-op answer (revoking a revoked key) has no events of its own but is
// still stored for replay.
func TestHandleStoresAnswerWithoutEvents(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	mustApply(t, s, CreateKey{KeyID: keyID, PublicKey: pubKey, Scopes: ScopeRead}, c.env())
	mustApply(t, s, RevokeKey{KeyID: keyID}, c.env())
	out := handle(t, s, idemReq(RevokeKey{KeyID: keyID}, scopeA, hash1), c.env())
	require.Len(t, out.Events, 1)
	require.Equal(t, EvIdemPut, out.Events[0].Kind)
	require.Equal(t, 200, out.Events[0].Idem.Status)
	require.Equal(t, out.Reply.Body, out.Events[0].Idem.Body)
}

func TestLiveIdemRetention(t *testing.T) {
	s := newAccountState(t)
	out := handle(t, s, idemReq(CreateContact{Name: "Alice", Address: addrSum}, scopeA, hash1), newClock().env())
	applyAll(s, out.Events)
	rec := out.Events[1].Idem

	require.Equal(t, rec, s.Idem.Live(scopeA, t0))
	require.Equal(t, rec, s.Idem.Live(scopeA, t0.Add(IdemRetention-time.Nanosecond)))
	require.Nil(t, s.Idem.Live(scopeA, t0.Add(IdemRetention)))
	require.Nil(t, s.Idem.Live(scopeA, t0.Add(48*time.Hour)))
	require.Nil(t, s.Idem.Live(scopeB, t0))
	require.Equal(t, 1, s.Idem.Len(), "Live does not expire anything itself")

	// After the retention the key is free again, even with another body: the
	// command runs and a new answer replaces the old one.
	later := t0.Add(IdemRetention)
	c := &clock{now: later, n: 1}
	out = handle(t, s, idemReq(CreateContact{Name: "Bob", Address: addr2Sum}, scopeA, hash2), c.env())
	require.False(t, out.Replayed)
	require.Equal(t, 201, out.Reply.Status)
	require.Len(t, out.Events, 2)
	applyAll(s, out.Events)
	require.Equal(t, 1, s.Idem.Len())
	require.Equal(t, &IdemRecord{Scope: scopeA, BodyHash: hash2, Status: 201, Body: out.Reply.Body, CreatedAt: later}, s.Idem.Get(scopeA))
	require.Equal(t, []string{scopeA}, s.Idem.order)
	require.Len(t, s.Contacts, 2)
}

func idemPut(scope string, at time.Time) *Event {
	return &Event{Kind: EvIdemPut, Idem: &IdemRecord{Scope: scope, BodyHash: hash1, Status: 200, Body: []byte(`{}`), CreatedAt: at}}
}

// Expiry happens in Apply of a later EvIdemPut, at that event's time, so two
// replicas applying the same events hold the same records.
func TestApplyExpiresIdem(t *testing.T) {
	s := newAccountState(t)
	s.Apply(idemPut("a", t0))
	s.Apply(idemPut("b", t0.Add(time.Hour)))
	s.Apply(idemPut("c", t0.Add(2*time.Hour)))
	require.Equal(t, []string{"a", "b", "c"}, s.Idem.order)

	// Other events expire nothing.
	s.Apply(&Event{Kind: EvAccountPut, Account: s.Account})
	s.Apply(idemPut("d", t0.Add(IdemRetention-time.Nanosecond)))
	require.Equal(t, []string{"a", "b", "c", "d"}, s.Idem.order)
	require.Equal(t, 4, s.Idem.Len())

	s.Apply(idemPut("e", t0.Add(IdemRetention)))
	require.Equal(t, []string{"b", "c", "d", "e"}, s.Idem.order)
	require.Nil(t, s.Idem.Get("a"))

	s.Apply(idemPut("f", t0.Add(IdemRetention+2*time.Hour)))
	require.Equal(t, []string{"d", "e", "f"}, s.Idem.order)
	require.Equal(t, 3, s.Idem.Len())

	// Rewriting a live scope keeps its place in the order.
	s.Apply(idemPut("e", t0.Add(IdemRetention+3*time.Hour)))
	require.Equal(t, []string{"d", "e", "f"}, s.Idem.order)
	require.Equal(t, t0.Add(IdemRetention+3*time.Hour), s.Idem.Get("e").CreatedAt)

	// An expired scope written again is pruned first and goes to the back.
	s.Apply(idemPut("d", t0.Add(2*IdemRetention)))
	require.Equal(t, []string{"e", "f", "d"}, s.Idem.order)
	require.Equal(t, 3, s.Idem.Len())

	s.Apply(idemPut("g", t0.Add(10*IdemRetention)))
	require.Equal(t, []string{"g"}, s.Idem.order)
	require.Equal(t, 1, s.Idem.Len())
}

func TestLoadIdem(t *testing.T) {
	now := t0.Add(IdemRetention + time.Hour)
	recs := []*IdemRecord{
		idemPut("late", t0.Add(3*time.Hour)).Idem,
		idemPut("expired", t0).Idem,
		idemPut("edge", t0.Add(time.Hour)).Idem, // exactly 24 h old at now
		idemPut("early", t0.Add(2*time.Hour)).Idem,
	}
	s := newAccountState(t)
	s.Idem.Load(recs, now)
	require.Equal(t, []string{"early", "late"}, s.Idem.order)
	require.Equal(t, 2, s.Idem.Len())
	require.NotNil(t, s.Idem.Live("early", now))
	require.Nil(t, s.Idem.Live("edge", now))

	s.Apply(idemPut("x", t0.Add(IdemRetention+2*time.Hour)))
	require.Equal(t, []string{"late", "x"}, s.Idem.order)
}

// InFlight: the speculative state (decided, not yet durable) holds the answer
// and the committed state does not: 409 idempotency_in_progress.
func TestInFlight(t *testing.T) {
	committed := newAccountState(t)
	spec := committed.CloneAccount()
	c := newClock()

	out := handle(t, spec, idemReq(CreateContact{Name: "Alice", Address: addrSum}, scopeA, hash1), c.env())
	require.False(t, spec.InFlight(committed, scopeA, c.now))
	applyAll(spec, out.Events)
	require.True(t, spec.InFlight(committed, scopeA, c.now))
	require.True(t, spec.InFlight(committed, scopeA, c.now.Add(IdemRetention-time.Nanosecond)))
	require.False(t, spec.InFlight(committed, scopeB, c.now))
	require.False(t, spec.InFlight(committed, scopeA, c.now.Add(IdemRetention)), "an expired answer is not in flight")

	applyAll(committed, out.Events) // durable now
	require.False(t, spec.InFlight(committed, scopeA, c.now))
	require.Equal(t, spec, committed)

	// The committed state replays what the speculative one decided.
	rep := handle(t, committed, idemReq(CreateContact{Name: "Alice", Address: addrSum}, scopeA, hash1), c.env())
	require.Equal(t, Outcome{Reply: out.Reply, Replayed: true}, rep)
}

// The idempotency store of an account is bounded. While it is full of live
// answers an idempotent write is 503 and nothing is stored; once those
// answers have expired the store must accept again (the records expire, so
// the 503 lasts "until records expire", not forever).
func TestHandleIdemStoreFull(t *testing.T) {
	s := newAccountState(t)
	recs := make([]*IdemRecord, MaxIdemPerAccount)
	body := []byte(`{}`)
	for i := range recs {
		recs[i] = &IdemRecord{Scope: fmt.Sprint(i), Status: 200, Body: body, CreatedAt: t0.Add(time.Duration(i%2) * time.Minute)}
	}
	s.Idem.Load(recs, t0)
	require.Equal(t, MaxIdemPerAccount, s.Idem.Len())

	full := Reply{Status: 503, RetryAfter: 1, Body: []byte(errBody(CodeUnavailable, "idempotency store of this account is full (500000 live keys); retry later"))}
	c := &clock{now: t0.Add(time.Hour)}
	out := s.Handle(idemReq(CreateContact{Name: "A", Address: addrSum}, scopeA, hash1), c.env())
	require.Equal(t, Outcome{Reply: full}, out)
	require.Zero(t, c.n, "no id drawn")
	// A stored answer still replays while full.
	out = s.Handle(idemReq(CreateContact{Name: "A", Address: addrSum}, "7", [32]byte{}), c.env())
	require.Equal(t, Outcome{Reply: Reply{Status: 200, Body: body}, Replayed: true}, out)
	// Writes without a key are not affected.
	out = s.Handle(Request{Cmd: CreateContact{Name: "A", Address: addrSum}}, c.env())
	require.Equal(t, 201, out.Reply.Status)

	// Half the answers have expired: the store has room again.
	c.now = t0.Add(IdemRetention)
	out = s.Handle(idemReq(CreateContact{Name: "A", Address: addrSum}, scopeA, hash1), c.env())
	require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))
	require.Len(t, out.Events, 2)
	applyAll(s, out.Events)
	require.Equal(t, MaxIdemPerAccount/2+1, s.Idem.Len())
}

func TestErrorBodies(t *testing.T) {
	for _, tc := range []struct {
		err    *Error
		status int
		body   string
	}{
		{ErrInProgress(), 409, errBody(CodeIdempotencyInProgress, "a request with this Idempotency-Key is still executing")},
		{ErrKeyReused(), 422, errBody(CodeIdempotencyKeyReused, "this Idempotency-Key was used with a different request body")},
		{ErrInvalidState("x %d", 1), 409, errBody(CodeInvalidState, "x 1")},
		{ErrUnavailable("down"), 503, errBody(CodeUnavailable, "down")},
		{ErrInvalid(`bad "<field>" & more`), 400, `{"error":{"code":"invalid_request","message":"bad \"\u003cfield\u003e\" \u0026 more"}}`},
	} {
		require.Equal(t, Reply{Status: tc.status, Body: []byte(tc.body), RetryAfter: tc.err.RetryAfter}, tc.err.Reply())
	}
	require.Equal(t, 1, ErrInProgress().RetryAfter)
	require.True(t, strings.HasPrefix(ErrKeyReused().Error(), "422 idempotency_key_reused: "))
}
