package wal

import (
	"fmt"
	"os"
)

// Sync modes of Options.Sync.
const (
	// SyncAuto syncs through kernel AIO where the kernel offers it (Linux
	// 4.18+) and with fdatasync(2) otherwise. The default.
	SyncAuto = ""
	// SyncPlain always calls fdatasync(2) on the writer goroutine.
	SyncPlain = "fdatasync"
)

// syncer makes a segment file's written bytes durable.
//
// Both kinds issue fdatasync: it writes the data and the metadata needed to
// read it back (the file size), which is all a log needs; timestamps are
// not worth a second metadata write per batch.
type syncer interface {
	sync(f *os.File) error
	mode() string
	close() error
}

// newSyncer returns the syncer for mode, falling back from AIO to plain
// fdatasync when the kernel refuses an AIO context (old kernel, seccomp,
// fs.aio-max-nr reached); the fallback is reported through logf.
func newSyncer(mode string, logf func(string, ...any)) (syncer, error) {
	switch mode {
	case SyncPlain:
		return plainSyncer{}, nil
	case SyncAuto:
		a, err := newAIOSyncer()
		if err != nil {
			logf("wal: kernel AIO unavailable, syncing with fdatasync(2) err=%q", err.Error())
			return plainSyncer{}, nil
		}
		return a, nil
	}
	return nil, fmt.Errorf("unknown sync mode %q", mode)
}

// plainSyncer calls fdatasync(2) on the calling goroutine.
type plainSyncer struct{}

func (plainSyncer) sync(f *os.File) error { return fdatasync(f) }
func (plainSyncer) mode() string          { return SyncPlain }
func (plainSyncer) close() error          { return nil }
