package e2e

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// EIP-55's own test vectors: lower-case input, checksummed output.
var eip55 = []string{
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
	"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
	"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
}

// requireContactShape requires exactly the contact fields of CONTRACT.md,
// with ids and times in their formats, and returns the contact.
func requireContactShape(t testing.TB, body []byte) contact {
	t.Helper()
	obj := object(t, body)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	require.Equal(t, []string{"address", "created_at", "currency", "id", "memo", "name", "updated_at"}, keys, "contact fields of %s", body)
	c := decodeContact(t, body)
	require.True(t, strings.HasPrefix(c.ID, "ct_") && len(c.ID) > len("ct_"), "contact id %q", c.ID)
	for _, ts := range []string{c.CreatedAt, c.UpdatedAt} {
		p, err := time.Parse(time.RFC3339, ts)
		require.NoError(t, err, "time %q is not RFC 3339", ts)
		require.Equal(t, time.UTC, p.Location(), "time %q is not UTC", ts)
		require.True(t, strings.HasSuffix(ts, "Z"), "time %q is not UTC (Z)", ts)
		require.InDelta(t, time.Now().Unix(), p.Unix(), 600, "time %q is not near now", ts)
	}
	return c
}

// TestContactsLifecycle walks a contact through create, list, update, get
// and delete, and checks the isolation of accounts.
func TestContactsLifecycle(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir())
	acct := srv.createAccount(t, "contacts")
	other := srv.createAccount(t, "someone else")
	c := srv.client(t, srv.createKey(t, acct, "read,pay"))
	oc := srv.client(t, srv.createKey(t, other, "pay"))
	contacts := basePath + "/contacts"

	// Create: all-lower and all-upper case addresses (no checksum) come
	// back EIP-55 checksummed; optional fields absent are null.
	var created []contact
	for i, want := range eip55 {
		body := fmt.Sprintf(`{"name":"Payee %d","address":%q}`, i, strings.ToLower(want))
		if i%2 == 1 {
			body = fmt.Sprintf(`{"name":"Payee %d","address":%q,"currency":"USDC","memo":"invoice %d"}`, i, "0x"+strings.ToUpper(want[2:]), i)
		}
		resp := call(t, c, "POST", contacts, body, nil)
		requireStatus(t, resp, 201)
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		require.Empty(t, resp.Header.Get("Idempotency-Replayed"))
		got := requireContactShape(t, resp.Body)
		require.Equal(t, fmt.Sprintf("Payee %d", i), got.Name)
		require.Equal(t, want, got.Address, "address must be EIP-55 checksummed")
		require.Equal(t, got.CreatedAt, got.UpdatedAt)
		if i%2 == 1 {
			require.Equal(t, "USDC", *got.Currency)
			require.Equal(t, fmt.Sprintf("invoice %d", i), *got.Memo)
		} else {
			require.Nil(t, got.Currency)
			require.Nil(t, got.Memo)
		}
		created = append(created, got)
	}
	// A checksummed address passes as is; a mixed-case one with a bad
	// checksum is refused.
	resp := call(t, c, "POST", contacts, fmt.Sprintf(`{"name":"Checksummed","address":%q}`, eip55[0]), nil)
	requireStatus(t, resp, 201)
	created = append(created, requireContactShape(t, resp.Body))
	bad := eip55[0][:2] + strings.ToLower(eip55[0][2:3]) + strings.ToUpper(eip55[0][3:4]) + eip55[0][4:]
	require.NotEqual(t, eip55[0], bad)
	resp = call(t, c, "POST", contacts, fmt.Sprintf(`{"name":"Typo","address":%q}`, bad), nil)
	requireError(t, resp, 400, "invalid_request")

	t.Run("list newest first, paged", func(t *testing.T) {
		all := listAllContacts(t, c, 2)
		require.Len(t, all, len(created))
		for i := range all {
			require.Equal(t, created[len(created)-1-i], all[i], "item %d", i)
		}
		// The default page holds them all, with the list envelope.
		resp := call(t, c, "GET", contacts, "", nil)
		requireStatus(t, resp, 200)
		var l contactList
		require.NoError(t, json.Unmarshal(resp.Body, &l))
		require.Len(t, l.Data, len(created))
		require.False(t, l.HasMore)
		require.Nil(t, l.NextCursor)
		require.Contains(t, string(resp.Body), `"next_cursor":null`)
		// A page in the middle.
		resp = call(t, c, "GET", fmt.Sprintf("%s?limit=2&starting_after=%s", contacts, all[1].ID), "", nil)
		requireStatus(t, resp, 200)
		require.NoError(t, json.Unmarshal(resp.Body, &l))
		require.Equal(t, []contact{all[2], all[3]}, l.Data)
		require.True(t, l.HasMore)
		require.Equal(t, all[3].ID, *l.NextCursor)
		// limit bounds: 1 and 200 are fine.
		for _, limit := range []string{"1", "200"} {
			requireStatus(t, call(t, c, "GET", contacts+"?limit="+limit, "", nil), 200)
		}
	})

	target := created[0]
	one := contacts + "/" + target.ID

	t.Run("get one", func(t *testing.T) {
		resp := call(t, c, "GET", one, "", nil)
		requireStatus(t, resp, 200)
		require.Equal(t, target, requireContactShape(t, resp.Body))
	})

	t.Run("update", func(t *testing.T) {
		// Let the clock pass a second so updated_at visibly moves.
		deadline := time.Now().Add(30 * time.Second)
		created, _ := time.Parse(time.RFC3339, target.CreatedAt)
		for !time.Now().After(created.Add(time.Second)) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		resp := call(t, c, "PATCH", one, `{"name":"Renamed","currency":"EURC","memo":"rent"}`, nil)
		requireStatus(t, resp, 200)
		got := requireContactShape(t, resp.Body)
		require.Equal(t, target.ID, got.ID)
		require.Equal(t, "Renamed", got.Name)
		require.Equal(t, target.Address, got.Address)
		require.Equal(t, "EURC", *got.Currency)
		require.Equal(t, "rent", *got.Memo)
		require.Equal(t, target.CreatedAt, got.CreatedAt)
		require.Greater(t, got.UpdatedAt, got.CreatedAt, "updated_at must move on update")

		// "" clears currency and memo; absent fields stay.
		resp = call(t, c, "PATCH", one, `{"currency":"","memo":""}`, nil)
		requireStatus(t, resp, 200)
		got = requireContactShape(t, resp.Body)
		require.Equal(t, "Renamed", got.Name)
		require.Nil(t, got.Currency)
		require.Nil(t, got.Memo)

		// An address update is checksummed too.
		resp = call(t, c, "PATCH", one, fmt.Sprintf(`{"address":%q}`, strings.ToLower(eip55[3])), nil)
		requireStatus(t, resp, 200)
		got = requireContactShape(t, resp.Body)
		require.Equal(t, eip55[3], got.Address)

		// Bad updates change nothing.
		requireError(t, call(t, c, "PATCH", one, `{"currency":"DOGE"}`, nil), 400, "unsupported_asset")
		requireError(t, call(t, c, "PATCH", one, `{"name":""}`, nil), 400, "invalid_request")
		requireError(t, call(t, c, "PATCH", one, `{"address":"0x1234"}`, nil), 400, "invalid_request")
		requireError(t, call(t, c, "PATCH", one, `{"nickname":"x"}`, nil), 400, "invalid_request")
		resp = call(t, c, "GET", one, "", nil)
		requireStatus(t, resp, 200)
		require.Equal(t, got, requireContactShape(t, resp.Body))
		target = got
	})

	t.Run("another account sees not_found", func(t *testing.T) {
		requireError(t, call(t, oc, "GET", one, "", nil), 404, "not_found")
		requireError(t, call(t, oc, "PATCH", one, `{"name":"Stolen"}`, nil), 404, "not_found")
		requireError(t, call(t, oc, "DELETE", one, "", nil), 404, "not_found")
		resp := call(t, oc, "GET", contacts, "", nil)
		requireStatus(t, resp, 200)
		require.JSONEq(t, `{"data":[],"has_more":false,"next_cursor":null}`, string(resp.Body))
		// Unknown ids look the same as foreign ones.
		requireError(t, call(t, c, "GET", contacts+"/ct_01M80AG7DGGN82BKWCMHEJCKG8", "", nil), 404, "not_found")
		requireError(t, call(t, c, "GET", contacts+"/nonsense", "", nil), 404, "not_found")
		// And the owner still sees it unchanged.
		resp = call(t, c, "GET", one, "", nil)
		requireStatus(t, resp, 200)
		require.Equal(t, target, requireContactShape(t, resp.Body))
	})

	t.Run("delete", func(t *testing.T) {
		resp := call(t, c, "DELETE", one, "", nil)
		requireStatus(t, resp, 200)
		require.JSONEq(t, fmt.Sprintf(`{"id":%q,"deleted":true}`, target.ID), string(resp.Body))
		obj := object(t, resp.Body)
		require.Len(t, obj, 2, "delete answer has exactly id and deleted: %s", resp.Body)

		requireError(t, call(t, c, "GET", one, "", nil), 404, "not_found")
		requireError(t, call(t, c, "DELETE", one, "", nil), 404, "not_found")
		requireError(t, call(t, c, "PATCH", one, `{"name":"Ghost"}`, nil), 404, "not_found")
		all := listAllContacts(t, c, 200)
		require.Len(t, all, len(created)-1)
		for _, ct := range all {
			require.NotEqual(t, target.ID, ct.ID)
		}
		// The deleted id still works as a cursor.
		resp = call(t, c, "GET", contacts+"?starting_after="+target.ID, "", nil)
		requireStatus(t, resp, 200)
		var l contactList
		require.NoError(t, json.Unmarshal(resp.Body, &l))
		require.Empty(t, l.Data, "nothing is older than the first contact")
	})

	t.Run("default page size is 50", func(t *testing.T) {
		acct := srv.createAccount(t, "many contacts")
		c := srv.client(t, srv.createKey(t, acct, "pay"))
		for i := 0; i < 53; i++ {
			requireStatus(t, call(t, c, "POST", contacts, contactBodyString(fmt.Sprintf("many %02d", i)), nil), 201)
		}
		resp := call(t, c, "GET", contacts, "", nil)
		requireStatus(t, resp, 200)
		var l contactList
		require.NoError(t, json.Unmarshal(resp.Body, &l))
		require.Len(t, l.Data, 50)
		require.True(t, l.HasMore)
		require.Equal(t, "many 52", l.Data[0].Name, "newest first")
		require.Equal(t, l.Data[49].ID, *l.NextCursor)
		resp = call(t, c, "GET", contacts+"?starting_after="+*l.NextCursor, "", nil)
		requireStatus(t, resp, 200)
		require.NoError(t, json.Unmarshal(resp.Body, &l))
		require.Len(t, l.Data, 3)
		require.False(t, l.HasMore)
		require.Equal(t, "many 00", l.Data[2].Name)
	})
}
