package connect

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// node is a JSON-RPC endpoint answering eth_blockNumber with head, or,
// when frozen, never answering (the caller's deadline ends the call).
type node struct {
	head   atomic.Uint64
	frozen atomic.Bool
}

func (n *node) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	if n.frozen.Load() {
		<-r.Context().Done()
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x`+strconv.FormatUint(n.head.Load(), 16)+`"}`)
}

// While the node does not answer (frozen, then gone), HeadOrLast shows the
// last head read, marked not fresh; a chain never read has none to show.
func TestHeadOrLastShowsTheLastHeadWhileTheNodeIsAway(t *testing.T) {
	n := &node{}
	srv := httptest.NewServer(n)
	defer srv.Close()
	client, err := dialRPC(t.Context(), srv.URL)
	require.NoError(t, err)
	c := &Chain{Client: client}
	defer client.Close()
	headOrLast := func() (uint64, bool, bool) {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		return c.HeadOrLast(ctx)
	}

	n.frozen.Store(true)
	_, _, ok := headOrLast()
	require.False(t, ok, "no head was ever read")

	n.frozen.Store(false)
	n.head.Store(41)
	head, fresh, ok := headOrLast()
	require.Equal(t, []any{uint64(41), true, true}, []any{head, fresh, ok})
	n.head.Store(42)
	head, fresh, ok = headOrLast()
	require.Equal(t, []any{uint64(42), true, true}, []any{head, fresh, ok})

	n.frozen.Store(true)
	head, fresh, ok = headOrLast()
	require.Equal(t, []any{uint64(42), false, true}, []any{head, fresh, ok}, "frozen")
	srv.CloseClientConnections()
	srv.Close()
	head, fresh, ok = headOrLast()
	require.Equal(t, []any{uint64(42), false, true}, []any{head, fresh, ok}, "gone")
}

func TestUnavailableIsTheContractsAnswer(t *testing.T) {
	e := Unavailable()
	require.Equal(t, 503, e.Status)
	require.Equal(t, domain.CodeUnavailable, e.Code)
	require.Equal(t, 1, e.RetryAfter, "Retry-After: 1")
	require.NotContains(t, e.Message, "http", "the node is not named to callers")
}
