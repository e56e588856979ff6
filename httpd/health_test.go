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

// TestPublicURLIsChecked: --public-url names the SIWE challenges' domain
// and URI, so it must be an http(s) URL with a host and nothing after its
// path; anything else stops the server from starting.
func TestPublicURLIsChecked(t *testing.T) {
	ta := newTestAPI(t)
	for _, tc := range []struct {
		url, host, uri string
	}{
		{"https://api.example.com/v1", "api.example.com", "https://api.example.com/v1"},
		{"http://127.0.0.1:8080/public/v1/", "127.0.0.1:8080", "http://127.0.0.1:8080/public/v1"},
		{"ftp://api.example.com/v1", "", ""},
		{"https:///v1", "", ""},
		{"https://user:pw@api.example.com/v1", "", ""},
		{"https://api.example.com/v1?x=1", "", ""},
		{"api.example.com/v1", "", ""},
	} {
		s, err := New(Config{BasePath: "/public/v1", Logger: ta.s.cfg.Logger, PublicURL: tc.url}, ta.e)
		if tc.host == "" {
			require.Error(t, err, tc.url)
			continue
		}
		require.NoError(t, err, tc.url)
		require.Equal(t, tc.host, s.siweHost)
		require.Equal(t, tc.uri, s.siweURI)
		require.NoError(t, s.Shutdown(context.Background()))
	}
}
