package wal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/partlog/groupcommit"

	tidwall "github.com/tidwall/wal"
)

// Errors returned by Log: partlog's, which every log of the engine returns.
// Match them with errors.Is; most are wrapped with the index or path
// involved.
var (
	// ErrQueueFull is returned at once when MaxQueue appends (or
	// MaxQueueBytes of payload) are already waiting for the writer. The
	// queue never grows past its limits: the caller sheds load.
	ErrQueueFull = partlog.ErrQueueFull
	// ErrClosed is returned by every call made after Close.
	ErrClosed = partlog.ErrClosed
	// ErrTooLarge is returned for a payload longer than MaxPayload.
	ErrTooLarge = partlog.ErrTooLarge
	// ErrFailed is returned by every append after a write or fsync failed.
	// The log never retries; the process is expected to exit (see
	// Options.OnFatal).
	ErrFailed = partlog.ErrFailed
	// ErrOutOfRange is returned for an index outside FirstIndex..LastIndex.
	ErrOutOfRange = partlog.ErrOutOfRange
	// ErrCorrupt is returned when stored bytes fail verification: a frame
	// that does not decode, carries the wrong index or breaks the chain.
	ErrCorrupt = partlog.ErrCorrupt
)

// Defaults for the zero values of Options.
const (
	DefaultSegmentSize   = 64 << 20
	DefaultMaxBatch      = 8192
	DefaultMaxQueue      = 65536
	DefaultMaxQueueBytes = 256 << 20
)

// maxBatchBytes closes a batch once it holds this much payload, so that one
// tidwall batch buffer (which is kept for reuse) stays bounded even when
// payloads are large. A single payload larger than this still forms a batch
// of its own.
const maxBatchBytes = 32 << 20

// Options configure Open. Zero values take the defaults.
type Options struct {
	// SegmentSize is the target size of a tidwall segment file. Default
	// 64 MiB. tidwall keeps the whole tail segment in memory.
	SegmentSize int
	// MaxBatch is the most entries written with one write and one fsync.
	// Default 8192.
	MaxBatch int
	// MaxQueue is the most appends that may wait for the writer; beyond it
	// Append and Enqueue return ErrQueueFull. Default 65536.
	MaxQueue int
	// MaxQueueBytes is the most payload bytes that may wait for the writer;
	// beyond it Append and Enqueue return ErrQueueFull (a payload is always
	// accepted into an empty queue). Default 256 MiB.
	MaxQueueBytes int64
	// Logf, if set, receives one line per notable event (repair, segment
	// removal, fatal error) as "wal: what key=value ...".
	Logf func(format string, args ...any)
	// OnDurable, if set, is called on the writer goroutine after every
	// durable batch, before the batch's callers learn of it, with the
	// batch's first index and its payloads in index order. It must not
	// block (it stalls every append) and must not modify the payloads; it
	// may keep them, since the log never modifies a payload either. A
	// tailing reader uses it to skip reading back what was just written.
	OnDurable func(first uint64, payloads [][]byte)
	// OnFatal is called once, on the writer goroutine, when a write or fsync
	// fails. After it the log refuses every append with ErrFailed. The
	// default prints to stderr and exits with status 3: after a failed fsync
	// the kernel may have dropped the dirty pages and a retried fsync can
	// report success for data that is gone (fsyncgate), so the only safe
	// recovery is a restart that re-reads the log from disk.
	OnFatal func(err error)
}

func (o Options) withDefaults() Options {
	if o.SegmentSize <= 0 {
		o.SegmentSize = DefaultSegmentSize
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.MaxQueue <= 0 {
		o.MaxQueue = DefaultMaxQueue
	}
	if o.MaxQueueBytes <= 0 {
		o.MaxQueueBytes = DefaultMaxQueueBytes
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.OnFatal == nil {
		o.OnFatal = func(err error) {
			fmt.Fprintf(os.Stderr, "wal: fatal: %v\n", err)
			os.Exit(3)
		}
	}
	return o
}

// Log is a write-ahead log of framed, checksummed, chained entries stored in
// a tidwall/wal directory. All methods are safe for concurrent use.
type Log struct {
	dir  string
	opts Options
	tw   *tidwall.Log
	lock *os.File // holds the directory lock until Close

	first     atomic.Uint64 // first index present; moved only by TruncateFront
	last      atomic.Uint64 // last durable index; moved only by the writer
	committed chan struct{} // 1-buffered; signalled after each durable batch
	tailSize  atomic.Int64  // tailBytes, for TailBytes
	stats     writerStats   // fsync durations (stats.go; batch sizes are q's)

	q groupcommit.Queue[*os.File] // appends waiting for the writer (writer.go)

	// Owned by the writer goroutine (writer.go).
	twBatch     tidwall.Batch // reused for every batch
	scratch     []byte        // frame being built; reused
	payloads    [][]byte      // the batch handed to OnDurable; reused
	prevCRC     uint32        // crc of the last written (not necessarily durable) frame
	written     uint64        // last index written to tidwall (not necessarily durable)
	tail        *os.File      // tidwall's tail segment, opened read-only to stat and sync it
	tailBytes   int64         // size of that file as tidwall sees it
	tailEntries int64         // entries in it
	tailWritten bool          // a batch was written since Open: tidwall reserved the tail's room
	syncer      *syncer       // runs the fsyncs, one at a time
	inflight    *batch        // fsync started, not collected; see writer.go, "Pipeline"
	ready       *batch        // written, fsync queued behind inflight's
	lastLen     int           // entries in the batch acknowledged last (takeGrown)
	takeBase    int           // queue length when inflight's fsync was started (takeGrown)
	werr        error         // the first write/fsync error (the writer's copy of q.failed)
	syncKick    chan struct{} // 1-buffered: every syncer's wait listens on it (kickWriter)
	fatalOnce   sync.Once
	stopped     chan struct{} // closed when the writer goroutine returns

	// Test seams, nil in production; set before the append they concern
	// (the queue's mutex orders that before the writer reads them).
	// syncHook runs in place of the fsync of batch first..last (on the
	// syncer's goroutine) and may call sync, the real one. writeHook
	// runs on the writer once a batch is written and the tail checked,
	// before the directory fsync; an error from it is a failed write.
	syncHook  func(first, last uint64, sync func() error) error
	writeHook func(first, last uint64) error

	// readMu serializes tidwall reads: tidwall's Read loads and evicts
	// cached segments under its read lock, which races between concurrent
	// readers. It also keeps TruncateFront from removing a file under a read.
	readMu      sync.Mutex
	readsClosed bool // guarded by readMu

	truncMu sync.Mutex // one TruncateFront at a time
}

// Open opens the log in dir, creating dir if needed. It first repairs a torn
// tail (see RepairReport), then opens tidwall with its fsync turned off
// (this package fsyncs once per batch itself), and starts the writer. It
// fails with an error wrapping ErrCorrupt when the damage is not a torn tail,
// and if another Log holds dir.
func Open(dir string, opts Options) (*Log, RepairReport, error) {
	opts = opts.withDefaults()
	l, rep, err := open(dir, opts)
	if err != nil {
		return nil, rep, fmt.Errorf("wal: open %s: %w", dir, err)
	}
	return l, rep, nil
}

func open(dir string, opts Options) (*Log, RepairReport, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, RepairReport{}, err
	}
	// A directory that was just created exists durably only once its parent
	// is synced.
	if err := syncDir(filepath.Dir(filepath.Clean(dir))); err != nil {
		return nil, RepairReport{}, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, RepairReport{}, err
	}
	l, rep, err := openLocked(dir, opts, lock)
	if err != nil {
		lock.Close()
		return nil, rep, err
	}
	return l, rep, nil
}

func openLocked(dir string, opts Options, lock *os.File) (*Log, RepairReport, error) {
	faults, err := faultsFromEnv() // faults.go: none outside a -tags faultinject build
	if err != nil {
		return nil, RepairReport{}, err
	}
	rep, tail, err := repair(dir, opts.Logf)
	if err != nil {
		return nil, rep, err
	}
	tw, err := tidwall.Open(dir, &tidwall.Options{
		NoSync:           true, // we fsync once per batch, see writer.go
		SegmentSize:      opts.SegmentSize,
		LogFormat:        tidwall.Binary,
		SegmentCacheSize: 2,
		NoCopy:           true, // Read copies the payload itself after verifying
		AllowEmpty:       true,
		DirPerms:         0o750,
		FilePerms:        0o640,
	})
	if err != nil {
		return nil, rep, fmt.Errorf("tidwall: %w", err)
	}
	kick := make(chan struct{}, 1)
	sy := newSyncer(kick)
	l, err := newLog(dir, opts, tw, lock, tail, sy, kick)
	if err != nil {
		sy.close()
		tw.Close()
		return nil, rep, err
	}
	l.injectFaults(faults)
	go l.run()
	return l, rep, nil
}

func newLog(dir string, opts Options, tw *tidwall.Log, lock *os.File, tail tailState, sy *syncer, kick chan struct{}) (*Log, error) {
	first, err := tw.FirstIndex()
	if err != nil {
		return nil, err
	}
	last, err := tw.LastIndex()
	if err != nil {
		return nil, err
	}
	if last != tail.lastIndex {
		return nil, fmt.Errorf("tidwall opened with last index %d, repair saw %d", last, tail.lastIndex)
	}
	// tidwall creates the first segment of a new log.
	if err := syncDir(dir); err != nil {
		return nil, err
	}
	segs, err := listSegments(dir)
	if err != nil {
		return nil, err
	}
	if len(segs) == 0 {
		return nil, errors.New("tidwall opened without a segment file")
	}
	tailFile, err := os.Open(segs[len(segs)-1].path)
	if err != nil {
		return nil, err
	}
	st, err := tailFile.Stat()
	if err != nil {
		tailFile.Close()
		return nil, err
	}
	l := &Log{
		dir:         dir,
		opts:        opts,
		tw:          tw,
		lock:        lock,
		committed:   make(chan struct{}, 1),
		prevCRC:     tail.lastCRC,
		tail:        tailFile,
		tailBytes:   st.Size(),
		tailEntries: int64(max(last+1, segs[len(segs)-1].first) - segs[len(segs)-1].first),
		syncer:      sy,
		syncKick:    kick,
		stopped:     make(chan struct{}),
	}
	// tidwall's own Sync would fsync its file handle under its lock;
	// syncing ours (the same inode, opened by the name tidwall writes;
	// checkTail checks its size against tidwall's after every batch) lets
	// the next batch be written while this one's fsync runs.
	l.stats.init()
	l.first.Store(first)
	l.last.Store(last)
	l.tailSize.Store(l.tailMemory())
	l.written = last
	l.q.Init(last+1, groupcommit.Limits{MaxQueue: opts.MaxQueue, MaxQueueBytes: opts.MaxQueueBytes,
		MaxBatch: opts.MaxBatch, MaxBatchCost: maxBatchBytes})
	return l, nil
}

// FirstIndex returns the first index present in the log, or LastIndex()+1
// when the log is empty.
func (l *Log) FirstIndex() uint64 { return l.first.Load() }

// LastIndex returns the last durable index, 0 for a new empty log.
func (l *Log) LastIndex() uint64 { return l.last.Load() }

// Batches returns how many batches the writer has made durable since Open,
// one fsync each: LastIndex's growth divided by it is the mean group-commit
// size.
func (l *Log) Batches() uint64 { return l.BatchSizes().Count() }

// TailBytes is about the heap the log library holds for the tail
// segment: tidwall/wal keeps the whole tail segment in memory (its bytes
// and a 16-byte position per entry), whatever the number of records or
// accounts. Our copy of it (third_party/tidwall-wal, PATCHES.md) gives
// the bytes their full room, Options.SegmentSize plus tidwall.TailReserve,
// at the tail's first write: that is the heap held from then on, though
// its pages become resident only as they are written.
func (l *Log) TailBytes() int64 { return l.tailSize.Load() }

// tailMemory is what TailBytes reports, from the writer's model of the
// tail segment.
func (l *Log) tailMemory() int64 {
	held := l.tailBytes
	if l.tailWritten {
		held = max(held, int64(l.opts.SegmentSize)+tidwall.TailReserve)
	}
	return held + tidwallPosBytes*l.tailEntries
}

// tidwallPosBytes is the size of tidwall v1.2.1's per-entry position
// (bpos: two ints) in its in-memory copy of a segment.
const tidwallPosBytes = 16

// DropReadCache frees the segments tidwall cached for reads (Scan): up to
// two whole segments, kept after recovery for as long as the process
// lives unless dropped. Call it once the reading is done; a later Scan
// reads them again.
func (l *Log) DropReadCache() {
	l.readMu.Lock() // reads load and evict cached segments (readRaw)
	defer l.readMu.Unlock()
	if !l.readsClosed {
		// Bytes a reader already holds stay valid: the cache only lets go
		// of them. It fails only on a corrupt log, which Scan reports.
		_ = l.tw.ClearCache()
	}
}

// Committed returns a 1-buffered channel that receives after every durable
// batch. A tailing reader waits on it, then Scans from where it left off; a
// signal that finds the buffer full is dropped, which loses nothing because
// the reader reads up to LastIndex().
func (l *Log) Committed() <-chan struct{} { return l.committed }

// readRaw returns the stored frame bytes of a durable index. The bytes are
// tidwall's cached copy (NoCopy): never modify them. Durable bytes are never
// rewritten, so they may be read after readMu is released.
func (l *Log) readRaw(index uint64) ([]byte, error) {
	l.readMu.Lock()
	defer l.readMu.Unlock()
	if l.readsClosed {
		return nil, ErrClosed
	}
	if first, last := l.first.Load(), l.last.Load(); index < first || index > last {
		return nil, fmt.Errorf("%w: index %d, log holds %d..%d", ErrOutOfRange, index, first, last)
	}
	raw, err := l.tw.Read(index)
	if err != nil {
		return nil, fmt.Errorf("%w: index %d: tidwall: %w", ErrCorrupt, index, err)
	}
	return raw, nil
}

// readFrame reads and verifies the frame at index.
func (l *Log) readFrame(index uint64) (Frame, error) {
	raw, err := l.readRaw(index)
	if err != nil {
		return Frame{}, err
	}
	f, err := DecodeFrame(raw)
	if err != nil {
		return Frame{}, fmt.Errorf("%w: index %d: %w", ErrCorrupt, index, err)
	}
	if f.Index != index {
		return Frame{}, fmt.Errorf("%w: index %d: frame carries index %d", ErrCorrupt, index, f.Index)
	}
	return f, nil
}

// Read returns a copy of the payload at index. Only durable entries can be
// read. The frame is verified (checksum and index); the chain needs the
// neighbour and is checked by Scan.
func (l *Log) Read(index uint64) ([]byte, error) {
	f, err := l.readFrame(index)
	if err != nil {
		return nil, fmt.Errorf("wal: read: %w", err)
	}
	out := make([]byte, len(f.Payload))
	copy(out, f.Payload)
	return out, nil
}

// Scan calls fn for every entry from `from` to the LastIndex() seen when
// Scan starts, in order. It verifies every frame and the chain between
// consecutive frames, including the link from from-1 when that entry is
// present, and stops at the first bad frame with an error naming its index
// and the reason. The payload passed to fn is valid only until fn returns.
// An error from fn stops the scan and is returned as is. from > LastIndex()
// scans nothing; from < FirstIndex() is ErrOutOfRange.
func (l *Log) Scan(from uint64, fn func(index uint64, payload []byte) error) error {
	last := l.last.Load()
	if first := l.first.Load(); from < first {
		return fmt.Errorf("wal: scan: %w: from %d, log holds %d..%d", ErrOutOfRange, from, first, last)
	}
	if from > last {
		return nil
	}
	var prevCRC uint32
	chained := false
	if from > l.first.Load() {
		f, err := l.readFrame(from - 1)
		if err != nil {
			return fmt.Errorf("wal: scan: %w", err)
		}
		prevCRC, chained = f.CRC, true
	}
	var buf []byte // fn gets a copy so it cannot scribble on tidwall's cache
	for i := from; i <= last; i++ {
		f, err := l.readFrame(i)
		if err != nil {
			return fmt.Errorf("wal: scan: %w", err)
		}
		if i == 1 && f.PrevCRC != 0 {
			return fmt.Errorf("wal: scan: %w: index 1: first frame has prevCRC %#08x, want 0", ErrCorrupt, f.PrevCRC)
		}
		if chained && f.PrevCRC != prevCRC {
			return fmt.Errorf("wal: scan: %w: index %d: chain broken: prevCRC %#08x, index %d has crc %#08x",
				ErrCorrupt, i, f.PrevCRC, i-1, prevCRC)
		}
		prevCRC, chained = f.CRC, true
		buf = append(buf[:0], f.Payload...)
		if err := fn(i, buf); err != nil {
			return err
		}
	}
	return nil
}

// TruncateFront removes every segment file whose entries are all below
// index. Entries >= index always remain, and so may some below it: whole
// segments only, because tidwall's own TruncateFront rewrites the segment
// holding index. index may be at most LastIndex()+1; the tail segment is never
// removed. The directory is fsynced before returning.
//
// Files are removed oldest first, so a crash leaves a contiguous suffix of
// segments on ext4-like journaling filesystems (they commit directory
// operations in order).
func (l *Log) TruncateFront(index uint64) error {
	l.truncMu.Lock()
	defer l.truncMu.Unlock()
	l.readMu.Lock()
	closed := l.readsClosed
	l.readMu.Unlock()
	if closed {
		return ErrClosed
	}
	if last := l.last.Load(); index > last+1 {
		return fmt.Errorf("wal: truncate front to %d: %w: last index is %d", index, ErrOutOfRange, last)
	}
	if index <= l.first.Load() {
		return nil
	}
	segs, err := listSegments(l.dir)
	if err != nil {
		return fmt.Errorf("wal: truncate front to %d: %w", index, err)
	}
	// segs[i] holds segs[i].first .. segs[i+1].first-1. Segments are only
	// ever added after the last one, so a segment appearing concurrently
	// cannot change this for the ones before it.
	n := 0
	for n+1 < len(segs) && segs[n+1].first <= index {
		n++
	}
	if n == 0 {
		return nil
	}
	l.readMu.Lock()
	if l.readsClosed {
		l.readMu.Unlock()
		return ErrClosed
	}
	l.first.Store(segs[n].first)
	for _, s := range segs[:n] {
		if err = os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			break
		}
		err = nil
	}
	l.readMu.Unlock()
	if err != nil {
		return fmt.Errorf("wal: truncate front to %d: %w", index, err)
	}
	if err := syncDir(l.dir); err != nil {
		return fmt.Errorf("wal: truncate front to %d: %w", index, err)
	}
	l.opts.Logf("wal: truncated front index=%d removed_segments=%d first_index=%d", index, n, segs[n].first)
	return nil
}

// Close waits until every queued append is durable (or failed), stops the
// writer and closes the files. After a fatal error it returns that error and
// leaves tidwall's file alone: closing tidwall would fsync it again, which
// is exactly the retry that must not happen.
func (l *Log) Close() error {
	if !l.q.Close() {
		return ErrClosed
	}
	<-l.stopped

	l.readMu.Lock()
	l.readsClosed = true
	l.readMu.Unlock()
	defer l.lock.Close() // releases the flock
	l.tail.Close()       // read-only: closing it syncs nothing
	l.syncer.close()     // nothing is in flight: the writer has stopped

	if err := l.q.Failure(); err != nil {
		return fmt.Errorf("wal: close %s: %w: %w", l.dir, ErrFailed, err)
	}
	if err := l.tw.Close(); err != nil {
		return fmt.Errorf("wal: close %s: %w", l.dir, err)
	}
	return nil
}
