package httpd

import (
	"testing"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/internal/flatjson"
	"github.com/stretchr/testify/require"
)

// TestRequestBodiesAreFlat: the bodies the API decodes on its hot paths
// are types the fast path fills (or this change bought nothing).
func TestRequestBodiesAreFlat(t *testing.T) {
	for _, v := range []any{&domain.CreateContact{}, &domain.UpdateContact{}, &domain.CreateChallenge{},
		&domain.RegisterWallet{}, &domain.UpdateWallet{}, &fx.QuoteRequest{}, &fx.AcceptRequest{}, &fx.SubmitRequest{}} {
		require.True(t, flatjson.Decode([]byte(`{}`), v), "%T", v)
	}
	usdc := "USDC"
	var c domain.CreateContact
	require.True(t, flatjson.Decode([]byte(`{"name":"n","address":"0xab","currency":"USDC","memo":null}`), &c))
	require.Equal(t, domain.CreateContact{Name: "n", Address: "0xab", Currency: &usdc}, c)
}

func TestEmptyBody(t *testing.T) {
	require.Nil(t, emptyBody(nil))
	require.Nil(t, emptyBody([]byte(" {} ")))
	require.NotNil(t, emptyBody([]byte(`{"x":1}`)))
}
