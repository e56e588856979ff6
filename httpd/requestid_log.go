package httpd

import (
	"encoding/json"
	"log/slog"
	"sync"
	"time"
)

// failureLinesPerSecond bounds the log lines about failed requests (5xx):
// an overload answers 503 to many requests at once, and a line per
// answer would add work to a server that already has too much. The
// requests are all in fxd_http_requests_total; the first line of the next
// second says how many lines were left out.
const failureLinesPerSecond = 100

// lineBudget admits at most max lines per second.
type lineBudget struct {
	max     int
	mu      sync.Mutex
	second  int64
	used    int
	dropped int
}

// take admits one line at now; ok false means leave it out. dropped is
// how many lines were left out since the last one admitted.
func (b *lineBudget) take(now time.Time) (ok bool, dropped int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := now.Unix(); s != b.second {
		b.second, b.used = s, 0
	}
	if b.used >= b.max {
		b.dropped++
		return false, 0
	}
	b.used++
	dropped, b.dropped = b.dropped, 0
	return true, dropped
}

// failureLog writes the one line about each failed request: who can read
// the request's answer (its Request-Id) can find it.
type failureLog struct {
	log    *slog.Logger
	budget lineBudget
}

func newFailureLog(l *slog.Logger) *failureLog {
	return &failureLog{log: l, budget: lineBudget{max: failureLinesPerSecond}}
}

// failed logs a request answered with status (5xx): its id, what it was
// and the contract error it got (code and message, read back from the
// answer's body when it is one).
func (f *failureLog) failed(msg, requestID, method, route string, status int, body []byte, took time.Duration) {
	ok, dropped := f.budget.take(time.Now())
	if !ok {
		return
	}
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	_ = json.Unmarshal(body, &e) // not a contract error: both stay empty
	attrs := []any{"request_id", requestID, "method", method, "route", route, "status", status,
		"code", e.Error.Code, "message", e.Error.Message, "took_ms", took.Milliseconds()}
	if dropped > 0 {
		attrs = append(attrs, "lines_left_out", dropped)
	}
	f.log.Warn(msg, attrs...)
}
