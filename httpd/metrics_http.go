package httpd

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/internal/histogram"
)

// The public API's request counts and latencies.
//
// Labels are bounded by construction: route is a template of the route
// table (never a raw path), or "unmatched"; method is the route's, or for
// unmatched requests one of unmatchedMethods; code is a status the server
// answered. Each route's row is made with the route table, so a request
// costs three atomic adds (its status, its latency bucket, the latency
// sum) and no lookup, lock or allocation.

// unmatchedRoute is the route label of requests no route matched.
const unmatchedRoute = "unmatched"

// unmatchedMethods are the method labels of unmatched requests; any other
// method is counted as "other", so a client cannot mint labels.
var unmatchedMethods = [...]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"}

// countedStatuses are the statuses counted without a lock: every status the
// contract answers. Another (none today) takes httpRow.other.
var countedStatuses = [...]int{200, 201, 202, 204, 400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 502, 503, 504}

// statusSlot maps a status to its index in countedStatuses, -1 for none.
var statusSlot = func() (t [600]int8) {
	for i := range t {
		t[i] = -1
	}
	for i, c := range countedStatuses {
		t[c] = int8(i)
	}
	return t
}()

// latencyBounds are the upper bounds of the latency buckets, in
// nanoseconds: the API answers in tens of µs to a few ms, a chain call in
// up to seconds, and requestTimeout is 10 s.
var latencyBounds = []uint64{
	250e3, 500e3, 1e6, 2.5e6, 5e6, 10e6, 25e6, 50e6, 100e6, 250e6, 500e6, 1e9, 2.5e9, 5e9, 10e9,
}

// httpRow is one (route, method) of the API.
type httpRow struct {
	route, method string
	codes         [len(countedStatuses)]atomic.Uint64
	// latency is the answers' durations (nanoseconds, latencyBounds);
	// its count is the number of answers.
	latency histogram.Fixed
	// other counts statuses outside countedStatuses, under otherMu: at
	// most one entry per three-digit status the server writes (< 1,000).
	otherMu sync.Mutex
	other   map[int]uint64
}

// observe counts one answer.
func (r *httpRow) observe(status int, took time.Duration) {
	if status >= 0 && status < len(statusSlot) && statusSlot[status] >= 0 {
		r.codes[statusSlot[status]].Add(1)
	} else {
		r.observeOther(status)
	}
	r.latency.Observe(uint64(max(took, 0)))
}

func (r *httpRow) observeOther(status int) {
	r.otherMu.Lock()
	defer r.otherMu.Unlock()
	if r.other == nil {
		r.other = map[int]uint64{}
	}
	r.other[status]++
}

// httpCount is one (status, count) of a row.
type httpCount struct {
	code  string
	count uint64
}

// counts reads the row's non-zero status counts.
func (r *httpRow) counts() []httpCount {
	var out []httpCount
	for i := range r.codes {
		if n := r.codes[i].Load(); n > 0 {
			out = append(out, httpCount{strconv.Itoa(countedStatuses[i]), n})
		}
	}
	r.otherMu.Lock()
	defer r.otherMu.Unlock()
	for c, n := range r.other {
		out = append(out, httpCount{strconv.Itoa(c), n})
	}
	return out
}

// httpStats are the rows of one API: one per route, in the route table's
// order, then one per unmatchedMethods.
type httpStats struct {
	rows    []httpRow
	nRoutes int
}

func newHTTPStats(table []route) *httpStats {
	s := &httpStats{rows: make([]httpRow, len(table)+len(unmatchedMethods)), nRoutes: len(table)}
	for i, rt := range table {
		s.rows[i].route, s.rows[i].method = rt.Path, rt.Method
	}
	for i, m := range unmatchedMethods {
		s.rows[len(table)+i].route, s.rows[len(table)+i].method = unmatchedRoute, m
	}
	for i := range s.rows {
		s.rows[i].latency.Init(latencyBounds)
	}
	return s
}

// row is route i's row, or for i < 0 the unmatched row of method.
func (s *httpStats) row(i int, method []byte) *httpRow {
	if i >= 0 {
		return &s.rows[i]
	}
	for j, m := range unmatchedMethods[:len(unmatchedMethods)-1] {
		if string(method) == m {
			return &s.rows[s.nRoutes+j]
		}
	}
	return &s.rows[len(s.rows)-1]
}
