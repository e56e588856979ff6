package httpd

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAdminClusterRoutes: on a single node the cluster routes answer 404
// in words (fxd cluster status printed "status 404" before); on a cluster
// node they serve the map and remove peers.
func TestAdminClusterRoutes(t *testing.T) {
	e := newTestAPI(t).e
	do := func(a *Admin, method, path, body string) (int, string) {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testAdminToken)
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}

	single := NewAdmin(e, nil, nil, testAdminToken, t.TempDir())
	for _, r := range [][2]string{{"GET", "/admin/cluster"}, {"POST", "/admin/cluster/remove-peer"}} {
		code, body := do(single, r[0], r[1], `{"node":"n1"}`)
		require.Equal(t, 404, code, body)
		require.Contains(t, body, `"code":"not_found"`)
		require.Contains(t, body, "this node is not in a cluster")
	}

	var removed []string
	node := NewAdmin(e, nil, nil, testAdminToken, t.TempDir()).WithCluster(ClusterAdmin{
		Status: func(context.Context) (any, error) { return map[string]any{"partitions": 64}, nil },
		RemovePeer: func(_ context.Context, n string) error {
			if n == "busy" {
				return errors.New("no leader")
			}
			removed = append(removed, n)
			return nil
		},
	})
	code, body := do(node, "GET", "/admin/cluster", "")
	require.Equal(t, 200, code, body)
	require.JSONEq(t, `{"partitions":64}`, body)
	code, body = do(node, "POST", "/admin/cluster/remove-peer", `{"node":"n1"}`)
	require.Equal(t, 200, code, body)
	require.JSONEq(t, `{"removed":"n1"}`, body)
	code, body = do(node, "POST", "/admin/cluster/remove-peer", `{}`)
	require.Equal(t, 400, code, body)
	code, body = do(node, "POST", "/admin/cluster/remove-peer", `{"node":"busy"}`)
	require.Equal(t, 503, code, body)
	require.Equal(t, []string{"n1"}, removed)
}
