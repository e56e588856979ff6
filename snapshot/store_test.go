package snapshot

import (
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/stretchr/testify/require"
)

var t0 = time.Unix(1795000000, 0).UTC()

func idemEvent(scope string, at time.Time) domain.Event {
	return domain.Event{Kind: domain.EvIdemPut, Idem: &domain.IdemRecord{Scope: scope, Status: 201, Body: []byte(`{}`), CreatedAt: at}}
}

func TestApplyLoadAndSweep(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	acct := &domain.Account{ID: "acct_1", Name: "a", KYC: domain.KYCApproved, CreatedAt: t0, UpdatedAt: t0}
	ct := &domain.Contact{ID: "ct_1", Account: "acct_1", Name: "n", Address: "0x00000000000000000000000000000000000000AA", CreatedAt: t0, UpdatedAt: t0}
	recs := []Applied{
		{Index: 1, Record: &domain.Record{Entity: "acct_1", Events: []domain.Event{{Kind: domain.EvAccountPut, Account: acct}}}},
		{Index: 2, Record: &domain.Record{Entity: "acct_1", Events: []domain.Event{{Kind: domain.EvContactPut, Contact: ct}, idemEvent("old", t0)}}},
		{Index: 3, Record: &domain.Record{Entity: "acct_1", Events: []domain.Event{idemEvent("new", t0.Add(23*time.Hour))}}},
		{Index: 4, Record: &domain.Record{Events: []domain.Event{{Kind: domain.EvMetaPut, ID: "k", Value: "v"}}}},
	}
	require.NoError(t, s.ApplyPart(0, 0, recs))
	idx, err := s.AppliedIndex()
	require.NoError(t, err)
	require.Equal(t, uint64(4), idx)
	v, err := s.Meta("k")
	require.NoError(t, err)
	require.Equal(t, "v", v)

	now := t0.Add(25 * time.Hour)
	st, ok, err := s.LoadAccount("acct_1", now)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, acct, st.Account)
	require.Equal(t, ct, st.Contacts["ct_1"])
	require.NotNil(t, st.Idem.Get("new"))
	require.Nil(t, st.Idem.Get("old"), "expired records are not loaded")

	// "old" expires and is swept; "new" is younger than 24 h and stays.
	n, err := s.SweepIdem(now, 100)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = s.SweepIdem(now, 100)
	require.NoError(t, err)
	require.Zero(t, n)

	// A scope stored again after expiry keeps its new row when the old
	// expiry entry is swept.
	require.NoError(t, s.ApplyPart(0, 4, []Applied{{Index: 5, Record: &domain.Record{Entity: "acct_1", Events: []domain.Event{idemEvent("new", now)}}}}))
	n, err = s.SweepIdem(t0.Add(48*time.Hour), 100)
	require.NoError(t, err)
	require.Equal(t, 1, n, "the first expiry entry of \"new\" goes")
	st, _, err = s.LoadAccount("acct_1", t0.Add(48*time.Hour))
	require.NoError(t, err)
	require.NotNil(t, st.Idem.Get("new"), "the re-stored row survives its old expiry entry")

	_, ok, err = s.LoadAccount("acct_missing", now)
	require.NoError(t, err)
	require.False(t, ok)
	require.Panics(t, func() { _ = s.ApplyPart(0, 7, recs[:1]) }, "a gap in log indexes is a broken invariant")
}

// A signature guard lives to its Until, not 24 h: loaded while it counts,
// skipped and swept once past it, while an answer made before it stays.
func TestGuardLoadAndSweep(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	acct := &domain.Account{ID: "acct_1", Name: "a", KYC: domain.KYCApproved, CreatedAt: t0, UpdatedAt: t0}
	guard := domain.Event{Kind: domain.EvIdemPut, Idem: &domain.IdemRecord{Scope: "g", Status: 201, CreatedAt: t0, Until: t0.Add(45 * time.Second)}}
	require.NoError(t, s.ApplyPart(0, 0, []Applied{
		{Index: 1, Record: &domain.Record{Entity: "acct_1", Events: []domain.Event{{Kind: domain.EvAccountPut, Account: acct}, idemEvent("answer", t0)}}},
		{Index: 2, Record: &domain.Record{Entity: "acct_1", Events: []domain.Event{guard}}},
	}))

	st, _, err := s.LoadAccount("acct_1", t0.Add(44*time.Second))
	require.NoError(t, err)
	require.Equal(t, guard.Idem, st.Idem.Get("g"), "the guard reads back whole, Until included")
	n, err := s.SweepIdem(t0.Add(44*time.Second), 100)
	require.NoError(t, err)
	require.Zero(t, n, "nothing has expired yet")

	later := t0.Add(46 * time.Second)
	st, _, err = s.LoadAccount("acct_1", later)
	require.NoError(t, err)
	require.Nil(t, st.Idem.Get("g"), "a guard past its Until is not loaded")
	n, err = s.SweepIdem(later, 100)
	require.NoError(t, err)
	require.Equal(t, 1, n, "the guard's row goes a minute after it came, not a day")
	row, err := s.get(idemKey("acct_1", "g"))
	require.NoError(t, err)
	require.Nil(t, row)
	require.NotNil(t, st.Idem.Get("answer"), "the 24 h answer stays")
}

func TestExpiryKeyRoundTrip(t *testing.T) {
	k := expiryKey(t0, "acct_1", "svc\x00POST\x00/public/v1/contacts\x00k/1")
	created, acct, scope, ok := parseExpiryKey(k)
	require.True(t, ok)
	require.True(t, created.Equal(t0))
	require.Equal(t, "acct_1", acct)
	require.Equal(t, "svc\x00POST\x00/public/v1/contacts\x00k/1", scope)
	_, _, _, ok = parseExpiryKey([]byte("x/short"))
	require.False(t, ok)
}

func TestCheckpointHoldsAppliedState(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir + "/db")
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.ApplyPart(0, 0, []Applied{{Index: 1, Record: &domain.Record{Events: []domain.Event{{Kind: domain.EvMetaPut, ID: "k", Value: "v"}}}}}))
	idx, err := s.Checkpoint(dir + "/cp")
	require.NoError(t, err)
	require.Equal(t, uint64(1), idx, "the checkpoint includes the unflushed memtable")
}

// Each log part keeps its own applied index; part 0's is the key a single
// node always used.
func TestPartAppliedIndexes(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	meta := func(i uint64) Applied {
		return Applied{Index: i, Record: &domain.Record{Events: []domain.Event{{Kind: domain.EvMetaPut, ID: "k", Value: "v"}}}}
	}
	require.NoError(t, s.ApplyPart(3, 0, []Applied{meta(1), meta(2)}))
	require.NoError(t, s.ApplyPart(0, 0, []Applied{meta(1)}))
	three, err := s.PartAppliedIndex(3)
	require.NoError(t, err)
	zero, err := s.AppliedIndex()
	require.NoError(t, err)
	require.Equal(t, [2]uint64{2, 1}, [2]uint64{three, zero})
	v, err := s.get(keyApplied)
	require.NoError(t, err)
	require.Len(t, v, 8, "part 0 under the original key")
}
