package domaintest

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// recorder is the test's testing.TB but notes a failure instead of
// failing the test, so the check's refusals can be tested. FailNow ends
// the goroutine, as testing's does.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow() {
	r.failed = true
	runtime.Goexit()
}

// fails reports whether RequireContractReply refuses reply.
func fails(t *testing.T, reply domain.Reply) bool {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		RequireContractReply(rec, reply)
	}()
	<-done
	return rec.failed
}

func TestRequireContractReply(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		ok     bool
	}{
		{"contract", 400, `{"error":{"code":"invalid_request","message":"amount must be more than 0"}}`, true},
		{"another row", 502, `{"error":{"code":"no_quote_available","message":"no rail"}}`, true},
		{"not JSON", 400, `invalid_request`, false},
		{"unknown code", 400, `{"error":{"code":"bad_thing","message":"x"}}`, false},
		{"the code's status is another", 409, `{"error":{"code":"invalid_request","message":"x"}}`, false},
		{"empty message", 400, `{"error":{"code":"invalid_request","message":""}}`, false},
		{"no message", 400, `{"error":{"code":"invalid_request","detail":"x"}}`, false},
		{"a field added", 400, `{"error":{"code":"invalid_request","message":"x","field":"amount"}}`, false},
		{"a key beside error", 400, `{"error":{"code":"invalid_request","message":"x"},"request_id":"r"}`, false},
		{"code not a string", 400, `{"error":{"code":400,"message":"x"}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, !tc.ok, fails(t, domain.Reply{Status: tc.status, Body: []byte(tc.body)}))
		})
	}
	// Every error the domain renders passes.
	for _, e := range []*domain.Error{domain.ErrInvalid("x"), domain.ErrNotFound("order"), domain.ErrQuoteExpired("q_1"),
		domain.ErrWebhookEncryptionUnavailable(), domain.ErrKeyReused()} {
		require.False(t, fails(t, e.Reply()), "%v", e)
	}
}
