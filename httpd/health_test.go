package httpd

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

// TestHealthClusterPart: /health carries a cluster part only on a
// cluster node (Config.Node), with the partitions the engine runs and its
// store's lag; a single node's answer has no such key.
func TestHealthClusterPart(t *testing.T) {
	ta := newTestAPI(t)
	get := func(s *Server) map[string]json.RawMessage {
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/public/v1/health")
		ctx.Request.Header.SetMethod("GET")
		s.Handler()(&ctx)
		require.Equal(t, 200, ctx.Response.StatusCode(), "%s", ctx.Response.Body())
		var v map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(ctx.Response.Body(), &v))
		return v
	}
	require.NotContains(t, get(ta.s), "cluster")

	node, err := New(Config{BasePath: "/public/v1", Logger: ta.s.cfg.Logger, Started: time.Now().Add(-time.Second), Node: "n7"}, ta.e)
	require.NoError(t, err)
	t.Cleanup(func() { _ = node.Shutdown(context.Background()) })
	require.NoError(t, ta.e.CatchUp(context.Background()))
	require.JSONEq(t, `{"node":"n7","partitions_owned":1,"apply_lag_records":0}`, string(get(node)["cluster"]))
}
