package domain

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOrderHandleIdempotency: an order keeps the answers of requests aimed
// at it, refusals included, and replays them byte for byte; another body
// under the same key is 422; without a key nothing is stored.
func TestOrderHandleIdempotency(t *testing.T) {
	s := orderAt(RouteAMM, OrderAccepted)
	key := &IdemRequest{Scope: IdemScope("svc_test_k", "POST", "/public/v1/fx/orders/ord_000001/submit", "k"), BodyHash: sha256.Sum256([]byte("a"))}
	env := fixedEnv(t, tIn)

	out := s.Handle(Request{Cmd: SubmitAMMSignature{Signature: goodSig}, Idem: key}, env)
	require.Equal(t, 400, out.Reply.Status, "unverified")
	require.Len(t, out.Events, 1)
	require.Equal(t, EvIdemPut, out.Events[0].Kind)
	for i := range out.Events {
		s.Apply(&out.Events[i])
	}
	again := s.Handle(Request{Cmd: SubmitAMMSignature{Signature: goodSig, Verified: true}, Idem: key}, env)
	require.True(t, again.Replayed)
	require.Equal(t, out.Reply, again.Reply, "the stored refusal, not a new decision")
	require.Empty(t, again.Events)

	other := *key
	other.BodyHash = sha256.Sum256([]byte("b"))
	require.Equal(t, 422, s.Handle(Request{Cmd: SubmitAMMSignature{Signature: goodSig, Verified: true}, Idem: &other}, env).Reply.Status)

	plain := s.Handle(Request{Cmd: SubmitAMMSignature{Signature: goodSig, Verified: true}}, env)
	require.Equal(t, 200, plain.Reply.Status)
	require.Len(t, plain.Events, 1)
	require.Equal(t, EvOrderPut, plain.Events[0].Kind)

	spec := s.Clone().(*OrderState)
	fresh := *key
	fresh.Scope += "2"
	out = spec.Handle(Request{Cmd: ExpireOrder{}, Idem: &fresh}, env)
	for i := range out.Events {
		spec.Apply(&out.Events[i])
	}
	require.True(t, spec.InFlight(s, fresh.Scope, env.Now), "decided, not yet committed")
	require.False(t, s.InFlight(s, fresh.Scope, env.Now))
}

// TestOrderIdemBound: an order holds at most MaxIdemPerOrder live answers;
// the next new key is 503 and stores nothing.
func TestOrderIdemBound(t *testing.T) {
	s := orderAt(RouteAMM, OrderAccepted)
	env := fixedEnv(t, tIn)
	for i := 0; i < MaxIdemPerOrder; i++ {
		k := &IdemRequest{Scope: IdemScope("svc_test_k", "POST", "/p", string(rune('A'+i))), BodyHash: sha256.Sum256(nil)}
		out := s.Handle(Request{Cmd: ExpireOrder{}, Idem: k}, env)
		require.Len(t, out.Events, 1)
		s.Apply(&out.Events[0])
	}
	k := &IdemRequest{Scope: IdemScope("svc_test_k", "POST", "/p", "last"), BodyHash: sha256.Sum256(nil)}
	out := s.Handle(Request{Cmd: ExpireOrder{}, Idem: k}, env)
	require.Equal(t, 503, out.Reply.Status)
	require.Empty(t, out.Events)
}
