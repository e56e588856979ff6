package jslog

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/partlog/groupcommit"
	"github.com/fxd-labs/fxd/wal"
)

// Errors returned by Log: partlog's, as for every log of the engine.
// Match them with errors.Is; most are wrapped with detail.
var (
	ErrQueueFull  = partlog.ErrQueueFull
	ErrClosed     = partlog.ErrClosed
	ErrTooLarge   = partlog.ErrTooLarge
	ErrFailed     = partlog.ErrFailed
	ErrOutOfRange = partlog.ErrOutOfRange
	ErrCorrupt    = partlog.ErrCorrupt
)

// position is an index and the sequence of the stream message holding it.
type position struct {
	index uint64
	seq   uint64
}

// The engine's log in a cluster.
var _ partlog.PartitionLog = (*Log)(nil)

// Log is a partlog.PartitionLog on one JetStream stream. All methods are
// safe for concurrent use.
type Log struct {
	cfg    Config
	opts   partlog.Options
	js     jetstream.JetStream
	stream jetstream.Stream
	// maxFrame is the largest frame one message can carry under the
	// server's max_payload; a longer payload is ErrTooLarge.
	maxFrame int

	front     atomic.Pointer[position] // FirstIndex and its message; moved by TruncateFront
	durable   atomic.Pointer[position] // LastIndex and its message; moved by the writer
	committed chan struct{}            // 1-buffered; signalled after each durable batch
	recent    recent                   // a follower's last delivered messages (recent.go)

	q             groupcommit.Queue[struct{}] // appends waiting for the writer (writer.go)
	maxBatchBytes int                         // frame bytes per message

	// Owned by the writer goroutine (writer.go).
	lastSeq   uint64   // the stream's last sequence as this writer knows it: the fence
	chainCRC  uint32   // crc of the last durable frame
	buf       []byte   // message data being built; reused
	payloads  [][]byte // the batch handed to OnDurable; reused
	fatalOnce sync.Once
	stopped   chan struct{} // closed when the writer goroutine returns

	// ctx bounds reads and purges; cancelled by Close.
	ctx     context.Context
	cancel  context.CancelFunc
	closed  atomic.Bool // reads and truncation refused
	truncMu sync.Mutex  // one TruncateFront at a time
}

// Open opens the log on cfg.Stream through js, creating the stream if it
// does not exist (file storage, cfg.Replicas, DefaultPersistMode) and
// refusing one the log cannot be durable or consistent on (see
// checkStream). It reads the stream's last message to learn LastIndex and
// the chain's crc, and its first message for FirstIndex, then starts the
// writer. ctx bounds Open only.
func Open(ctx context.Context, js jetstream.JetStream, cfg Config, opts partlog.Options) (*Log, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("jslog: open: %w", err)
	}
	l, err := open(ctx, js, cfg, opts)
	if err != nil {
		return nil, fmt.Errorf("jslog: open stream %s: %w", cfg.Stream, err)
	}
	return l, nil
}

func open(ctx context.Context, js jetstream.JetStream, cfg Config, opts partlog.Options) (*Log, error) {
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.OnFatal == nil {
		// A failed log is the partition's owner losing it (fenced) or an
		// unknown outcome; the engine reopens. Not a reason to end the
		// process, unlike a failed fsync of the local log.
		opts.OnFatal = func(err error) { opts.Logf("jslog: fatal stream=%s err=%q", cfg.Stream, err.Error()) }
	}
	stream, err := bindStream(ctx, js, cfg, opts.Logf)
	if err != nil {
		return nil, err
	}
	maxData := int(js.Conn().MaxPayload()) - headerRoom - len(cfg.Stream)
	if maxData < wal.HeaderSize+1 {
		return nil, fmt.Errorf("server max_payload %d leaves no room for a frame", js.Conn().MaxPayload())
	}
	l := &Log{
		cfg:       cfg,
		opts:      opts,
		js:        js,
		stream:    stream,
		maxFrame:  maxData,
		committed: make(chan struct{}, 1),
		stopped:   make(chan struct{}),
	}
	front, last, err := l.readEnds(ctx)
	if err != nil {
		return nil, err
	}
	l.front.Store(&front)
	l.durable.Store(&last)
	l.maxBatchBytes = min(cfg.MaxBatchBytes, maxData)
	l.q.Init(last.index+1, groupcommit.Limits{MaxQueue: cfg.MaxQueue, MaxQueueBytes: cfg.MaxQueueBytes,
		MaxBatch: cfg.MaxBatch, MaxBatchCost: int64(l.maxBatchBytes), Cost: frameCost})
	l.ctx, l.cancel = context.WithCancel(context.Background())
	if opts.Follow {
		go l.follow()
		return l, nil
	}
	go l.run()
	return l, nil
}

// bindStream returns the stream, created if missing, after checkStream.
func bindStream(ctx context.Context, js jetstream.JetStream, cfg Config, logf func(string, ...any)) (jetstream.Stream, error) {
	stream, err := js.Stream(ctx, cfg.Stream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		stream, err = js.CreateStream(ctx, cfg.streamConfig())
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			stream, err = js.Stream(ctx, cfg.Stream) // another opener won the race
		}
	}
	if err != nil {
		return nil, err
	}
	got := stream.CachedInfo().Config
	if err := checkStream(got, cfg); err != nil {
		return nil, err
	}
	if got.Replicas != cfg.Replicas {
		logf("jslog: stream=%s has %d replicas, config asks %d: kept", cfg.Stream, got.Replicas, cfg.Replicas)
	}
	return stream, nil
}

// readEnds learns the first and last positions from the stream's leader:
// its state, then its first and last messages, verified. A stream that
// once held messages but holds none is refused: its last index is lost
// (TruncateFront always keeps the last message).
func (l *Log) readEnds(ctx context.Context) (front, last position, err error) {
	info, err := l.stream.Info(ctx)
	if err != nil {
		return front, last, fmt.Errorf("stream info: %w", err)
	}
	st := info.State
	if st.Msgs == 0 {
		if st.LastSeq != 0 {
			return front, last, fmt.Errorf("%w: no messages but last sequence %d: the log's last index is lost", ErrCorrupt, st.LastSeq)
		}
		return position{index: 1, seq: 1}, position{}, nil
	}
	if st.Msgs != st.LastSeq-st.FirstSeq+1 {
		return front, last, fmt.Errorf("%w: %d messages in sequences %d..%d: some are missing", ErrCorrupt, st.Msgs, st.FirstSeq, st.LastSeq)
	}
	lm, err := l.readMessage(ctx, st.LastSeq)
	if err != nil {
		return front, last, err
	}
	fm := lm
	if st.FirstSeq != st.LastSeq {
		if fm, err = l.readMessage(ctx, st.FirstSeq); err != nil {
			return front, last, err
		}
	}
	l.lastSeq, l.chainCRC = lm.seq, lm.lastCRC()
	return position{index: fm.first, seq: fm.seq}, position{index: lm.last(), seq: lm.seq}, nil
}

// FirstIndex is the first index held, LastIndex()+1 when empty.
func (l *Log) FirstIndex() uint64 {
	if f := l.front.Load().index; f <= l.LastIndex() {
		return f
	}
	return l.LastIndex() + 1
}

// LastIndex is the last durable index, 0 for a new log.
func (l *Log) LastIndex() uint64 { return l.durable.Load().index }

// Committed receives (1-buffered, dropping when full) after every durable
// batch; a tailing reader waits on it, then scans up to LastIndex.
func (l *Log) Committed() <-chan struct{} { return l.committed }

// Close waits until every queued append is durable (or failed), stops the
// writer and ends reads. It does not close the NATS connection, which is
// the caller's. After a failure it returns that failure. The wait is at
// most one PublishTimeout beyond the publishing of what is queued: after
// a failure nothing more is published.
func (l *Log) Close() error {
	if l.opts.Follow {
		return l.closeFollower()
	}
	if !l.q.Close() {
		return ErrClosed
	}
	<-l.stopped
	l.closed.Store(true)
	l.cancel()
	if err := l.q.Failure(); err != nil {
		return fmt.Errorf("jslog: close stream %s: %w: %w", l.cfg.Stream, ErrFailed, err)
	}
	return nil
}

// requestContext bounds one read or purge request; Close cancels it.
func (l *Log) requestContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(l.ctx, l.cfg.RequestTimeout)
}
