package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// requestIDPattern is a Request-Id: req_ and 128 random bits in the ids
// alphabet (Crockford base32).
var requestIDPattern = regexp.MustCompile(`^req_[0-7][0-9A-HJKMNP-TV-Z]{25}$`)

// TestRequestIDs: every answer of the real binary carries its own
// Request-Id (2xx, 4xx, 5xx, the admin listener's too), error bodies keep
// the contract's shape, and the id of a failed request names its line in
// the server's log.
func TestRequestIDs(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir()) // no webhook master key
	acct := srv.createAccount(t, "request ids")
	c := srv.client(t, srv.createKey(t, acct, "read,pay,webhooks"))

	seen := map[string]string{}
	idOf := func(what string, header string) string {
		t.Helper()
		require.Regexp(t, requestIDPattern, header, what)
		require.Empty(t, seen[header], "%s has the id of %s", what, seen[header])
		seen[header] = what
		return header
	}

	ok := call(t, c, "GET", basePath+"/account", "", nil)
	requireStatus(t, ok, 200)
	idOf("2xx", ok.Header.Get("Request-Id"))

	notFound := call(t, c, "GET", basePath+"/contacts/ct_nope", "", nil)
	requireError(t, notFound, 404, "not_found")
	requireContractShape(t, notFound.Body)
	idOf("4xx", notFound.Header.Get("Request-Id"))

	unsigned := callPublic(t, srv.unsigned(t), "GET", basePath+"/account")
	requireError(t, unsigned, 401, "auth_failed")
	idOf("401", unsigned.Header.Get("Request-Id"))

	failed := call(t, c, "POST", basePath+"/webhooks", `{"url":"https://hooks.example.com/in"}`, nil)
	requireError(t, failed, 503, "webhook_encryption_unavailable")
	requireContractShape(t, failed.Body)
	id := idOf("5xx", failed.Header.Get("Request-Id"))

	admin := srv.adminGet(t, "/metrics")
	require.Equal(t, 200, admin.StatusCode)
	idOf("admin", admin.Header.Get("Request-Id"))

	line := awaitLogLine(t, srv, id)
	require.Equal(t, "POST", line["method"])
	require.Equal(t, "/webhooks", line["route"])
	require.EqualValues(t, 503, line["status"])
	require.Equal(t, "webhook_encryption_unavailable", line["code"])
	for other := range seen {
		if other != id {
			require.NotContains(t, srv.Stderr(), other, "only failures are logged")
		}
	}
	srv.Stop(t) // and every line it logged is JSON
}

// requireContractShape: the body is exactly {"error":{"code","message"}},
// nothing added.
func requireContractShape(t testing.TB, body []byte) {
	t.Helper()
	var e map[string]map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	require.Len(t, e, 1, "%s", body)
	require.Len(t, e["error"], 2, "%s", body)
	require.Contains(t, e["error"], "code")
	require.Contains(t, e["error"], "message")
}

// awaitLogLine waits for the server's JSON log line whose request_id is
// id (stderr reaches the test through a pipe) and returns it.
func awaitLogLine(t testing.TB, s *server, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(httpTimeout)
	for {
		for _, l := range strings.Split(s.Stderr(), "\n") {
			if !strings.Contains(l, id) {
				continue
			}
			var v map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &v), "log line %q", l)
			if v["request_id"] == id {
				return v
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log line names request %s within %v; stderr:\n%s", id, httpTimeout, tail(s.Stderr(), 8<<10))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
