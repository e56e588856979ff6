package client

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCodesAreTheContractsTable: the Code* constants are exactly the codes
// of the Error schema's enum, which the server builds from CONTRACT.md's
// error table, so the SDK's copy cannot drift from it.
func TestCodesAreTheContractsTable(t *testing.T) {
	schemas := openAPIDoc(t)["components"].(map[string]any)["schemas"].(map[string]any)
	code := schemas["Error"].(map[string]any)["properties"].(map[string]any)["error"].(map[string]any)["properties"].(map[string]any)["code"].(map[string]any)
	var want []string
	for _, c := range asSlice(code["enum"]) {
		want = append(want, c.(string))
	}
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	require.NoError(t, err)
	var have []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Code") || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			require.NoError(t, err)
			have = append(have, s)
		}
		return true
	})
	sort.Strings(want)
	sort.Strings(have)
	require.Equal(t, want, have)
}
