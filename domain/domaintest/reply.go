// Package domaintest holds test support for code that answers with
// domain replies, as net/http/httptest does for net/http: one check that
// a refusal is CONTRACT.md's, so the packages that fuzz their refusals do
// not each keep a copy of the error table.
package domaintest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// RequireContractReply fails t unless r is a refusal exactly as
// CONTRACT.md shapes it: the body is {"error":{"code","message"}} and
// nothing else, the code is in domain.ErrorTable, the status is that
// row's, and the message says something.
func RequireContractReply(t testing.TB, r domain.Reply) {
	t.Helper()
	var e map[string]map[string]string
	require.NoError(t, json.Unmarshal(r.Body, &e), "%s", r.Body)
	require.Len(t, e, 1, "%s", r.Body)
	inner, ok := e["error"]
	require.True(t, ok, "no error object: %s", r.Body)
	require.Len(t, inner, 2, "%s", r.Body)
	code, ok := inner["code"]
	require.True(t, ok, "no code: %s", r.Body)
	status, ok := domain.StatusOfCode(code)
	require.True(t, ok, "not a contract code: %s", r.Body)
	require.Equal(t, status, r.Status, "%s", r.Body)
	require.NotEmpty(t, inner["message"], "%s", r.Body)
}
