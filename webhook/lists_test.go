package webhook

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// scriptedReceiver answers each event's attempts by the plan in force
// when the event first arrives: the first fails attempts answer 500 and
// the rest 200, or, with fails < 0, the attempt hangs until the test
// ends, so its delivery stays without an attempt. Counting per event,
// not by time, keeps the attempts of every delivery exact.
type scriptedReceiver struct {
	*receiver
	mu      sync.Mutex
	next    int
	plan    map[string]int
	seen    map[string]int
	release chan struct{}
}

func newScriptedReceiver(t *testing.T) *scriptedReceiver {
	t.Helper()
	s := &scriptedReceiver{receiver: newReceiver(t, 200), plan: map[string]int{}, seen: map[string]int{}, release: make(chan struct{})}
	s.before = s.answer
	// Registered after the receiver's Close: it runs first, so Close
	// does not wait on a hanging attempt.
	t.Cleanup(func() { close(s.release) })
	return s
}

func (s *scriptedReceiver) answer(w http.ResponseWriter, r *http.Request) bool {
	evt := r.Header.Get("webhook-id")
	s.mu.Lock()
	if _, ok := s.plan[evt]; !ok {
		s.plan[evt] = s.next
	}
	fails := s.plan[evt]
	s.seen[evt]++
	n := s.seen[evt]
	s.mu.Unlock()
	switch {
	case fails < 0:
		<-s.release
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	case n <= fails:
		w.WriteHeader(http.StatusInternalServerError)
		return true
	}
	return false
}

// deliveryFixture is an endpoint with, oldest first: a delivery never
// attempted (its attempt hangs), "big" with 5 failed attempts, "mid"
// with 2 (failed, then delivered) and "small" with 1. Its rows, as GET
// /webhooks/{id}/deliveries lists them, are allRows.
type deliveryFixture struct {
	h                     *harness
	ep                    string
	hung, big, mid, small string
}

var allRows = []string{"small#1", "mid#2", "mid#1", "big#5", "big#4", "big#3", "big#2", "big#1"}

func newDeliveryFixture(t *testing.T) *deliveryFixture {
	// Schedule of 4 waits: 5 attempts, 6 failures in all, below the 10
	// that disable the endpoint.
	h := newHarness(t, Config{Schedule: shortSchedule(4)}, false)
	rc := newScriptedReceiver(t)
	f := &deliveryFixture{h: h, ep: h.createEndpoint(h.acct, rc.URL()).ID}
	send := func(fails int, done func(*domain.Delivery) bool) string {
		rc.mu.Lock()
		rc.next = fails
		rc.mu.Unlock()
		dlv := f.h.sendTest(h.acct, f.ep)
		h.waitDelivery(f.ep, dlv, fmt.Sprintf("done after %d failures", fails), done)
		return dlv
	}
	f.hung = send(-1, func(*domain.Delivery) bool { return rc.count() == 1 })
	f.big = send(5, func(d *domain.Delivery) bool { return d.State == domain.DeliveryFailed })
	delivered := func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered }
	f.mid = send(1, delivered)
	f.small = send(0, delivered)
	_, d := h.delivery(f.ep, f.hung)
	require.Empty(t, d.Attempts, "the hanging delivery has no attempt")
	return f
}

// name is a row's or a cursor's delivery id spelled by the fixture's name.
func (f *deliveryFixture) name(s string) string {
	return strings.NewReplacer(f.hung, "hung", f.big, "big", f.mid, "mid", f.small, "small").Replace(s)
}

// page reads one page; rows are "<name>#<attempt>", cursor "" when null.
func (f *deliveryFixture) page(t *testing.T, limit int, after string) (rows []string, hasMore bool, cursor string) {
	t.Helper()
	page, err := f.h.d.ListDeliveries(ctxT(t), f.h.acct, f.ep, domain.Page{Limit: limit, StartingAfter: after})
	require.NoError(t, err)
	require.NotNil(t, page.Data)
	require.LessOrEqual(t, len(page.Data), limit, "a page never holds more than limit rows")
	for _, a := range page.Data {
		rows = append(rows, f.name(fmt.Sprintf("%s#%d", a.ID, a.Attempt)))
	}
	require.Equal(t, page.HasMore, page.NextCursor != nil, "next_cursor is set exactly when has_more")
	if page.NextCursor != nil {
		cursor = *page.NextCursor
	}
	return rows, page.HasMore, cursor
}

// TestDeliveriesPaging: pages of GET /webhooks/{id}/deliveries hold at
// most limit rows, every attempt once and in order (newest delivery
// first, its attempts newest first); a page ending on a delivery's edge
// hands out that delivery's id, one cut inside a delivery
// "<dlv>:<attempt>" of its last row; has_more is false exactly on the
// last page, the never-attempted delivery after it giving no row.
func TestDeliveriesPaging(t *testing.T) {
	f := newDeliveryFixture(t)
	for _, c := range []struct {
		limit   int
		pages   [][]string
		cursors []string // the next_cursor of each page but the last
	}{
		{1, [][]string{{"small#1"}, {"mid#2"}, {"mid#1"}, {"big#5"}, {"big#4"}, {"big#3"}, {"big#2"}, {"big#1"}},
			[]string{"small", "mid:2", "mid", "big:5", "big:4", "big:3", "big:2"}},
		{2, [][]string{{"small#1", "mid#2"}, {"mid#1", "big#5"}, {"big#4", "big#3"}, {"big#2", "big#1"}},
			[]string{"mid:2", "big:5", "big:3"}},
		{3, [][]string{{"small#1", "mid#2", "mid#1"}, {"big#5", "big#4", "big#3"}, {"big#2", "big#1"}},
			[]string{"mid", "big:3"}},
		{5, [][]string{{"small#1", "mid#2", "mid#1", "big#5", "big#4"}, {"big#3", "big#2", "big#1"}},
			[]string{"big:4"}},
		{7, [][]string{allRows[:7], {"big#1"}}, []string{"big:2"}},
		{8, [][]string{allRows}, nil},
		{domain.MaxPageLimit, [][]string{allRows}, nil},
	} {
		t.Run(fmt.Sprintf("limit=%d", c.limit), func(t *testing.T) {
			var pages [][]string
			var cursors, flat []string
			after := ""
			for range len(allRows) + 1 {
				rows, more, cursor := f.page(t, c.limit, after)
				pages = append(pages, rows)
				flat = append(flat, rows...)
				if !more {
					break
				}
				cursors = append(cursors, f.name(cursor))
				after = cursor
			}
			require.Equal(t, c.pages, pages)
			require.Equal(t, c.cursors, cursors)
			require.Equal(t, allRows, flat, "every attempt once, in order")
		})
	}
}

// TestDeliveriesCursors: where each starting_after continues. A plain
// id, known or not, is compared by id as on every list; "<dlv>:<n>" goes
// on with dlv's attempts below n, and for an unknown dlv as the plain id
// dlv does; a colon form with no canonical attempt number from 1 is no
// cursor of this list and stays an opaque id, compared as before the
// colon form existed (it sorts just above dlv, so dlv comes whole).
func TestDeliveriesCursors(t *testing.T) {
	f := newDeliveryFixture(t)
	// Longer than mid with its prefix: above mid, below small (a newer id).
	unknown := f.mid + "0"
	for _, c := range []struct {
		name, after string
		rows        []string
	}{
		{"none", "", allRows},
		{"plain", f.mid, allRows[3:]},
		{"plain, no more rows", f.big, nil},
		{"cut", f.mid + ":2", allRows[2:]},
		{"cut below the first attempt", f.mid + ":1", allRows[3:]},
		{"cut above the last attempt", f.mid + ":9", allRows[1:]},
		{"cut, past attempts of the max", f.big + ":65", allRows[3:]},
		{"unknown plain", unknown, allRows[1:]},
		{"unknown cut", unknown + ":1", allRows[1:]},
		{"unknown below every id", "dlv_", nil},
		{"unknown cut below every id", "dlv_:3", nil},
		{"zero attempt", f.mid + ":0", allRows[1:]},
		{"negative attempt", f.mid + ":-1", allRows[1:]},
		{"not a number", f.mid + ":x", allRows[1:]},
		{"leading zero", f.mid + ":02", allRows[1:]},
		{"plus sign", f.mid + ":+2", allRows[1:]},
		{"no number", f.mid + ":", allRows[1:]},
		{"overflow", f.mid + ":99999999999999999999", allRows[1:]},
		{"colon first", ":2", nil}, // ":" sorts below every id
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, more, cursor := f.page(t, domain.MaxPageLimit, c.after)
			require.Equal(t, c.rows, rows, "starting_after=%s", f.name(c.after))
			require.False(t, more)
			require.Empty(t, cursor)
		})
	}
}

// TestParseDeliveryCursor: the colon form only for a canonical attempt
// number from 1 after a non-empty delivery id; anything else is a plain
// id, kept whole.
func TestParseDeliveryCursor(t *testing.T) {
	for _, c := range []struct {
		in   string
		want deliveryCursor
	}{
		{"", deliveryCursor{}},
		{"dlv_a", deliveryCursor{before: "dlv_a"}},
		{"dlv_a:1", deliveryCursor{before: "dlv_a\x00", dlv: "dlv_a", below: 1}},
		{"dlv_a:64", deliveryCursor{before: "dlv_a\x00", dlv: "dlv_a", below: 64}},
		{"dlv_a:b:3", deliveryCursor{before: "dlv_a:b\x00", dlv: "dlv_a:b", below: 3}},
		{"dlv_a:0", deliveryCursor{before: "dlv_a:0"}},
		{"dlv_a:-3", deliveryCursor{before: "dlv_a:-3"}},
		{"dlv_a:03", deliveryCursor{before: "dlv_a:03"}},
		{"dlv_a:+3", deliveryCursor{before: "dlv_a:+3"}},
		{"dlv_a:3x", deliveryCursor{before: "dlv_a:3x"}},
		{"dlv_a: 3", deliveryCursor{before: "dlv_a: 3"}},
		{"dlv_a:", deliveryCursor{before: "dlv_a:"}},
		{":3", deliveryCursor{before: ":3"}},
		{"dlv_a:99999999999999999999", deliveryCursor{before: "dlv_a:99999999999999999999"}},
	} {
		require.Equal(t, c.want, parseDeliveryCursor(c.in), "%q", c.in)
	}
}

// FuzzDeliveryCursor: any starting_after parses without a panic; a colon
// form is read as a cut only with a canonical attempt number from 1, and
// then names the delivery before the last colon and lets it through the
// store's bound; anything else stays the whole string, compared as an id.
func FuzzDeliveryCursor(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		c := parseDeliveryCursor(s)
		if c.dlv == "" {
			require.Equal(t, s, c.before)
			require.Zero(t, c.below)
			return
		}
		require.Positive(t, c.below)
		require.Equal(t, s, fmt.Sprintf("%s:%d", c.dlv, c.below))
		require.Equal(t, c.dlv+"\x00", c.before)
	})
}
