package e2e

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// headerInt reads an integer response header.
func headerInt(t testing.TB, resp *client.Response, name string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(resp.Header.Get(name), 10, 64)
	require.NoError(t, err, "%s: header %s = %q", resp.Target, name, resp.Header.Get(name))
	return v
}

// requireOverLimit requires a 429 over_limit with the class's limit, no
// remaining slot, a reset in the coming minute and a Retry-After.
func requireOverLimit(t testing.TB, resp *client.Response, limit int64) {
	t.Helper()
	requireError(t, resp, 429, "over_limit")
	require.Equal(t, limit, headerInt(t, resp, "X-RateLimit-Limit"))
	require.Equal(t, int64(0), headerInt(t, resp, "X-RateLimit-Remaining"))
	retry := headerInt(t, resp, "Retry-After")
	require.True(t, retry >= 1 && retry <= 60, "Retry-After %d", retry)
	now := time.Now().Unix()
	reset := headerInt(t, resp, "X-RateLimit-Reset")
	require.True(t, reset >= now-2 && reset <= now+61, "X-RateLimit-Reset %d, now %d", reset, now)
}

// TestRateLimits exhausts the per-key windows of CONTRACT.md: 120 writes,
// 600 reads and 30 heavy requests a minute, each class on its own.
func TestRateLimits(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir())
	acct := srv.createAccount(t, "rate limits")

	t.Run("writes: 120, then 429", func(t *testing.T) {
		c := srv.client(t, srv.createKey(t, acct, "read,pay"))
		// Invalid bodies are cheap and still count as writes.
		firstAdmitted := time.Now()
		for i := 0; i < 120; i++ {
			resp := call(t, c, "POST", basePath+"/contacts", `{"name":`, nil)
			requireError(t, resp, 400, "invalid_request")
			require.Equal(t, int64(120), headerInt(t, resp, "X-RateLimit-Limit"))
			require.Equal(t, int64(119-i), headerInt(t, resp, "X-RateLimit-Remaining"), "write %d", i+1)
		}
		over := call(t, c, "POST", basePath+"/contacts", `{"name":`, nil)
		requireOverLimit(t, over, 120)
		// The first slot frees 60 s after the first admission.
		elapsed := int64(time.Since(firstAdmitted)/time.Second) + 1
		require.GreaterOrEqual(t, headerInt(t, over, "Retry-After"), 60-elapsed-1, "Retry-After")
		require.GreaterOrEqual(t, headerInt(t, over, "X-RateLimit-Reset"), firstAdmitted.Unix()+59, "X-RateLimit-Reset")
		// A valid write is refused too (and so does not execute), as are
		// PATCH and DELETE: one class.
		requireOverLimit(t, call(t, c, "POST", basePath+"/contacts", contactBodyString("refused"), nil), 120)
		requireOverLimit(t, call(t, c, "PATCH", basePath+"/contacts/ct_x", `{}`, nil), 120)
		requireOverLimit(t, call(t, c, "DELETE", basePath+"/contacts/ct_x", "", nil), 120)
		// Reads are a class of their own.
		resp := call(t, c, "GET", basePath+"/contacts", "", nil)
		requireStatus(t, resp, 200)
		require.JSONEq(t, `{"data":[],"has_more":false,"next_cursor":null}`, string(resp.Body), "a refused write executed")
		require.Equal(t, int64(600), headerInt(t, resp, "X-RateLimit-Limit"))
	})

	t.Run("reads: 600, then 429", func(t *testing.T) {
		c := srv.client(t, srv.createKey(t, acct, "read,pay"))
		const workers, each = 6, 100
		var wg sync.WaitGroup
		errs := make(chan string, workers*each)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					resp, err := c.Do(t.Context(), "GET", basePath+"/account", nil, nil)
					switch {
					case err != nil:
						errs <- err.Error()
					case resp.Status != 200:
						errs <- string(resp.Body)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("read refused before 600: %s", e)
		}
		require.False(t, t.Failed())
		requireOverLimit(t, call(t, c, "GET", basePath+"/account", "", nil), 600)
		requireOverLimit(t, call(t, c, "GET", basePath+"/contacts", "", nil), 600)
		// Writes are still admitted.
		resp := call(t, c, "POST", basePath+"/contacts", contactBodyString("after reads"), nil)
		requireStatus(t, resp, 201)
		require.Equal(t, int64(120), headerInt(t, resp, "X-RateLimit-Limit"))
		require.Equal(t, int64(119), headerInt(t, resp, "X-RateLimit-Remaining"))
	})

	t.Run("heavy: 30, then 429, and they count as writes", func(t *testing.T) {
		c := srv.client(t, srv.createKey(t, acct, "trade,pay"))
		for i := 0; i < 30; i++ {
			// An invalid quote request: 400, but rate limited first.
			resp := call(t, c, "POST", basePath+"/fx/quotes", `{}`, nil)
			require.NotEqual(t, 429, resp.Status, "heavy %d: %s", i+1, resp.Body)
			require.Equal(t, int64(30), headerInt(t, resp, "X-RateLimit-Limit"))
			require.Equal(t, int64(29-i), headerInt(t, resp, "X-RateLimit-Remaining"), "heavy %d", i+1)
		}
		requireOverLimit(t, call(t, c, "POST", basePath+"/fx/quotes", `{}`, nil), 30)
		// 30 of the 120 writes are used.
		resp := call(t, c, "POST", basePath+"/contacts", `{"name":`, nil)
		requireError(t, resp, 400, "invalid_request")
		require.Equal(t, int64(120), headerInt(t, resp, "X-RateLimit-Limit"))
		require.Equal(t, int64(89), headerInt(t, resp, "X-RateLimit-Remaining"))
	})

	t.Run("keys are limited separately", func(t *testing.T) {
		a := srv.client(t, srv.createKey(t, acct, "pay"))
		b := srv.client(t, srv.createKey(t, acct, "pay"))
		for i := 0; i < 120; i++ {
			requireError(t, call(t, a, "POST", basePath+"/contacts", `{}`, nil), 400, "invalid_request")
		}
		requireOverLimit(t, call(t, a, "POST", basePath+"/contacts", `{}`, nil), 120)
		resp := call(t, b, "POST", basePath+"/contacts", `{}`, nil)
		requireError(t, resp, 400, "invalid_request")
		require.Equal(t, int64(119), headerInt(t, resp, "X-RateLimit-Remaining"))
	})
}

// TestPublicRateLimit checks the unauthenticated routes' 60 requests a
// minute per client address, on a server of its own.
func TestPublicRateLimit(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir())
	pub := srv.unsigned(t)
	// Every route without a key shares the IP's window: the meta routes
	// and a payer's link page and submit (here of no link, and without a
	// body: answered, and counted all the same).
	targets := []struct {
		method, path string
		status       int
	}{
		{"GET", basePath + "/time", 200}, {"GET", basePath + "/health", 200}, {"GET", basePath + "/openapi.json", 200},
		{"GET", basePath + "/pay/pl_nope", 404}, {"POST", basePath + "/pay/pl_nope/submit", 400},
	}
	for i := 0; i < 60; i++ {
		tg := targets[i%len(targets)]
		requireStatus(t, callPublic(t, pub, tg.method, tg.path), tg.status)
	}
	for _, tg := range targets {
		requireOverLimit(t, callPublic(t, pub, tg.method, tg.path), 60)
	}
}

// contactBodyString is a valid POST /contacts body.
func contactBodyString(name string) string { return string(contactBody(name, randomAddress())) }
