package jsonbody

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// TestJSONTextChecks: checkJSONText refuses what encoding/json would let
// through silently (invalid UTF-8 replaced, a repeated key's last value
// kept, keys matched regardless of case) and passes every valid body.
func TestJSONTextChecks(t *testing.T) {
	tests := []struct {
		body string
		ok   bool
	}{
		{`{"name":"a","address":"b"}`, true},
		{`{"a":{"b":1},"c":{"b":2},"d":[{"b":1},{"b":2}]}`, true},
		{`{"k":"\u00e9","K2":"é"}`, true},
		{`{"a":[1,{"x":[]}],"b":"x"}`, true},
		{"{\"name\":\"\xff\"}", false},
		{"{\"name\xc3\":1}", false},
		{`{"name":"a","name":"b"}`, false},
		{`{"name":"a","NAME":"b"}`, false},
		{`{"name":"a","n\u0061me":"b"}`, false},
		{`{"a":{"b":1,"b":2}}`, false},
		{`{"a":[{"b":1,"B":2}]}`, false},
		{"{\"\u212a\":1,\"k\":2}", false}, // the Kelvin sign folds to k, as encoding/json matches it
	}
	for _, tc := range tests {
		err := checkJSONText([]byte(tc.body), nil)
		if tc.ok {
			require.Nil(t, err, "%s", tc.body)
			continue
		}
		require.NotNil(t, err, "%s", tc.body)
		require.Equal(t, 400, err.Status)
		require.Equal(t, domain.CodeInvalidRequest, err.Code)
	}
	// A body encoding/json refuses is left to it.
	require.Nil(t, checkJSONText([]byte(`{"a":`), nil))
}
