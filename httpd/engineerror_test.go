package httpd

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/actors"
)

// TestEngineErrorCodes: each engine failure a handler can meet answers
// with the contract's code, and every 503 says when to retry.
func TestEngineErrorCodes(t *testing.T) {
	for _, tc := range []struct {
		err    error
		status int
		code   string
		says   string
	}{
		{actors.ErrNoAccount, 401, "auth_failed", "authentication failed"},
		{fmt.Errorf("exec: %w", actors.ErrNotReady), 503, "unavailable", "recovering"},
		{fmt.Errorf("exec: %w", actors.ErrBusy), 503, "unavailable", "capacity"},
		{fmt.Errorf("exec: %w", actors.ErrNotOwner), 503, "unavailable", "moving to another node"},
		{errors.New("deadline"), 503, "unavailable", "same Idempotency-Key"},
	} {
		t.Run(tc.says, func(t *testing.T) {
			var ctx fasthttp.RequestCtx
			rc := &reqCtx{ctx: &ctx}
			rc.engineError(tc.err)
			require.Equal(t, tc.status, ctx.Response.StatusCode())
			require.Contains(t, string(ctx.Response.Body()), `"code":"`+tc.code+`"`)
			require.Contains(t, string(ctx.Response.Body()), tc.says)
			if tc.status == 503 {
				require.Equal(t, "1", string(ctx.Response.Header.Peek("Retry-After")))
			}
		})
	}
}
