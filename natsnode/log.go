package natsnode

import (
	"fmt"
	"sync"
)

// serverLog is the server's logger: notices, warnings and errors go to
// Logf, if set; debug and trace are never enabled. It keeps the last fatal
// or error line (one string, so bounded) for Start's error, and unlike the
// server's own logger it never exits the process on Fatalf.
type serverLog struct {
	logf func(format string, args ...any)

	mu    sync.Mutex
	last  string // last Fatalf or Errorf line
	fatal bool   // Fatalf was called: the server will not come up
}

func (l *serverLog) out(level, format string, v []any) {
	if l.logf != nil {
		l.logf("nats: %s %s", level, fmt.Sprintf(format, v...))
	}
}

func (l *serverLog) remember(format string, v []any, fatal bool) {
	line := fmt.Sprintf(format, v...)
	l.mu.Lock()
	l.last = line
	l.fatal = l.fatal || fatal
	l.mu.Unlock()
}

// failed reports whether the server logged a fatal error.
func (l *serverLog) failed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fatal
}

func (l *serverLog) lastFailure() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == "" {
		return "no error logged by the server"
	}
	return l.last
}

func (l *serverLog) Noticef(format string, v ...any) { l.out("notice", format, v) }
func (l *serverLog) Warnf(format string, v ...any)   { l.out("warn", format, v) }
func (l *serverLog) Debugf(string, ...any)           {}
func (l *serverLog) Tracef(string, ...any)           {}

func (l *serverLog) Errorf(format string, v ...any) {
	l.remember(format, v, false)
	l.out("error", format, v)
}

func (l *serverLog) Fatalf(format string, v ...any) {
	l.remember(format, v, true)
	l.out("fatal", format, v)
}
