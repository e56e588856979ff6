package domain

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClaimLogOnceEver(t *testing.T) {
	c := newClock()
	s := NewClaimState()
	claim := func(i uint64, by string) Outcome {
		out := s.Handle(Request{Cmd: ClaimLog{TxHash: hashFund, LogIndex: i, By: by}}, c.env())
		for k := range out.Events {
			s.Apply(&out.Events[k])
		}
		return out
	}
	first := claim(2, "tr_a")
	require.Len(t, first.Events, 1)
	require.Nil(t, first.Err)
	again := claim(2, "tr_a")
	require.Empty(t, again.Events, "the same record again: granted, nothing new")
	require.Nil(t, again.Err)
	other := claim(2, "tr_b")
	require.Equal(t, CodeTxAlreadyUsed, other.Err.Code)
	require.Equal(t, 409, other.Reply.Status)
	require.Nil(t, claim(3, "tr_b").Err, "another log of the same tx is its own")
	require.Equal(t, "tr_a", s.ClaimedBy(2))
	require.Equal(t, CodeInvalidRequest, claim(4, "").Err.Code)
	bad := s.Handle(Request{Cmd: ClaimLog{TxHash: "0x12", LogIndex: 1, By: "tr_c"}}, c.env())
	require.Equal(t, 400, bad.Reply.Status)

	// The codec round-trips, and a second owner of one log cannot be applied.
	back, err := UnmarshalClaim(MarshalClaim(nil, first.Events[0].Claim))
	require.NoError(t, err)
	require.Equal(t, first.Events[0].Claim, back)
	require.Panics(t, func() { s.Apply(&Event{Kind: EvClaimPut, Claim: &Claim{TxHash: hashFund, LogIndex: 2, By: "tr_z"}}) })
	require.Equal(t, "txc_"+hashFund[2:], ClaimID(hashFund))
	k, ok := KindOf(ClaimID(hashFund))
	require.True(t, ok)
	require.Equal(t, KindClaim, k)
	require.Equal(t, "00000000000000000012", ClaimKey(12))
}

// TestClaimProbe: a probe claims nothing; it is 409 tx_already_used when a
// log of the transaction confirmed another record (the lowest such log
// named), and 200 when none did or only the asking record's did.
func TestClaimProbe(t *testing.T) {
	c := newClock()
	probe := func(s *ClaimState, by string) Outcome {
		return s.Handle(Request{Cmd: ClaimLog{TxHash: hashFund, LogIndex: 9, By: by, Probe: true}}, c.env())
	}
	held := NewClaimState()
	for _, cl := range []*Claim{{TxHash: hashFund, LogIndex: 5, By: "tr_a"}, {TxHash: hashFund, LogIndex: 3, By: "tr_a"}, {TxHash: hashFund, LogIndex: 7, By: "tr_b"}} {
		held.Apply(&Event{Kind: EvClaimPut, Claim: cl})
	}
	onlyB := NewClaimState()
	onlyB.Apply(&Event{Kind: EvClaimPut, Claim: &Claim{TxHash: hashFund, LogIndex: 1, By: "tr_b"}})
	for _, tc := range []struct {
		name   string
		s      *ClaimState
		by     string
		status int
		msg    string
	}{
		{"never claimed", NewClaimState(), "tr_c", 200, ""},
		{"claimed by the asker only", onlyB, "tr_b", 200, ""},
		{"claimed by others", held, "tr_c", 409, "log 3 already confirmed another record"},
		{"claimed by the asker and another", held, "tr_b", 409, "log 3 already confirmed"},
		{"another record before the asker's log", held, "tr_a", 409, "log 7 already confirmed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(tc.s.Claims)
			out := probe(tc.s, tc.by)
			require.Empty(t, out.Events, "a probe claims nothing")
			require.Len(t, tc.s.Claims, before)
			require.Equal(t, tc.status, out.Reply.Status)
			if tc.status == 409 {
				require.Equal(t, CodeTxAlreadyUsed, out.Err.Code)
				require.Contains(t, out.Err.Message, tc.msg)
			} else {
				require.Nil(t, out.Err)
			}
		})
	}
}
