package actors

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Storage failures: what the operator sees.
//
// A failed log write or fsync (the log's OnFatal) and an error of the
// snapshot store or the applier (Engine.fatal) end the process with
// status 3 after exactly one JSON line at ERROR through the service's
// logger:
//
//	{"level":"ERROR","msg":"storage failure, exiting","cause":"no space left on device",
//	 "op":"write","file":"/abs/data/wal/00000000000000000001","err":"write indexes 7..9: ..."}
//
// cause is the operating system's reason, op the failed operation and
// file the absolute path, when the error carries a path (the log's own
// errors do; Pebble wraps the os errors it meets); err is the whole chain,
// with the log indexes involved. Nothing is retried: after a failed fsync
// the kernel may have dropped the dirty pages, and a later fsync can
// report success for data that is gone, so the only safe recovery is a
// restart that re-reads the log from disk (which recovers once space is
// freed).

// exitStorage is the exit status of a storage failure.
const exitStorage = 3

// msgStorageFailure is the message of the one line.
const msgStorageFailure = "storage failure, exiting"

// fatalExit ends the process on the first storage failure. The first
// caller logs the line and exits; a caller racing it (the applier meeting
// the same full disk as the log writer) blocks in the Once until the exit,
// so there is one line and nobody carries on.
type fatalExit struct {
	logger *slog.Logger
	once   sync.Once
	exit   func(code int) // os.Exit; tests record the code instead
}

func newFatalExit(logger *slog.Logger) *fatalExit {
	return &fatalExit{logger: logger, exit: os.Exit}
}

// fail logs err as the storage failure and exits.
func (f *fatalExit) fail(err error) {
	f.once.Do(func() {
		f.logger.Error(msgStorageFailure, storageAttrs(err)...)
		f.exit(exitStorage)
	})
}

// storageAttrs are the line's fields for err: cause, op and file when
// known, and err.
func storageAttrs(err error) []any {
	var pe *os.PathError // the same type as *fs.PathError
	var se *os.SyscallError
	var errno syscall.Errno
	var attrs []any
	switch {
	case errors.As(err, &pe):
		attrs = append(attrs, "cause", pe.Err.Error(), "op", pe.Op, "file", absPath(pe.Path))
	case errors.As(err, &se):
		attrs = append(attrs, "cause", se.Err.Error(), "op", se.Syscall)
	case errors.As(err, &errno):
		attrs = append(attrs, "cause", errno.Error())
	default:
		attrs = append(attrs, "cause", err.Error())
	}
	return append(attrs, "err", err.Error())
}

// absPath makes the file absolute (the data dir may be given relative),
// so the line names it whatever the reader's working directory.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// walLogf routes the log's notable events to the service's logger at
// WARN, except its own "wal: fatal" line: the log reports the same error
// to OnFatal at once, whose line is the one line of the failure.
func walLogf(logger *slog.Logger) func(format string, args ...any) {
	return func(format string, args ...any) {
		if strings.HasPrefix(format, "wal: fatal") {
			return
		}
		logger.Warn(fmt.Sprintf(format, args...))
	}
}
