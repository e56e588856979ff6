package domain

import (
	"crypto/sha256"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A hand-written sequence: the state after applying the events of each
// decision is exactly the expected one.
func TestApplySequence(t *testing.T) {
	s := NewAccountState()
	c := newClock()
	mustApply(t, s, CreateAccount{ID: acctID, Name: "Acme", KYC: KYCPending, Env: "test"}, c.env())
	c.advance(time.Minute)
	t1 := c.now
	mustApply(t, s, UpdateAccount{KYC: ptr(KYCApproved), Pay: ptr(true)}, c.env())
	mustApply(t, s, CreateKey{KeyID: "svc_test_a", PublicKey: pubKey, Scopes: ScopeRead | ScopePay}, c.env())
	mustApply(t, s, CreateKey{KeyID: "svc_test_b", PublicKey: pubKey, Scopes: ScopeTrade}, c.env())
	c.advance(time.Minute)
	t2 := c.now
	mustApply(t, s, CreateContact{Name: "Alice", Address: addrLower, Currency: ptr("USDC")}, c.env()) // ct_000001
	mustApply(t, s, CreateContact{Name: "Bob", Address: addr2Sum, Memo: ptr("hi")}, c.env())          // ct_000002
	mustApply(t, s, CreateContact{Name: "Carol", Address: addrUpper}, c.env())                        // ct_000003
	c.advance(time.Minute)
	t3 := c.now
	mustApply(t, s, RevokeKey{KeyID: "svc_test_b"}, c.env())
	mustApply(t, s, UpdateContact{ID: "ct_000002", Currency: ptr("EURC"), Memo: ptr("")}, c.env())
	mustApply(t, s, DeleteContact{ID: "ct_000003"}, c.env())
	out := s.Handle(idemReq(CreateContact{Name: "Dave", Address: addr2Sum}, scopeA, hash1), c.env()) // ct_000004
	applyAll(s, out.Events)

	want := &AccountState{
		Account: &Account{ID: acctID, Name: "Acme", KYC: KYCApproved, Pay: true, Env: "test", CreatedAt: t0, UpdatedAt: t1},
		Keys: map[string]*APIKey{
			"svc_test_a": {ID: "svc_test_a", Account: acctID, PublicKey: pubKey, Scopes: ScopeRead | ScopePay, CreatedAt: t1},
			"svc_test_b": {ID: "svc_test_b", Account: acctID, PublicKey: pubKey, Scopes: ScopeTrade, CreatedAt: t1, Revoked: true, RevokedAt: t3},
		},
		Contacts: map[string]*Contact{
			"ct_000001": {ID: "ct_000001", Account: acctID, Name: "Alice", Address: addrSum, Currency: "USDC", CreatedAt: t2, UpdatedAt: t2},
			"ct_000002": {ID: "ct_000002", Account: acctID, Name: "Bob", Address: addr2Sum, Currency: "EURC", CreatedAt: t2, UpdatedAt: t3},
			"ct_000004": {ID: "ct_000004", Account: acctID, Name: "Dave", Address: addr2Sum, CreatedAt: t3, UpdatedAt: t3},
		},
		Idem: IdemStore{recs: map[string]*IdemRecord{
			scopeA: {Scope: scopeA, BodyHash: hash1, Status: 201, Body: out.Reply.Body, CreatedAt: t3},
		}, order: []string{scopeA}},
	}
	require.Equal(t, want, s)
	require.Equal(t, []string{"ct_000004", "ct_000002", "ct_000001"}, contactIDs(s.SortedContacts()))
}

func contactIDs(cs []*Contact) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func TestApplyPanicsOnBrokenInvariants(t *testing.T) {
	s := newAccountState(t)
	mustApply(t, s, CreateContact{Name: "A", Address: addrSum}, newClock().env())
	before := cloneState(s)
	require.PanicsWithValue(t, "domain: apply contact_deleted of unknown contact ct_nope", func() {
		s.Apply(&Event{Kind: EvContactDeleted, ID: "ct_nope"})
	})
	require.Equal(t, before, s)
	require.PanicsWithValue(t, "domain: apply of unknown event kind 99", func() { s.Apply(&Event{Kind: 99}) })
	require.Panics(t, func() { s.Apply(&Event{Kind: 0}) })
}

func TestEventKindString(t *testing.T) {
	for k, want := range map[EventKind]string{
		EvAccountPut: "account_put", EvKeyPut: "key_put", EvContactPut: "contact_put",
		EvContactDeleted: "contact_deleted", EvIdemPut: "idem_put", 0: "event_0", 200: "event_200",
	} {
		require.Equal(t, want, k.String())
	}
}

// gen makes random, mostly plausible commands against a state.
type gen struct {
	r *rand.Rand
}

func (g gen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g gen) maybe(p float64) bool { return g.r.Float64() < p }

func (g gen) text(max int) string {
	switch g.r.Intn(12) {
	case 0:
		return ""
	case 1:
		return strings.Repeat("é", max+g.r.Intn(2)) // at or over the limit
	case 2:
		return "bad\x01ctl"
	case 3:
		return "bad\xffutf8"
	}
	return g.pick("Alice", "Bob", "Zoë", "株式会社", "O'Brien & Co", "a b c")
}

func (g gen) address() string {
	return g.pick(addrSum, addrLower, addrUpper, addr2Sum, strings.ToLower(addr2Sum),
		"0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", addrSum[2:], addrSum[:41], "")
}

func (g gen) optional(f func() string) *string {
	if g.maybe(0.4) {
		return nil
	}
	v := f()
	return &v
}

func (g gen) existing(m map[string]*Contact) string {
	if len(m) == 0 || g.maybe(0.15) {
		return g.pick("ct_missing", "")
	}
	ids := contactIDs((&AccountState{Contacts: m}).SortedContacts())
	return ids[g.r.Intn(len(ids))]
}

func (g gen) command(s *AccountState) Command {
	switch g.r.Intn(10) {
	case 0:
		return CreateAccount{ID: g.pick(acctID, ""), Name: g.text(maxNameRunes), KYC: g.pick(KYCApproved, KYCPending, KYCRejected, "nope"),
			Env: g.pick("test", "live"), Swap: g.maybe(0.5), Pay: g.maybe(0.5)}
	case 1:
		u := UpdateAccount{}
		if g.maybe(0.5) {
			u.KYC = ptr(g.pick(KYCApproved, KYCPending, KYCRejected, "bad"))
		}
		if g.maybe(0.5) {
			u.Swap = ptr(g.maybe(0.5))
		}
		if g.maybe(0.5) {
			u.Pay = ptr(g.maybe(0.5))
		}
		return u
	case 2:
		pk := pubKey
		if g.maybe(0.1) {
			pk = pk[:g.r.Intn(32)]
		}
		return CreateKey{KeyID: g.pick("svc_test_a", "svc_test_b", "svc_live_c", fmt.Sprintf("svc_test_%d", g.r.Intn(1000)), ""),
			PublicKey: pk, Scopes: Scopes(g.r.Intn(int(AllScopes) + 3))}
	case 3:
		return RevokeKey{KeyID: g.pick("svc_test_a", "svc_test_b", "svc_live_c", "svc_test_zz")}
	case 4, 5:
		return CreateContact{Name: g.text(maxNameRunes), Address: g.address(),
			Currency: g.optional(func() string { return g.pick("USDC", "USDT", "EURC", "", "BTC") }),
			Memo:     g.optional(func() string { return g.text(maxMemoRunes) })}
	case 6, 7:
		return UpdateContact{ID: g.existing(s.Contacts),
			Name:     g.optional(func() string { return g.text(maxNameRunes) }),
			Address:  g.optional(g.address),
			Currency: g.optional(func() string { return g.pick("USDC", "USDT", "EURC", "", "usdt") }),
			Memo:     g.optional(func() string { return g.text(maxMemoRunes) })}
	default:
		return DeleteContact{ID: g.existing(s.Contacts)}
	}
}

func (g gen) request(s *AccountState) Request {
	req := Request{Cmd: g.command(s)}
	if g.maybe(0.5) {
		req.Idem = &IdemRequest{
			Scope:    IdemScope(g.pick("svc_test_a", "svc_test_b"), g.pick("POST", "DELETE"), "/public/v1/contacts", g.pick("k1", "k2", "k3")),
			BodyHash: sha256.Sum256([]byte{byte(g.r.Intn(2))}),
		}
	}
	return req
}

func (g gen) step(c *clock) {
	switch n := g.r.Intn(20); {
	case n == 0:
		c.advance(IdemRetention)
	case n < 4:
		c.advance(time.Duration(g.r.Int63n(int64(6 * time.Hour))))
	default:
		c.advance(time.Duration(g.r.Int63n(int64(time.Second))))
	}
}

// Random command sequences: every record of events survives the codec
// unchanged, and applying the decoded records yields the same state as
// applying the live events. A third state, rebuilt the way the snapshot
// store does (rows through the row codecs, idempotency via LoadIdem), then
// behaves exactly like the live one.
func TestApplyDecodedEqualsLive(t *testing.T) {
	seeds := int64(30)
	if testing.Short() {
		seeds = 5
	}
	for seed := int64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			g := gen{rand.New(rand.NewSource(seed))}
			c := newClock()
			a, b := NewAccountState(), NewAccountState()
			var kinds [EvIdemPut + 1]int
			replays := 0
			for i := 0; i < 400; i++ {
				g.step(c)
				req := g.request(a)
				if i == 3 {
					req = Request{Cmd: CreateAccount{ID: acctID, Name: "Acme", KYC: KYCApproved, Env: "test"}}
				}
				out := handle(t, a, req, c.env())
				if out.Replayed {
					replays++
					require.Empty(t, out.Events)
				}
				for _, e := range out.Events {
					kinds[e.Kind]++
				}
				applyAll(a, out.Events)
				if len(out.Events) == 0 {
					continue
				}
				rec := Record{Entity: acctID, Events: out.Events}
				enc := MarshalRecord(nil, &rec)
				dec, err := UnmarshalRecord(enc)
				require.NoError(t, err, "step %d: %+v", i, req)
				require.Equal(t, rec, dec, "step %d", i)
				b.ApplyRecord(&dec)
				require.Equal(t, a, b, "step %d", i)
			}
			for k := EvAccountPut; k <= EvIdemPut; k++ {
				require.NotZero(t, kinds[k], "seed %d never produced %s", seed, k)
			}
			require.NotZero(t, replays)

			// Snapshot path: rows through the row codecs, then LoadIdem.
			snap := snapshotState(t, a, c.now)
			requireSameBehaviour(t, a, snap, c.now)
			cs := &clock{now: c.now, n: c.n} // the snapshot's own, identical id source
			for i := 0; i < 200; i++ {
				g.step(c)
				cs.now = c.now
				req := g.request(a)
				outA := handle(t, a, req, c.env())
				outS := handle(t, snap, req, cs.env())
				require.Equal(t, outA, outS, "step %d", i)
				require.Equal(t, c.n, cs.n)
				applyAll(a, outA.Events)
				applyAll(snap, outS.Events)
				requireSameBehaviour(t, a, snap, c.now)
			}
		})
	}
}

// snapshotState rebuilds a state from encoded rows, like snapshot.Store.
func snapshotState(t *testing.T, s *AccountState, now time.Time) *AccountState {
	t.Helper()
	out := NewAccountState()
	var err error
	if s.Account != nil {
		out.Account, err = UnmarshalAccount(MarshalAccount(nil, s.Account))
		require.NoError(t, err)
	}
	for _, k := range s.Keys {
		k2, err := UnmarshalKey(MarshalKey(nil, k))
		require.NoError(t, err)
		out.AddKey(k2)
	}
	for _, c := range s.Contacts {
		c2, err := UnmarshalContact(MarshalContact(nil, c))
		require.NoError(t, err)
		out.AddContact(c2)
	}
	var idem []*IdemRecord
	for _, r := range s.Idem.recs {
		r2, err := UnmarshalIdem(MarshalIdem(nil, r))
		require.NoError(t, err)
		idem = append(idem, r2)
	}
	out.Idem.Load(idem, now)
	return out
}

// requireSameBehaviour compares two states through everything observable at
// now: rows, and the live idempotency answers (expired ones may still sit in
// one state's map until the next EvIdemPut).
func requireSameBehaviour(t *testing.T, a, b *AccountState, now time.Time) {
	t.Helper()
	require.Equal(t, a.Account, b.Account)
	require.Equal(t, emptyNil(a.Keys), emptyNil(b.Keys))
	require.Equal(t, emptyNil(a.Contacts), emptyNil(b.Contacts))
	for _, m := range []map[string]*IdemRecord{a.Idem.recs, b.Idem.recs} {
		for scope := range m {
			require.Equal(t, a.Idem.Live(scope, now), b.Idem.Live(scope, now), "scope %q", scope)
		}
	}
}

// emptyNil is m, or nil when m is empty: a map that had entries and lost
// them all behaves as the nil map a state rebuilt from rows starts with.
func emptyNil[K comparable, V any](m map[K]V) map[K]V {
	if len(m) == 0 {
		return nil
	}
	return m
}

// Clone shares the immutable rows but nothing the Apply of the copy
// writes: maps and the idempotency order are the clone's own.
func TestClone(t *testing.T) {
	require.Equal(t, NewAccountState(), NewAccountState().CloneAccount())

	s := newAccountState(t)
	c := newClock()
	mustApply(t, s, CreateKey{KeyID: keyID, PublicKey: pubKey, Scopes: ScopeRead}, c.env())
	for _, sc := range []string{"a", "b", "c"} {
		out := s.Handle(idemReq(CreateContact{Name: "A", Address: addrSum}, sc, hash1), c.env())
		applyAll(s, out.Events)
		c.advance(time.Hour)
	}
	before := cloneState(s)
	cl := s.CloneAccount()
	require.Equal(t, s, cl)
	require.Same(t, s.Account, cl.Account)
	require.Same(t, s.Contacts["ct_000001"], cl.Contacts["ct_000001"])

	// Expire a and b in the clone, write and delete rows: s is untouched.
	c.now = t0.Add(IdemRetention + time.Hour)
	out := cl.Handle(idemReq(DeleteContact{ID: "ct_000001"}, "d", hash1), c.env())
	applyAll(cl, out.Events)
	applyAll(cl, cl.Handle(Request{Cmd: RevokeKey{KeyID: keyID}}, c.env()).Events)
	applyAll(cl, cl.Handle(Request{Cmd: UpdateAccount{Pay: ptr(false)}}, c.env()).Events)
	require.Equal(t, []string{"c", "d"}, cl.Idem.order)
	require.NotContains(t, cl.Contacts, "ct_000001")
	require.Equal(t, before, s)
}
