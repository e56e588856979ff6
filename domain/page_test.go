package domain

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParsePage(t *testing.T) {
	for _, tc := range []struct {
		limit    string
		hasLimit bool
		want     int
	}{
		{"", false, 50},
		{"ignored", false, 50},
		{"1", true, 1},
		{"50", true, 50},
		{"199", true, 199},
		{"200", true, 200},
	} {
		p, err := ParsePage(tc.limit, "ct_x", tc.hasLimit)
		require.Nil(t, err, "%q", tc.limit)
		require.Equal(t, Page{Limit: tc.want, StartingAfter: "ct_x"}, p)
	}
	for _, limit := range []string{"", "0", "201", "-1", "abc", "01", "+1", " 1", "1 ", "1.0", "1e2", "0x10", "99999999999999999999", "２"} {
		p, err := ParsePage(limit, "", true)
		require.NotNil(t, err, "%q", limit)
		require.Equal(t, Page{}, p)
		require.Equal(t, Reply{Status: 400, Body: []byte(errBody(CodeInvalidRequest, "limit must be an integer from 1 to 200"))}, err.Reply())
	}

	p, err := ParsePage("", "", false)
	require.Nil(t, err)
	require.Equal(t, Page{Limit: DefaultPageLimit}, p)
	p, err = ParsePage("", strings.Repeat("a", 64), false)
	require.Nil(t, err)
	require.Equal(t, strings.Repeat("a", 64), p.StartingAfter)
	_, err = ParsePage("10", strings.Repeat("a", 65), true)
	require.NotNil(t, err)
	require.Equal(t, 400, err.Status)
	require.Equal(t, CodeInvalidRequest, err.Code)
}

type item struct{ id string }

// items returns ids it_NN for the given numbers, newest (largest) first.
func items(nums ...int) []item {
	out := make([]item, len(nums))
	for i, n := range nums {
		out[i] = item{fmt.Sprintf("it_%02d", n)}
	}
	return out
}

func page(list []item, limit int, after string) ListView[string] {
	return Paginate(list, func(it item) string { return it.id }, func(it item) string { return it.id }, Page{Limit: limit, StartingAfter: after})
}

func listJSON(t *testing.T, v ListView[string]) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestPaginate(t *testing.T) {
	list := items(90, 80, 70, 60, 50, 40, 30) // newest first
	for _, tc := range []struct {
		name  string
		limit int
		after string
		want  string
	}{
		{"first page", 3, "", `{"data":["it_90","it_80","it_70"],"has_more":true,"next_cursor":"it_70"}`},
		{"second page", 3, "it_70", `{"data":["it_60","it_50","it_40"],"has_more":true,"next_cursor":"it_40"}`},
		{"last page, exactly full", 1, "it_40", `{"data":["it_30"],"has_more":false,"next_cursor":null}`},
		{"last page, short", 3, "it_40", `{"data":["it_30"],"has_more":false,"next_cursor":null}`},
		{"whole list, limit = len", 7, "", `{"data":["it_90","it_80","it_70","it_60","it_50","it_40","it_30"],"has_more":false,"next_cursor":null}`},
		{"whole list, limit > len", 200, "", `{"data":["it_90","it_80","it_70","it_60","it_50","it_40","it_30"],"has_more":false,"next_cursor":null}`},
		{"limit = len - 1", 6, "", `{"data":["it_90","it_80","it_70","it_60","it_50","it_40"],"has_more":true,"next_cursor":"it_40"}`},
		{"cursor of a deleted item", 2, "it_65", `{"data":["it_60","it_50"],"has_more":true,"next_cursor":"it_50"}`},
		{"cursor of a deleted item, to the end", 50, "it_35", `{"data":["it_30"],"has_more":false,"next_cursor":null}`},
		{"cursor newer than everything", 2, "it_99", `{"data":["it_90","it_80"],"has_more":true,"next_cursor":"it_80"}`},
		{"cursor of the oldest", 5, "it_30", `{"data":[],"has_more":false,"next_cursor":null}`},
		{"cursor older than everything", 5, "it_00", `{"data":[],"has_more":false,"next_cursor":null}`},
		{"cursor sorting after every id", 2, "zzz", `{"data":["it_90","it_80"],"has_more":true,"next_cursor":"it_80"}`},
		{"cursor sorting before every id", 5, "ab", `{"data":[],"has_more":false,"next_cursor":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, listJSON(t, page(list, tc.limit, tc.after)))
		})
	}
	require.Equal(t, `{"data":[],"has_more":false,"next_cursor":null}`, listJSON(t, page(nil, 50, "")))
	require.Equal(t, `{"data":[],"has_more":false,"next_cursor":null}`, listJSON(t, page([]item{}, 1, "it_10")))
}

// Following next_cursor visits every item once, in order, for every limit.
func TestPaginateWalk(t *testing.T) {
	var nums []int
	for n := 99; n >= 1; n -= 2 {
		nums = append(nums, n)
	}
	list := items(nums...)
	for limit := 1; limit <= len(list)+1; limit++ {
		var seen []string
		after := ""
		for pages := 0; ; pages++ {
			require.Less(t, pages, len(list)+1, "no progress")
			p := page(list, limit, after)
			seen = append(seen, p.Data...)
			if !p.HasMore {
				require.Nil(t, p.NextCursor)
				break
			}
			require.Len(t, p.Data, limit)
			require.Equal(t, p.Data[len(p.Data)-1], *p.NextCursor)
			after = *p.NextCursor
		}
		want := make([]string, len(list))
		for i, it := range list {
			want[i] = it.id
		}
		require.Equal(t, want, seen, "limit %d", limit)
	}
}

// A zero Page (a ListContacts{} built by hand) is the default page, not a
// panic.
func TestPaginateZeroPage(t *testing.T) {
	list := items(3, 2, 1)
	require.Equal(t, `{"data":["it_03","it_02","it_01"],"has_more":false,"next_cursor":null}`, listJSON(t, page(list, 0, "")))

	s := newAccountState(t)
	mustApply(t, s, CreateContact{Name: "A", Address: addrSum}, newClock().env())
	r := s.Ask(ListContacts{})
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), `"has_more":false,"next_cursor":null}`)
}

// Listing contacts pages through the state newest first, and a deleted
// cursor contact still pages correctly.
func TestListContacts(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	for range 5 {
		mustApply(t, s, CreateContact{Name: "A", Address: addrSum}, c.env())
	}
	ids := func(r Reply) (out []string, more bool, next *string) {
		var v struct {
			Data       []struct{ ID string }
			HasMore    bool    `json:"has_more"`
			NextCursor *string `json:"next_cursor"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &v))
		for _, d := range v.Data {
			out = append(out, d.ID)
		}
		return out, v.HasMore, v.NextCursor
	}
	got, more, next := ids(s.Ask(ListContacts{Page: Page{Limit: 2}}))
	require.Equal(t, []string{"ct_000005", "ct_000004"}, got)
	require.True(t, more)
	require.Equal(t, "ct_000004", *next)

	mustApply(t, s, DeleteContact{ID: "ct_000004"}, c.env())
	got, more, next = ids(s.Ask(ListContacts{Page: Page{Limit: 2, StartingAfter: "ct_000004"}}))
	require.Equal(t, []string{"ct_000003", "ct_000002"}, got)
	require.True(t, more)
	require.Equal(t, "ct_000002", *next)

	got, more, next = ids(s.Ask(ListContacts{Page: Page{Limit: 2, StartingAfter: "ct_000002"}}))
	require.Equal(t, []string{"ct_000001"}, got)
	require.False(t, more)
	require.Nil(t, next)

	empty := newAccountState(t)
	require.Equal(t, Reply{Status: 200, Body: []byte(`{"data":[],"has_more":false,"next_cursor":null}`)}, empty.Ask(ListContacts{Page: Page{Limit: 50}}))
}
