package client

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/httpd"
)

// The SDK is held to the OpenAPI document the server publishes, rendered
// from the server's own route table (httpd.OpenAPIDocument).

var (
	docOnce  sync.Once
	docBytes []byte
	docErr   error
)

func openAPIBytes(t *testing.T) []byte {
	t.Helper()
	docOnce.Do(func() { docBytes, docErr = httpd.OpenAPIDocument(DefaultBasePath, "http://127.0.0.1:8080") })
	require.NoError(t, docErr)
	return docBytes
}

func openAPIDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	require.NoError(t, json.Unmarshal(openAPIBytes(t), &doc))
	return doc
}

// opInfo is one operation of the document.
type opInfo struct {
	method, path, id string
	public           bool   // security: []
	idem             bool   // takes the IdempotencyKey parameter
	query            bool   // takes query parameters
	body             string // request body schema ("" none)
	result           string // success body schema ("" none or not a $ref)
	resultType       string // success content type
}

// docOperations are the document's operations by "METHOD /path".
func docOperations(t *testing.T) map[string]opInfo {
	t.Helper()
	out := map[string]opInfo{}
	for path, item := range openAPIDoc(t)["paths"].(map[string]any) {
		for m, raw := range item.(map[string]any) {
			op := raw.(map[string]any)
			info := opInfo{method: strings.ToUpper(m), path: path, id: op["operationId"].(string)}
			info.public = len(op["security"].([]any)) == 0
			for _, p := range asSlice(op["parameters"]) {
				if ref, _ := p.(map[string]any)["$ref"].(string); strings.HasSuffix(ref, "/IdempotencyKey") {
					info.idem = true
				}
				if p.(map[string]any)["in"] == "query" {
					info.query = true
				}
			}
			if rb, ok := op["requestBody"].(map[string]any); ok {
				info.body = refName(rb["content"].(map[string]any)["application/json"].(map[string]any)["schema"])
			}
			for status, r := range op["responses"].(map[string]any) {
				if status[0] != '2' {
					continue
				}
				for ct, media := range r.(map[string]any)["content"].(map[string]any) {
					info.resultType = ct
					info.result = refName(media.(map[string]any)["schema"])
				}
			}
			out[info.method+" "+path] = info
		}
	}
	return out
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// refName is the component a {"$ref": "#/components/schemas/X"} names.
func refName(v any) string {
	m, _ := v.(map[string]any)
	ref, _ := m["$ref"].(string)
	return strings.TrimPrefix(ref, "#/components/schemas/")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// schemaCompiler compiles the document's component schemas (JSON Schema
// 2020-12, formats asserted).
func schemaCompiler(t *testing.T) *jsonschema.Compiler {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(openAPIBytes(t)))
	require.NoError(t, err)
	require.NoError(t, c.AddResource(schemaDocURL, v))
	return c
}

const schemaDocURL = "https://fxd.invalid/openapi.json"

func validateAgainst(t *testing.T, c *jsonschema.Compiler, schema, instance string) error {
	t.Helper()
	s, err := c.Compile(schemaDocURL + "#/components/schemas/" + schema)
	require.NoError(t, err, schema)
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	require.NoError(t, err, instance)
	return s.Validate(v)
}
