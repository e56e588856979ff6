package domain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A 503 under an Idempotency-Key is not stored: the retry it asks for
// executes, and its answer is the one stored.
func TestIdemStoreDoesNotStoreUnavailable(t *testing.T) {
	var s IdemStore
	c := newClock()
	req := &IdemRequest{Scope: scopeA, BodyHash: hash1}
	busy := s.Handle(req, c.env(), 10, "test", func() ([]Event, Reply, *Error) {
		return nil, Reply{}, ErrUnavailable("the chain does not answer")
	})
	require.Equal(t, 503, busy.Reply.Status)
	require.Empty(t, busy.Events, "nothing stored")
	ok := s.Handle(req, c.env(), 10, "test", func() ([]Event, Reply, *Error) {
		return nil, Reply{Status: 200, Body: []byte(`{}`)}, nil
	})
	require.Len(t, ok.Events, 1)
	require.Equal(t, EvIdemPut, ok.Events[0].Kind)
	require.Equal(t, 200, ok.Events[0].Idem.Status)
}

// A signature guard: the first use runs and stores the guard (its end, not
// the answer); a second use before Until is 401 replayed with no events;
// after Until the request runs again. Guards never count against the
// store's limit of answers.
func TestIdemStoreGuard(t *testing.T) {
	c := newClock()
	until := c.now.Add(40 * time.Second)
	var sig [64]byte
	sig[0] = 7
	guard := &IdemRequest{Scope: GuardScope("svc_test_k", "POST", "/public/v1/contacts", &sig), BodyHash: hash1, Until: until}
	runs := 0
	decide := func() ([]Event, Reply, *Error) {
		runs++
		return []Event{{Kind: EvMetaPut, ID: "k", Value: "v"}}, Reply{Status: 201, Body: []byte(`{"id":"ct_1"}`)}, nil
	}
	var s IdemStore
	// The limit (1) is taken by a live answer: a guard runs all the same.
	s.Put(&IdemRecord{Scope: scopeA, BodyHash: hash1, Status: 200, CreatedAt: c.now})
	require.Equal(t, 1, s.LiveCount(c.now))

	cases := []struct {
		name   string
		after  time.Duration // since the start
		status int
		code   string
		runs   int
		stores bool
	}{
		{name: "first use runs and stores the guard", status: 201, runs: 1, stores: true},
		{name: "second use is replayed", after: 10 * time.Second, status: 401, code: CodeReplayed, runs: 1},
		{name: "just before Until still replayed", after: 40*time.Second - time.Nanosecond, status: 401, code: CodeReplayed, runs: 1},
		{name: "at Until it runs again", after: 40 * time.Second, status: 201, runs: 2, stores: true},
	}
	start := c.now
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.now = start.Add(tc.after)
			out := s.Handle(guard, c.env(), 1, "test", decide)
			require.Equal(t, tc.status, out.Reply.Status, string(out.Reply.Body))
			require.Equal(t, tc.runs, runs)
			require.False(t, out.Replayed, "a guard never replays an answer")
			if tc.code != "" {
				require.Equal(t, tc.code, out.Err.Code)
				require.Empty(t, out.Events)
			}
			if tc.stores {
				require.Len(t, out.Events, 2)
				put := out.Events[1].Idem
				require.Equal(t, EvIdemPut, out.Events[1].Kind)
				require.Equal(t, guard.Scope, put.Scope)
				require.Equal(t, until, put.Until)
				require.True(t, put.Guard())
				require.Nil(t, put.Body, "a guard keeps no answer")
				s.Put(put)
			}
			require.Equal(t, 1, s.LiveCount(c.now), "guards are not answers")
		})
	}
}

// Guards expire at their Until and leave the store when a later record is
// put; answers keep their 24 h; Load skips what has expired; Clone copies.
func TestIdemStoreGuardExpiry(t *testing.T) {
	c := newClock()
	g := func(scope string, created time.Time) *IdemRecord {
		return &IdemRecord{Scope: scope, Status: 201, CreatedAt: created, Until: created.Add(31 * time.Second)}
	}
	var s IdemStore
	s.Put(&IdemRecord{Scope: "answer", Status: 200, CreatedAt: c.now})
	s.Put(g("g1", c.now))
	s.Put(g("g2", c.now.Add(5*time.Second)))
	clone := s.Clone()

	s.Put(g("g3", c.now.Add(32*time.Second))) // g1 has expired by then
	require.Nil(t, s.Get("g1"), "dropped by the later put")
	require.NotNil(t, s.Get("g2"))
	require.Nil(t, s.Live("g2", c.now.Add(36*time.Second)), "past its Until, though held")
	require.NotNil(t, s.Live("answer", c.now.Add(23*time.Hour)))
	require.Equal(t, 3, s.Len())
	require.NotNil(t, clone.Get("g1"), "the clone is its own")
	require.Equal(t, 3, clone.Len())

	var loaded IdemStore
	loaded.Load([]*IdemRecord{g("g2", c.now.Add(5*time.Second)), s.Get("answer"), g("g3", c.now.Add(32*time.Second))}, c.now.Add(40*time.Second))
	require.Nil(t, loaded.Get("g2"), "expired at load")
	require.NotNil(t, loaded.Get("g3"))
	require.NotNil(t, loaded.Get("answer"))
}

// A guard's record survives the codec with its Until; an answer's has none.
func TestIdemRecordCodecGuard(t *testing.T) {
	for _, r := range []*IdemRecord{
		{Scope: "s", BodyHash: hash1, Status: 201, CreatedAt: t0, Until: t0.Add(30 * time.Second)},
		{Scope: "s", BodyHash: hash1, Status: 201, Body: []byte(`{}`), CreatedAt: t0},
	} {
		got, err := UnmarshalIdem(MarshalIdem(nil, r))
		require.NoError(t, err)
		require.Equal(t, r, got)
		require.Equal(t, r.Guard(), got.Guard())
	}
}

// A look-only guard finds a stored guard (401 replayed) but stores none
// of its own: no later process accepts its signature.
func TestIdemStoreGuardLookOnly(t *testing.T) {
	c := newClock()
	var sig [64]byte
	scope := GuardScope("svc_test_k", "POST", "/public/v1/contacts", &sig)
	decide := func() ([]Event, Reply, *Error) {
		return []Event{{Kind: EvMetaPut, ID: "k", Value: "v"}}, Reply{Status: 201, Body: []byte(`{}`)}, nil
	}
	look := &IdemRequest{Scope: scope, BodyHash: hash1, Until: c.now.Add(30 * time.Second), LookOnly: true}
	var s IdemStore
	out := s.Handle(look, c.env(), 10, "test", decide)
	require.Equal(t, 201, out.Reply.Status)
	require.Len(t, out.Events, 1, "only the decision's event, no guard")

	s.Put(&IdemRecord{Scope: scope, BodyHash: hash1, Status: 201, CreatedAt: c.now, Until: c.now.Add(30 * time.Second)})
	out = s.Handle(look, c.env(), 10, "test", decide)
	require.Equal(t, 401, out.Reply.Status)
	require.Equal(t, CodeReplayed, out.Err.Code)
	require.Empty(t, out.Events)
}

// A RecordAnswer is kept by whichever kind it names, beside the answers of
// that entity's own commands: the first stores it, the same body replays
// it byte for byte, another body is 422, and Lookup (the host's look
// before running) answers the same from the store alone. Kinds other than
// the account take it through HandleRequest, their Decide knowing no such
// command.
func TestRecordAnswerKeptByEveryKind(t *testing.T) {
	refusal := ErrInvalid("request body must be a JSON object").Reply()
	cases := []struct {
		name   string
		kind   Kind // zero: the account
		entity func(t *testing.T) Entity
	}{
		{"account", 0, func(t *testing.T) Entity { return newAccountState(t) }},
		{"order", KindOrder, func(*testing.T) Entity { return NewEntity(KindOrder) }},
		{"transfer", KindTransfer, func(*testing.T) Entity { return NewEntity(KindTransfer) }},
		{"payment link", KindLink, func(*testing.T) Entity { return NewEntity(KindLink) }},
		{"webhook endpoint", KindEndpoint, func(*testing.T) Entity { return NewEntity(KindEndpoint) }},
		{"event", KindEvent, func(*testing.T) Entity { return NewEntity(KindEvent) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			s := tc.entity(t)
			cmd := RecordAnswer{Reply: refusal, Kind: tc.kind}
			if tc.kind == 0 {
				require.Equal(t, KindAccount, cmd.Target())
			} else {
				require.Equal(t, tc.kind, cmd.Target())
			}
			first := HandleRequest(s, idemReq(cmd, scopeA, hash1), c.env())
			require.Equal(t, refusal, first.Reply)
			require.False(t, first.Replayed)
			require.Equal(t, []Event{{Kind: EvIdemPut, Idem: &IdemRecord{Scope: scopeA, BodyHash: hash1, Status: 400, Body: refusal.Body, CreatedAt: c.now}}}, first.Events)
			for i := range first.Events {
				s.Apply(&first.Events[i])
			}
			require.True(t, s.Exists(), "a stored answer is something to keep")

			c.advance(time.Minute)
			steps := []struct {
				name string
				req  Request
				want Outcome
			}{
				{"same body replays", idemReq(cmd, scopeA, hash1), Outcome{Reply: refusal, Replayed: true}},
				{"another body is 422", idemReq(cmd, scopeA, hash2), Outcome{Reply: ErrKeyReused().Reply()}},
				{"another answer, same body, still replays the first", idemReq(RecordAnswer{Reply: Reply{Status: 200, Body: []byte(`{}`)}, Kind: tc.kind}, scopeA, hash1), Outcome{Reply: refusal, Replayed: true}},
			}
			for _, st := range steps {
				require.Equal(t, st.want, HandleRequest(s, st.req, c.env()), st.name)
				got, ok := IdemOf(s).Lookup(st.req.Idem, c.now)
				require.True(t, ok, st.name)
				require.Equal(t, st.want, got, "Lookup agrees with Handle: %s", st.name)
			}
			_, ok := IdemOf(s).Lookup(&IdemRequest{Scope: scopeB, BodyHash: hash1}, c.now)
			require.False(t, ok, "another key finds nothing")
			_, ok = IdemOf(s).Lookup(&IdemRequest{Scope: scopeA, BodyHash: hash1}, c.now.Add(IdemRetention))
			require.False(t, ok, "nor does the key once retention ends")
		})
	}
}

// Lookup of a signature guard refuses 401 replayed, as Handle does; a nil
// request (no key) finds nothing; a claim keeps no store.
func TestIdemLookupGuardAndNone(t *testing.T) {
	c := newClock()
	var sig [64]byte
	guard := &IdemRequest{Scope: GuardScope("svc_test_k", "POST", "/public/v1/contacts", &sig), BodyHash: hash1, Until: c.now.Add(time.Minute)}
	var s IdemStore
	s.Put(idemRecord(guard, Reply{Status: 201}, c.now))
	out, ok := s.Lookup(guard, c.now)
	require.True(t, ok)
	require.Equal(t, CodeReplayed, out.Err.Code)
	_, ok = s.Lookup(nil, c.now)
	require.False(t, ok)
	require.Nil(t, IdemOf(NewEntity(KindClaim)))
}
