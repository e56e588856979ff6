package torture

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

func answer(status int, body string, hdr map[string]string) *client.Response {
	h := http.Header{}
	for k, v := range hdr {
		h.Set(k, v)
	}
	return &client.Response{Status: status, Body: []byte(body), Header: h}
}

// TestClassify: what executed for sure (the handler's answers, stored
// replays included) is final; what did not execute (refused before the
// handler) is retried after the server's wait; no answer, and a 503 that
// is not a stored answer, are unknown.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp *client.Response
		err  error
		want attemptClass
		wait time.Duration
	}{
		{"transport error", nil, errors.New("connection refused"), attUnknown, 200 * time.Millisecond},
		{"201", answer(201, `{"id":"ct_1"}`, nil), nil, attFinal, 0},
		{"400 is an answer", answer(400, `{"error":{"code":"invalid_request","message":"x"}}`, nil), nil, attFinal, 0},
		{"409 invalid_state is an answer", answer(409, `{"error":{"code":"invalid_state","message":"x"}}`, nil), nil, attFinal, 0},
		{"503 recovering", answer(503, `{"error":{"code":"unavailable","message":"x"}}`, nil), nil, attUnknown, 300 * time.Millisecond},
		{"503 stored", answer(503, `{"error":{"code":"unavailable","message":"x"}}`, map[string]string{"Idempotency-Replayed": "true"}), nil, attFinal, 0},
		{"429 waits Retry-After", answer(429, `{"error":{"code":"over_limit","message":"x"}}`, map[string]string{"Retry-After": "2"}), nil, attRefused, 2100 * time.Millisecond},
		{"429 without Retry-After", answer(429, `{}`, nil), nil, attRefused, time.Second},
		{"stale timestamp", answer(401, `{"error":{"code":"stale_timestamp","message":"x"}}`, nil), nil, attRefused, 300 * time.Millisecond},
		{"replayed signature", answer(401, `{"error":{"code":"replayed","message":"x"}}`, nil), nil, attRefused, 300 * time.Millisecond},
		{"auth failed is an answer", answer(401, `{"error":{"code":"auth_failed","message":"x"}}`, nil), nil, attFinal, 0},
		{"in progress", answer(409, `{"error":{"code":"idempotency_in_progress","message":"x"}}`, map[string]string{"Retry-After": "1"}), nil, attRefused, 1100 * time.Millisecond},
		{"Retry-After capped", answer(429, `{}`, map[string]string{"Retry-After": "3600"}), nil, attRefused, 30 * time.Second},
	} {
		cls, wait := classify(tc.resp, tc.err)
		require.Equal(t, tc.want, cls, tc.name)
		require.Equal(t, tc.wait, wait, tc.name)
	}
}

// TestHistory: answers settle requests (2xx acked and replayable when
// keyed, others answered), unanswered attempts then a replay count as
// durable, the history refuses requests past its bound, and the replay
// sample draws half of it from the latest.
func TestHistory(t *testing.T) {
	h := newHistory(4)
	a := &request{idemKey: "k1"}
	require.True(t, h.add(a))
	h.attempt(a, true, false)
	h.attempt(a, false, false)
	h.settle(a, 201, []byte("first"), 3, true)
	require.Equal(t, outAcked, a.outcome)
	require.True(t, a.durableBefore)
	require.Equal(t, 1, h.unknownDurable)

	b := &request{idemKey: "k2"}
	require.True(t, h.add(b))
	h.attempt(b, true, false)
	h.settle(b, 200, []byte("second"), 4, false)
	require.Equal(t, 1, h.unknownFresh)

	c := &request{}
	require.True(t, h.add(c))
	h.settle(c, 409, []byte("no"), 4, false)
	require.Equal(t, outAnswered, c.outcome)

	d := &request{idemKey: "k4"}
	require.True(t, h.add(d))
	h.giveUp(d)
	require.Equal(t, outUnresolved, d.outcome)
	require.False(t, h.add(&request{}), "bounded")
	require.True(t, h.full())
	require.Equal(t, []*request{d}, h.takeUnresolved())
	require.Empty(t, h.takeUnresolved())

	require.Equal(t, []*request{a, b}, h.snapshotReplayable(), "keyed 2xx only, in ack order")
	sample := h.replaySample(4, func(n int) int { return n - 1 })
	require.Equal(t, []*request{b, b, b, b}, sample)
	require.Nil(t, newHistory(1).replaySample(3, func(int) int { return 0 }))
}
