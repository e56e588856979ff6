package domain

import (
	"testing"

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
