package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"syscall"
)

// quietLogger drops Pebble's informational chatter and keeps its errors.
// A fatal one ends the process: through fatal (OpenFatal) when it carries
// a storage error, so the operator gets the service's one line; as a
// panic otherwise, and always when fatal is nil, so an invariant
// violation keeps its stack.
// Its error lines go to log, the service's JSON log, when set (plain
// text on stderr otherwise: the CLI's read-only opens).
type quietLogger struct {
	fatal func(error)
	log   *slog.Logger
}

func (quietLogger) Infof(string, ...any) {}
func (l quietLogger) Errorf(format string, args ...any) {
	if l.log != nil {
		l.log.Error("pebble: " + fmt.Sprintf(format, args...))
		return
	}
	fmt.Fprintf(os.Stderr, "pebble: "+format+"\n", args...)
}
func (l quietLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf("pebble: "+format, args...)
	if l.fatal != nil {
		for _, a := range args {
			if err, ok := a.(error); ok && isStorageError(err) {
				l.fatal(&fatalError{msg: msg, cause: err})
			}
		}
	}
	panic(msg) // fatal does not return; reached for anything else
}

// fatalError is a Pebble fatal message whose cause is a storage error
// (its args format it with %v or %s, which does not wrap).
type fatalError struct {
	msg   string
	cause error
}

func (e *fatalError) Error() string { return e.msg }
func (e *fatalError) Unwrap() error { return e.cause }

// backgroundError hands a background error carrying a storage error to
// fatal; others are logged as before. A failed flush is retried by
// Pebble at once and forever (measured on a full tmpfs: tens of thousands
// of tries in 20 s, one stderr line each), and the applier's Sync waits
// for it meanwhile; the log stays the truth, so ending the process loses
// nothing and the next start rebuilds the store from the log.
func backgroundError(l quietLogger) func(error) {
	return func(err error) {
		if isStorageError(err) {
			l.fatal(fmt.Errorf("snapshot: %w", err))
			return
		}
		l.Errorf("background error: %s", err)
	}
}

// isStorageError reports whether err comes from the file system.
func isStorageError(err error) bool {
	var pe *fs.PathError
	var errno syscall.Errno
	return errors.As(err, &pe) || errors.As(err, &errno)
}
