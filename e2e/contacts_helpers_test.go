package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// contact is a contact as the API returns it.
type contact struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Address   string  `json:"address"`
	Currency  *string `json:"currency"`
	Memo      *string `json:"memo"`
	CreatedAt string  `json:"created_at"`
	UpdatedAt string  `json:"updated_at"`
}

// contactList is one page of GET /contacts.
type contactList struct {
	Data       []contact `json:"data"`
	HasMore    bool      `json:"has_more"`
	NextCursor *string   `json:"next_cursor"`
}

// randomAddress is a random 20-byte address in lower-case hex (which
// carries no checksum, so the service accepts it and checksums it).
func randomAddress() string {
	var b [20]byte
	_, _ = rand.Read(b[:])
	return "0x" + hex.EncodeToString(b[:])
}

// contactBody renders a POST /contacts body.
func contactBody(name, address string) []byte {
	b, _ := json.Marshal(map[string]string{"name": name, "address": address})
	return b
}

// decodeContact decodes a contact body strictly.
func decodeContact(t testing.TB, body []byte) contact {
	t.Helper()
	var c contact
	require.NoError(t, json.Unmarshal(body, &c), "contact body %q", body)
	return c
}

// listAllContacts pages through GET /contacts with limit=pageSize and
// checks the list envelope on every page: newest first (ids strictly
// descending across pages), has_more and next_cursor consistent.
func listAllContacts(t testing.TB, c *client.Client, pageSize int) []contact {
	t.Helper()
	var all []contact
	cursor := ""
	for page := 0; ; page++ {
		require.Less(t, page, 10000, "GET /contacts does not end")
		target := fmt.Sprintf("%s/contacts?limit=%d", basePath, pageSize)
		if cursor != "" {
			target += "&starting_after=" + cursor
		}
		resp := call(t, c, "GET", target, "", nil)
		requireStatus(t, resp, 200)
		var l contactList
		require.NoError(t, json.Unmarshal(resp.Body, &l), "list body %q", resp.Body)
		require.NotNil(t, l.Data, "data must be an array, not null: %s", resp.Body)
		require.LessOrEqual(t, len(l.Data), pageSize)
		for _, ct := range l.Data {
			if len(all) > 0 {
				require.Less(t, ct.ID, all[len(all)-1].ID, "list is not newest first (id descending) at %s", ct.ID)
			}
			all = append(all, ct)
		}
		if !l.HasMore {
			require.Nil(t, l.NextCursor, "next_cursor must be null on the last page")
			return all
		}
		require.Len(t, l.Data, pageSize, "a page with has_more must be full")
		require.NotNil(t, l.NextCursor, "has_more without next_cursor")
		require.Equal(t, l.Data[len(l.Data)-1].ID, *l.NextCursor, "next_cursor must be the id of the last item")
		cursor = *l.NextCursor
	}
}
