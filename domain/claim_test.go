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
