package domain

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// t0 is the fixed "now" of the tests: 2026-01-01T00:00:00.123456789Z. It has
// nanoseconds on purpose, so the codec must keep them and the views must
// drop them (RFC 3339, seconds).
var t0 = time.Unix(1767225600, 123456789).UTC()

const t0RFC = "2026-01-01T00:00:00Z"

// goodSig has a signature's form (0x and 65 bytes of hex); whether it
// recovers is the command's Verified.
var goodSig = "0x" + strings.Repeat("ab", 65)

// clock is a deterministic Env source: a settable time and a counter-based
// id generator shared by every Env it hands out.
type clock struct {
	now time.Time
	n   int
}

func newClock() *clock { return &clock{now: t0} }

func (c *clock) newID(prefix string) string {
	c.n++
	return fmt.Sprintf("%s%06d", prefix, c.n)
}

func (c *clock) env() Env { return Env{Now: c.now, NewID: c.newID} }

func (c *clock) advance(d time.Duration) { c.now = c.now.Add(d) }

// fixedEnv is an Env at now whose id source must not be called.
func fixedEnv(t *testing.T, now time.Time) Env {
	return Env{Now: now, NewID: func(p string) string {
		t.Helper()
		t.Fatalf("NewID(%q) called unexpectedly", p)
		return ""
	}}
}

func ptr[T any](v T) *T { return &v }

const (
	acctID = "acct_000001"
	keyID  = "svc_test_000001"
	// The EIP-55 test vector: checksummed, all lower, all upper.
	addrSum   = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	addrLower = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
	addrUpper = "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"
	addr2Sum  = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

var pubKey = func() []byte {
	b := make([]byte, 32)
	for i := range b {
		b[i] = byte(i + 1)
	}
	return b
}()

// applyAll applies events in order.
func applyAll(s *AccountState, events []Event) {
	for i := range events {
		s.Apply(&events[i])
	}
}

// newAccountState returns a state holding the account acct_000001, created at t0.
func newAccountState(t *testing.T) *AccountState {
	t.Helper()
	s := NewAccountState()
	ev, _, err := s.Decide(CreateAccount{ID: acctID, Name: "Acme Ltd", KYC: KYCApproved, Env: "test", Swap: true, Pay: true}, fixedEnv(t, t0))
	require.Nil(t, err)
	applyAll(s, ev)
	return s
}

// mustDecide runs Decide, requires success and checks that the state did not
// change.
func mustDecide(t *testing.T, s *AccountState, cmd Command, env Env) ([]Event, Reply) {
	t.Helper()
	before := cloneState(s)
	ev, r, err := s.Decide(cmd, env)
	require.Nil(t, err, "decide %T", cmd)
	require.Equal(t, before, s, "Decide mutated the state")
	return ev, r
}

// mustApply decides and applies, returning the reply.
func mustApply(t *testing.T, s *AccountState, cmd Command, env Env) Reply {
	t.Helper()
	ev, r := mustDecide(t, s, cmd, env)
	applyAll(s, ev)
	return r
}

// requireRefused runs Decide, requires the refusal (status, code) and checks
// that nothing changed and nothing was emitted.
func requireRefused(t *testing.T, s *AccountState, cmd Command, env Env, status int, code string) *Error {
	t.Helper()
	before := cloneState(s)
	ev, r, err := s.Decide(cmd, env)
	require.NotNil(t, err, "decide %T %+v: want %d %s", cmd, cmd, status, code)
	require.Equal(t, status, err.Status, err.Error())
	require.Equal(t, code, err.Code, err.Error())
	require.Nil(t, ev)
	require.Equal(t, Reply{}, r)
	require.Equal(t, before, s, "a refusal changed the state")
	return err
}

// cloneState deep-copies a state (rows included), keeping nil-ness, so
// require.Equal(before, after) catches any write through a shared pointer.
func cloneState(s *AccountState) *AccountState {
	c := &AccountState{}
	if s.Account != nil {
		a := *s.Account
		c.Account = &a
	}
	if s.Keys != nil {
		c.Keys = make(map[string]*APIKey, len(s.Keys))
		for id, k := range s.Keys {
			k2 := *k
			k2.PublicKey = cloneBytes(k.PublicKey)
			c.Keys[id] = &k2
		}
	}
	if s.Contacts != nil {
		c.Contacts = make(map[string]*Contact, len(s.Contacts))
		for id, ct := range s.Contacts {
			ct2 := *ct
			c.Contacts[id] = &ct2
		}
	}
	if s.Wallets != nil {
		c.Wallets = make(map[string]*Wallet, len(s.Wallets))
		for a, w := range s.Wallets {
			w2 := *w
			c.Wallets[a] = &w2
		}
	}
	if s.Challenges != nil {
		c.Challenges = make(map[string]*Challenge, len(s.Challenges))
		for n, ch := range s.Challenges {
			ch2 := *ch
			c.Challenges[n] = &ch2
		}
	}
	if s.Idem.recs != nil {
		c.Idem.recs = make(map[string]*IdemRecord, len(s.Idem.recs))
		for sc, r := range s.Idem.recs {
			r2 := *r
			r2.Body = cloneBytes(r.Body)
			c.Idem.recs[sc] = &r2
		}
	}
	if s.Idem.order != nil {
		c.Idem.order = append(make([]string, 0, len(s.Idem.order)), s.Idem.order...)
	}
	return c
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// errBody is the contract's error body.
func errBody(code, msg string) string {
	return fmt.Sprintf(`{"error":{"code":%q,"message":%q}}`, code, msg)
}

// fastApply decides and applies without the no-mutation check (for loops
// that fill a state up to a limit).
func fastApply(t *testing.T, s *AccountState, cmd Command, env Env) {
	t.Helper()
	ev, _, err := s.Decide(cmd, env)
	if err != nil {
		t.Fatalf("decide %T: %v", cmd, err)
	}
	applyAll(s, ev)
}
