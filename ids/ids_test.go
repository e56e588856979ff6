package ids

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestIDsSortByCreation(t *testing.T) {
	var g Generator
	base := time.Unix(1795000000, 0)
	var made []string
	for i := 0; i < 2000; i++ {
		// several ids per millisecond, and a clock that steps back once
		now := base.Add(time.Duration(i/3) * time.Millisecond)
		if i == 1000 {
			now = base
		}
		made = append(made, g.New("ct_", now, i%Partitions))
	}
	require.True(t, sort.StringsAreSorted(made), "ids must sort in creation order")
	seen := map[string]bool{}
	for _, id := range made {
		require.True(t, strings.HasPrefix(id, "ct_"))
		require.Len(t, id, 3+Len)
		require.False(t, seen[id], "duplicate id %s", id)
		seen[id] = true
	}
}

// TestNeighboursAreNotCounterSteps: ids made in one millisecond share the
// time part and differ in their random part by far more than a step, so
// knowing one public id (pl_…) says nothing about the next.
func TestNeighboursAreNotCounterSteps(t *testing.T) {
	var g Generator
	now := time.Unix(1795000000, 0)
	a, b := g.New("pl_", now, 5), g.New("pl_", now, 5)
	ra, ok := decode(a[3:])
	require.True(t, ok)
	rb, ok := decode(b[3:])
	require.True(t, ok)
	require.Equal(t, ra[:6], rb[:6], "same millisecond")
	differ := 0
	for i := partByte + 1; i < len(ra); i++ {
		for x := ra[i] ^ rb[i]; x != 0; x &= x - 1 {
			differ++
		}
	}
	// 88 fresh bits: about 44 differ; a counter step would flip a few.
	require.Greater(t, differ, 16, "random parts of %s and %s look related", a, b)
}

func TestPartitionRoundTrip(t *testing.T) {
	var g Generator
	now := time.Now()
	for p := 0; p < Partitions; p++ {
		for _, prefix := range []string{"ord_", "svc_test_", "q_", "pl_"} {
			id := g.New(prefix, now, p)
			got, ok := Partition(id)
			require.True(t, ok, id)
			require.Equal(t, p, got, id)
		}
	}
	// An account's partition is a hash of its own bits, carried in the id.
	counts := make([]int, Partitions)
	for i := 0; i < 6400; i++ {
		id := g.NewAccount("acct_", now)
		p, ok := Partition(id)
		require.True(t, ok)
		counts[p]++
	}
	for p, n := range counts {
		require.Greater(t, n, 30, "partition %d is starved: the hash does not spread", p)
	}
}

func TestPartitionRefusesForeignStrings(t *testing.T) {
	for _, s := range []string{"", "acct_", "ct_000001", "ord_01ARZ3NDEKTSV4RRFFQ69G5FAV",
		"pl_" + strings.Repeat("Z", Len), "pl_" + strings.Repeat("u", Len), "pl_" + strings.Repeat("0", Len-1) + "!"} {
		_, ok := Partition(s)
		require.False(t, ok, "%q", s)
	}
}

func TestEncodeDecode(t *testing.T) {
	var raw [20]byte
	require.Equal(t, strings.Repeat("0", Len), encode(&raw))
	for i := range raw {
		raw[i] = 0xff
	}
	require.Equal(t, strings.Repeat("Z", Len), encode(&raw))
	for i := range raw {
		raw[i] = byte(i*37 + 11)
	}
	back, ok := decode(encode(&raw))
	require.True(t, ok)
	require.Equal(t, raw, back)
}

func TestSequenceOverflowBorrowsTheNextMillisecond(t *testing.T) {
	var g Generator
	now := time.Unix(1795000000, 0)
	prev := ""
	for i := 0; i < maxSeq+3; i++ {
		id := g.New("x_", now, 0)
		require.Greater(t, id, prev)
		prev = id
	}
}

func TestPartitionOfLegacyIDsIsStable(t *testing.T) {
	require.Equal(t, PartitionOf("acct_legacy"), PartitionOf("acct_legacy"))
	require.Less(t, PartitionOf("acct_legacy"), Partitions)
	var g Generator
	id := g.New("ord_", time.Now(), 17)
	require.Equal(t, 17, PartitionOf(id))
}

func TestParseFormat(t *testing.T) {
	var g Generator
	id := g.New("svc_test_", time.UnixMilli(1_795_000_000_123), 7)
	cases := []struct {
		name, prefix, id string
		ok               bool
	}{
		{"an id New made", "svc_test_", id, true},
		{"another prefix", "svc_live_", id, false},
		{"one character short", "svc_test_", id[:len(id)-1], false},
		{"one character long", "svc_test_", id + "0", false},
		{"lower case is not the alphabet", "svc_test_", strings.ToLower(id), false},
		{"a hand-made id", "svc_test_", "svc_test_a", false},
		{"U is not in the alphabet", "svc_test_", "svc_test_" + strings.Repeat("U", Len), false},
		{"all zero bits", "svc_test_", "svc_test_" + strings.Repeat("0", Len), true},
		{"all one bits", "svc_test_", "svc_test_" + strings.Repeat("Z", Len), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, ok := Parse(c.prefix, c.id)
			require.Equal(t, c.ok, ok)
			if ok {
				require.Equal(t, c.id, raw.Format(c.prefix), "Format is Parse's inverse")
			}
		})
	}
}

// TestDeriveIsStableAndFresh: a derived id is the same for every call, keeps
// its source's time, sequence and partition (it sorts and routes as its
// source does), and shares none of its random bits with it.
func TestDeriveIsStableAndFresh(t *testing.T) {
	var g Generator
	now := time.Unix(1795000000, 0)
	for p := 0; p < Partitions; p += 7 {
		q := g.New("q_", now, p)
		ord, ok := Derive("ord_", "q_", q)
		require.True(t, ok, q)
		again, _ := Derive("ord_", "q_", q)
		require.Equal(t, ord, again)
		got, ok := Partition(ord)
		require.True(t, ok)
		require.Equal(t, p, got)
		rq, _ := decode(q[2:])
		ro, _ := decode(ord[4:])
		require.Equal(t, rq[:partByte+1], ro[:partByte+1], "time, sequence and partition are the source's")
		differ := 0
		for i := partByte + 1; i < len(rq); i++ {
			for x := rq[i] ^ ro[i]; x != 0; x &= x - 1 {
				differ++
			}
		}
		require.Greater(t, differ, 16, "%s shares its random part with %s", ord, q)
		other, _ := Derive("tr_", "q_", q)
		require.NotEqual(t, ord[4:], other[3:], "the prefix is hashed in")
	}
	for _, bad := range []string{"", "q_", "ord_" + strings.Repeat("0", Len), "q_01ABC", "q_" + strings.Repeat("u", Len),
		"q_" + strings.Repeat("Z", Len)} { // the last carries partition 255
		_, ok := Derive("ord_", "q_", bad)
		require.False(t, ok, "%q", bad)
	}
}

// TestRawTime: an id's time part is the millisecond it was made at.
func TestRawTime(t *testing.T) {
	var g Generator
	for _, at := range []time.Time{time.Unix(0, 0), time.Date(2026, 11, 30, 12, 0, 0, 999_999_999, time.UTC), time.Now()} {
		raw, ok := Parse("q_", g.New("q_", at, 3))
		require.True(t, ok)
		require.Equal(t, at.Truncate(time.Millisecond).UTC(), raw.Time())
	}
}
