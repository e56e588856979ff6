package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// TestHTTPContract checks the conventions of CONTRACT.md at the HTTP
// level: strict bodies, limits, list parameters, idempotency (also across a
// clean restart), planned and unknown routes, and the meta endpoints.
func TestHTTPContract(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	srv := startServer(t, dataDir)
	acct := srv.createAccount(t, "http contract")
	key := srv.createKey(t, acct, "read,pay")
	trader := srv.createKey(t, acct, "trade")
	c := srv.client(t, key)
	contacts := basePath + "/contacts"
	addr := strings.ToLower(eip55[1])
	valid := func(name string) string { return fmt.Sprintf(`{"name":%q,"address":%q}`, name, addr) }

	t.Run("strict JSON bodies", func(t *testing.T) {
		resp := call(t, c, "POST", contacts, fmt.Sprintf(`{"name":"x","address":%q,"nickname":"y"}`, addr), nil)
		requireError(t, resp, 400, "invalid_request")
		require.Contains(t, errorMessage(t, resp.Body), "nickname", "the message names the unknown field")

		for _, body := range []string{
			`{"name":`,
			`not json`,
			`[]`,
			`"a string"`,
			`{"name":"x","address":"` + addr + `"} {}`,
			`{"name":5,"address":"` + addr + `"}`,
			`{"name":"x","address":"` + addr + `",}`,
			"",
		} {
			resp := call(t, c, "POST", contacts, body, nil)
			requireError(t, resp, 400, "invalid_request")
		}
		// Required fields.
		requireError(t, call(t, c, "POST", contacts, `{"address":"`+addr+`"}`, nil), 400, "invalid_request")
		requireError(t, call(t, c, "POST", contacts, `{"name":"no address"}`, nil), 400, "invalid_request")
		requireError(t, call(t, c, "POST", contacts, `{"name":"bad address","address":"0xZZ"}`, nil), 400, "invalid_request")
		// Nothing of the above was stored.
		require.Empty(t, listAllContacts(t, c, 200))
	})

	t.Run("body size limit", func(t *testing.T) {
		over := `{"name":"big","address":"` + addr + `","memo":"` + strings.Repeat("a", 64<<10) + `"}`
		require.Greater(t, len(over), 64<<10)
		requireError(t, call(t, c, "POST", contacts, over, nil), 413, "body_too_large")

		// One byte over the limit, and exactly the limit (valid JSON padded
		// with white space).
		base := valid("exactly 64 KiB")
		atLimit := base + strings.Repeat(" ", 64<<10-len(base))
		require.Len(t, atLimit, 64<<10)
		requireError(t, call(t, c, "POST", contacts, atLimit+" ", nil), 413, "body_too_large")
		resp := call(t, c, "POST", contacts, atLimit, nil)
		requireStatus(t, resp, 201)
		// The connection survives (or is re-made) after a 413.
		requireStatus(t, call(t, c, "GET", contacts, "", nil), 200)

		// The same with a chunked body, whose size is not announced. The
		// server answers before it has read the whole body and closes the
		// connection, so the client may see a reset instead of the 413 (it
		// is still writing): either way the request is refused.
		r := rawRequest{method: "POST", target: contacts + "?chunked=over", body: []byte(atLimit + " "), keyID: key.ID, priv: key.Priv, chunked: true}
		got, err := r.trySend(t, srv.BaseURL)
		if err != nil {
			t.Logf("chunked body over the limit: no answer read (%v)", err)
		} else {
			require.Equal(t, 413, got.Status, "%s", got.Body)
			require.Equal(t, "body_too_large", errorCode(t, got.Body))
		}
		r = rawRequest{method: "POST", target: contacts + "?chunked=at", body: []byte(atLimit), keyID: key.ID, priv: key.Priv, chunked: true}
		got = r.send(t, srv.BaseURL)
		require.Equal(t, 201, got.Status, "%s", got.Body)
	})

	t.Run("list parameters", func(t *testing.T) {
		for _, limit := range []string{"0", "201", "abc", "-1", "1.5", ""} {
			resp := call(t, c, "GET", contacts+"?limit="+limit, "", nil)
			requireError(t, resp, 400, "invalid_request")
		}
		// Unknown query parameters are ignored.
		requireStatus(t, call(t, c, "GET", contacts+"?limit=5&whatever=1", "", nil), 200)
	})

	t.Run("unsupported asset", func(t *testing.T) {
		for _, cur := range []string{"BTC", "ETH", "USD", "XXXX"} {
			resp := call(t, c, "POST", contacts, fmt.Sprintf(`{"name":"x","address":%q,"currency":%q}`, addr, cur), nil)
			requireError(t, resp, 400, "unsupported_asset")
		}
		for _, cur := range []string{"USDC", "USDT", "EURC"} {
			resp := call(t, c, "POST", contacts, fmt.Sprintf(`{"name":"in %s","address":%q,"currency":%q}`, cur, addr, cur), nil)
			requireStatus(t, resp, 201)
		}
	})

	var firstIdem *client.Response
	idemBody := valid("idempotent")
	t.Run("idempotency", func(t *testing.T) {
		h := map[string]string{"Idempotency-Key": "e2e-idem-1"}
		first := call(t, c, "POST", contacts, idemBody, h)
		requireStatus(t, first, 201)
		require.Empty(t, first.Header.Get("Idempotency-Replayed"))
		firstIdem = first

		again := call(t, c, "POST", contacts, idemBody, h)
		requireStatus(t, again, 201)
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		require.Equal(t, string(first.Body), string(again.Body))

		// Same key, different body: refused, not stored.
		reused := call(t, c, "POST", contacts, valid("idempotent but different"), h)
		requireError(t, reused, 422, "idempotency_key_reused")
		require.Empty(t, reused.Header.Get("Idempotency-Replayed"))
		// ...and the original still replays.
		again = call(t, c, "POST", contacts, idemBody, h)
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		require.Equal(t, string(first.Body), string(again.Body))

		// A body the handler cannot decode is another body too: the key's
		// record answers before the decoder does.
		for _, body := range []string{idemBody[:len(idemBody)-1] + `,"extra":1}`, `{"name":`} {
			requireError(t, call(t, c, "POST", contacts, body, h), 422, "idempotency_key_reused")
		}
		// Under a fresh key its 400 is the answer, stored and replayed like
		// any other; a valid body under that key is then 422.
		hm := map[string]string{"Idempotency-Key": "e2e-idem-malformed"}
		bad := call(t, c, "POST", contacts, `{"name":`, hm)
		requireError(t, bad, 400, "invalid_request")
		require.Empty(t, bad.Header.Get("Idempotency-Replayed"))
		again = call(t, c, "POST", contacts, `{"name":`, hm)
		requireError(t, again, 400, "invalid_request")
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		require.Equal(t, string(bad.Body), string(again.Body))
		requireError(t, call(t, c, "POST", contacts, valid("after malformed"), hm), 422, "idempotency_key_reused")

		// The key is scoped to the route: the same key on PATCH of the
		// created contact is a new request.
		id := decodeContact(t, first.Body).ID
		patch := call(t, c, "PATCH", contacts+"/"+id, `{"memo":"patched"}`, h)
		requireStatus(t, patch, 200)
		require.Empty(t, patch.Header.Get("Idempotency-Replayed"))

		// A refusal by the domain is an answer too: stored and replayed.
		hb := map[string]string{"Idempotency-Key": "e2e-idem-refused"}
		badBody := fmt.Sprintf(`{"name":"x","address":%q,"currency":"BTC"}`, addr)
		refused := call(t, c, "POST", contacts, badBody, hb)
		requireError(t, refused, 400, "unsupported_asset")
		again = call(t, c, "POST", contacts, badBody, hb)
		requireError(t, again, 400, "unsupported_asset")
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		require.Equal(t, string(refused.Body), string(again.Body))

		// DELETE takes a key too: the repeat replays the 200, not a 404.
		victim := call(t, c, "POST", contacts, valid("to delete"), nil)
		requireStatus(t, victim, 201)
		vid := decodeContact(t, victim.Body).ID
		hd := map[string]string{"Idempotency-Key": "e2e-idem-delete"}
		del := call(t, c, "DELETE", contacts+"/"+vid, "", hd)
		requireStatus(t, del, 200)
		again = call(t, c, "DELETE", contacts+"/"+vid, "", hd)
		requireStatus(t, again, 200)
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		require.Equal(t, string(del.Body), string(again.Body))
		requireError(t, call(t, c, "DELETE", contacts+"/"+vid, "", nil), 404, "not_found")
	})

	t.Run("idempotency key scope is the API key", func(t *testing.T) {
		// Same account, same Idempotency-Key, another API key: a new request.
		other := srv.client(t, srv.createKey(t, acct, "pay"))
		h := map[string]string{"Idempotency-Key": "e2e-idem-1"}
		resp := call(t, other, "POST", contacts, valid("same key, other API key"), h)
		requireStatus(t, resp, 201)
		require.Empty(t, resp.Header.Get("Idempotency-Replayed"))
	})

	t.Run("concurrent requests with one Idempotency-Key execute once", func(t *testing.T) {
		const n = 24
		body := valid("concurrent idempotent")
		h := map[string]string{"Idempotency-Key": "e2e-idem-concurrent"}
		resps := make([]*client.Response, n)
		// Open n keep-alive connections first, so that the n requests reach
		// the server together, behind one barrier.
		var warm sync.WaitGroup
		for i := 0; i < n; i++ {
			warm.Add(1)
			go func() {
				defer warm.Done()
				_, _ = c.Do(t.Context(), "GET", contacts+"?limit=1", nil, nil)
			}()
		}
		warm.Wait()
		var wg sync.WaitGroup
		barrier := make(chan struct{})
		for i := range resps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-barrier
				resp, err := c.Do(t.Context(), "POST", contacts, []byte(body), h)
				if err == nil {
					resps[i] = resp
				}
			}()
		}
		close(barrier)
		wg.Wait()
		fresh, replayed, inProgress := 0, 0, 0
		var original []byte
		for _, resp := range resps {
			require.NotNil(t, resp, "a request got no answer")
			switch {
			case resp.Status == 201 && resp.Header.Get("Idempotency-Replayed") == "":
				fresh++
				original = resp.Body
			case resp.Status == 201 && resp.Header.Get("Idempotency-Replayed") == "true":
				replayed++
			case resp.Status == 409:
				require.Equal(t, "idempotency_in_progress", errorCode(t, resp.Body))
				inProgress++
			default:
				t.Fatalf("unexpected answer %d %s", resp.Status, resp.Body)
			}
		}
		require.Equal(t, 1, fresh, "exactly one request executes (%d replayed, %d in progress)", replayed, inProgress)
		t.Logf("%d concurrent: 1 executed, %d replayed, %d answered 409 idempotency_in_progress", n, replayed, inProgress)
		// CONTRACT.md: 409 idempotency_in_progress gives Retry-After.
		for _, resp := range resps {
			if resp.Status == 409 {
				ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
				if err != nil || ra < 1 {
					t.Errorf("409 idempotency_in_progress without a valid Retry-After header (got %q): %s", resp.Header.Get("Retry-After"), resp.Body)
					break
				}
			}
		}
		for _, resp := range resps {
			if resp.Status == 201 {
				require.Equal(t, string(original), string(resp.Body))
			}
		}
		// A later retry replays.
		resp := call(t, c, "POST", contacts, body, h)
		requireStatus(t, resp, 201)
		require.Equal(t, "true", resp.Header.Get("Idempotency-Replayed"))
		require.Equal(t, string(original), string(resp.Body))
		n2 := 0
		for _, ct := range listAllContacts(t, c, 200) {
			if ct.Name == "concurrent idempotent" {
				n2++
			}
		}
		require.Equal(t, 1, n2, "contacts created by %d concurrent requests with one key", n)
	})

	t.Run("Idempotency-Key format", func(t *testing.T) {
		ok255 := strings.Repeat("k", 255)
		resp := call(t, c, "POST", contacts, valid("255-char key"), map[string]string{"Idempotency-Key": ok255})
		requireStatus(t, resp, 201)
		resp = call(t, c, "POST", contacts, valid("printable key"), map[string]string{"Idempotency-Key": `~!@#$%^&*()_+{}|:"<>? ` + "`"})
		requireStatus(t, resp, 201)
		for name, k := range map[string]string{
			"256 chars":     strings.Repeat("k", 256),
			"tab":           "a\tb",
			"control char":  "a\x01b",
			"DEL":           "a\x7fb",
			"non-ASCII":     "clé",
			"non-ASCII 255": strings.Repeat("é", 100),
		} {
			resp := call(t, c, "POST", contacts, valid("bad key "+name), map[string]string{"Idempotency-Key": k})
			require.Equal(t, 400, resp.Status, "Idempotency-Key %s: %s", name, resp.Body)
			require.Equal(t, "invalid_request", errorCode(t, resp.Body), "Idempotency-Key %s", name)
		}
	})

	t.Run("webhook routes: scope first, then 404 for an unknown endpoint", func(t *testing.T) {
		wc := srv.client(t, srv.createKey(t, acct, "webhooks"))
		resp := call(t, wc, "POST", basePath+"/webhooks/wh_01M80AG7DGGN82BKWCMHEJCKG8/test", "", nil)
		requireError(t, resp, 404, "not_found")
		requireRateHeaders(t, resp.Header, "webhook test")
		require.Equal(t, "120", resp.Header.Get("X-RateLimit-Limit"), "a write")
		requireStatus(t, call(t, wc, "GET", basePath+"/webhooks", "", nil), 200)
		requireError(t, call(t, c, "GET", basePath+"/webhooks", "", nil), 403, "insufficient_scope")
	})

	t.Run("transfer submit is heavy", func(t *testing.T) {
		resp := call(t, c, "POST", basePath+"/transfers/tr_01M80AG7DGGN82BKWCMHEJCKG8/submit", `{"tx_hash":"0x`+strings.Repeat("ab", 32)+`"}`, nil)
		requireError(t, resp, 404, "not_found")
		requireRateHeaders(t, resp.Header, "transfer submit")
		require.Equal(t, "30", resp.Header.Get("X-RateLimit-Limit"), "POST /transfers/{id}/submit is heavy")
		requireError(t, call(t, srv.client(t, trader), "POST", basePath+"/transfers/tr_01M80AG7DGGN82BKWCMHEJCKG8/submit", `{}`, nil), 403, "insufficient_scope")
	})

	t.Run("unknown routes are 404 not_found", func(t *testing.T) {
		pub := srv.unsigned(t)
		for _, tc := range []struct{ method, target string }{
			{"GET", basePath + "/nope"},
			{"GET", "/nope"},
			{"GET", "/v1/account"}, // the live base path, in the test environment
			{"GET", basePath + "/contacts/ct_x/extra"},
			{"DELETE", basePath + "/account"},
		} {
			requireError(t, callPublic(t, pub, tc.method, tc.target), 404, "not_found")
			requireError(t, call(t, c, tc.method, tc.target, "", nil), 404, "not_found")
		}
	})

	t.Run("meta endpoints", func(t *testing.T) {
		pub := srv.unsigned(t)
		resp := callPublic(t, pub, "GET", basePath+"/health")
		requireStatus(t, resp, 200)
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		h := object(t, resp.Body)
		require.Equal(t, "ok", h["status"])
		require.Equal(t, "1.0.0", h["version"])
		idx, err := h["wal_index"].(json.Number).Int64()
		require.NoError(t, err, "wal_index %v", h["wal_index"])
		require.Positive(t, idx, "the log holds the account, keys and contacts")
		require.Contains(t, h, "chain")

		resp = callPublic(t, pub, "GET", basePath+"/time")
		requireStatus(t, resp, 200)
		tm := object(t, resp.Body)
		require.Len(t, tm, 1, "time: %s", resp.Body)
		unix, err := tm["unix"].(json.Number).Int64()
		require.NoError(t, err)
		require.InDelta(t, time.Now().Unix(), unix, 5)

		resp = callPublic(t, pub, "GET", basePath+"/openapi.json")
		requireStatus(t, resp, 200)
		require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"), resp.Header.Get("Content-Type"))
		doc := object(t, resp.Body)
		require.Equal(t, "3.1.0", doc["openapi"])
		info, _ := doc["info"].(map[string]any)
		require.Equal(t, "1.0.0", info["version"])
		paths, _ := doc["paths"].(map[string]any)
		found := false
		for p := range paths {
			found = found || strings.HasSuffix(p, "/contacts")
		}
		require.True(t, found, "no /contacts path in the OpenAPI document")

		// Public routes need no signature, and a signature does not hurt.
		requireStatus(t, call(t, c, "GET", basePath+"/time", "", nil), 200)
	})

	t.Run("replay after a clean restart", func(t *testing.T) {
		require.NotNil(t, firstIdem, "the idempotency subtest must have run")
		before := listAllContacts(t, c, 200)
		revoked := srv.createKey(t, acct, "read,pay")
		srv.revokeKey(t, revoked.ID)
		srv.admin(t, "accounts", "update", acct, "--kyc", "rejected", "--pay=false")
		srv.Stop(t)
		srv = startServer(t, dataDir)
		c = srv.client(t, key)

		// A timestamp from before the restart is refused, even a fresh one.
		r := rawRequest{method: "GET", target: basePath + "/account?before-start", keyID: key.ID, priv: key.Priv,
			ts: strconv.FormatInt(srv.Launched.Unix()-1, 10)}
		stale := r.send(t, srv.BaseURL)
		require.Equal(t, 401, stale.Status, "%s", stale.Body)
		require.Equal(t, "stale_timestamp", errorCode(t, stale.Body))
		requireServerTime(t, stale)

		again := call(t, c, "POST", contacts, idemBody, map[string]string{"Idempotency-Key": "e2e-idem-1"})
		requireStatus(t, again, 201)
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		require.True(t, bytes.Equal(firstIdem.Body, again.Body), "replay after restart differs:\n%s\n%s", firstIdem.Body, again.Body)
		requireError(t, call(t, c, "POST", contacts, valid("other"), map[string]string{"Idempotency-Key": "e2e-idem-1"}), 422, "idempotency_key_reused")

		require.Equal(t, before, listAllContacts(t, c, 200), "contacts changed across a clean restart")

		// Revocations and account changes are durable too.
		requireError(t, call(t, srv.client(t, revoked), "GET", basePath+"/account", "", nil), 401, "auth_failed")
		resp := call(t, c, "GET", basePath+"/account", "", nil)
		requireStatus(t, resp, 200)
		a := object(t, resp.Body)
		require.Equal(t, "rejected", a["kyc_status"])
		require.Equal(t, map[string]any{"swap": true, "pay": false}, a["permissions"])
	})
}
