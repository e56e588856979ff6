package wal

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"github.com/fxd-labs/fxd/internal/faultinject"
)

// Fault points of the log (internal/faultinject). They exist only in a
// binary built with -tags faultinject and are read once, at Open, from
// FXD_FAULTS; N counts the appends made since that Open (1 is the first):
//
//	wal-write-enospc-after=N  the write of the batch holding the N-th append
//	                          fails with ENOSPC
//	wal-fsync-enospc-after=N  the fdatasync covering the N-th append fails
//	                          with ENOSPC
//	wal-fsync-eio-after=N     the same with EIO
//
// Each failure is an *os.PathError naming the segment file the batch was
// written to (Op "write" or "fdatasync"), as a real one would be, and goes
// down the real failure path: nothing more is acknowledged, OnFatal is
// called once, no fsync is ever started again. They are built on the two
// test seams (writeHook, syncHook), so the injected failure meets exactly
// the code a real one meets. A write fault fires after the batch's bytes
// reached the file, like a short write: a restart may find part of that
// never-acknowledged batch.
const (
	FaultWriteENOSPC = "wal-write-enospc-after"
	FaultFsyncENOSPC = "wal-fsync-enospc-after"
	FaultFsyncEIO    = "wal-fsync-eio-after"
)

// faultSpec is the parsed set of faults of one Log. A zero after means
// the fault is off.
type faultSpec struct {
	writeAfter uint64        // the append whose batch's write fails (ENOSPC)
	syncAfter  uint64        // the append whose batch's fdatasync fails
	syncErr    syscall.Errno // ENOSPC or EIO, with syncAfter
}

func (s faultSpec) none() bool { return s.writeAfter == 0 && s.syncAfter == 0 }

// faultsFromEnv reads the log's faults through faultinject.Lookup: in a
// normal build none is ever set.
func faultsFromEnv() (faultSpec, error) {
	return parseFaults(faultinject.Lookup)
}

// parseFaults reads the log's faults through lookup (faultinject.Lookup's
// shape). A malformed value is an error, not a fault silently off: a
// test that meant to inject one must not pass without it.
func parseFaults(lookup func(name string) (string, bool)) (faultSpec, error) {
	var s faultSpec
	var errs []error
	after := func(name string) uint64 {
		v, ok := lookup(name)
		if !ok {
			return 0
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			errs = append(errs, fmt.Errorf("fault %s=%q: want a count of appends, at least 1", name, v))
			return 0
		}
		return n
	}
	s.writeAfter = after(FaultWriteENOSPC)
	enospc, eio := after(FaultFsyncENOSPC), after(FaultFsyncEIO)
	switch {
	case enospc != 0 && eio != 0:
		errs = append(errs, fmt.Errorf("faults %s and %s: at most one fsync fault", FaultFsyncENOSPC, FaultFsyncEIO))
	case enospc != 0:
		s.syncAfter, s.syncErr = enospc, syscall.ENOSPC
	case eio != 0:
		s.syncAfter, s.syncErr = eio, syscall.EIO
	}
	return s, errors.Join(errs...)
}

func errnoText(e syscall.Errno) string {
	if e == 0 {
		return ""
	}
	return e.Error()
}

// injectFaults sets the seams for s, counting appends from the log's
// current end. Call it before the first append (the queue's mutex then
// orders the seams before the writer reads them). Open calls it with
// faultsFromEnv's spec just before the writer starts.
func (l *Log) injectFaults(s faultSpec) {
	if s.none() {
		return
	}
	l.opts.Logf("wal: fault injection dir=%s write_enospc_after=%d fsync_after=%d fsync_err=%q",
		l.dir, s.writeAfter, s.syncAfter, errnoText(s.syncErr))
	base := l.LastIndex()
	writeAt, syncAt := base+s.writeAfter, base+s.syncAfter
	// syncPath is the file whose fdatasync covers syncAt: the tail after
	// that batch's write. The write seam runs on the writer goroutine,
	// where l.tail may be read, and its store happens before the sync
	// seam's load (the syncer's job channel orders them).
	var syncPath string
	l.writeHook = func(first, last uint64) error {
		if s.syncAfter != 0 && first <= syncAt && syncAt <= last {
			syncPath = l.tail.Name()
		}
		if s.writeAfter != 0 && first <= writeAt && writeAt <= last {
			return &os.PathError{Op: "write", Path: l.tail.Name(), Err: syscall.ENOSPC}
		}
		return nil
	}
	if s.syncAfter == 0 {
		return
	}
	l.syncHook = func(first, last uint64, sync func() error) error {
		if first <= syncAt && syncAt <= last {
			return &os.PathError{Op: "fdatasync", Path: syncPath, Err: s.syncErr}
		}
		return sync()
	}
}
