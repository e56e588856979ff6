package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/internal/loglevel"
	"github.com/fxd-labs/fxd/partlog"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/internal/mapshrink"
	"github.com/fxd-labs/fxd/snapshot"
	"github.com/fxd-labs/fxd/wal"
)

// Config configures an engine.
type Config struct {
	DataDir string
	Env     string // "test" or "live": the key id prefix and account env
	// PassivateAfter is how long an idle entity actor (any kind) stays in
	// memory before it passivates (fxd serve --passivate-after).
	PassivateAfter time.Duration
	// MaxInflight bounds messages waiting in one account's mailbox.
	MaxInflight int64
	// SyncEvery is how often the snapshot store is synced and the log
	// truncated in front of it.
	SyncEvery time.Duration
	// Clock is the time source (tests may pin it). Default time.Now.
	Clock func() time.Time
	// Logger receives one JSON line per event of note.
	Logger *slog.Logger
	// WAL tunes the local log; zero values take its defaults.
	WAL wal.Options
	// OpenLog, if set, opens the engine's log of part instead of the local
	// one under DataDir/wal: a cluster node's JetStream stream (jslog). The
	// engine passes the part's durable feed and its fatal exit in opts.
	OpenLog func(part int, opts partlog.Options) (partlog.PartitionLog, error)
	// Partitions is how many logs (parts) OpenLog opens, 1 to
	// ids.Partitions; an entity's records go to part PartitionOf(id) mod
	// Partitions. Zero or 1: one log for everything (the local log needs
	// that).
	Partitions int
	// Handover: the engine owns no part until Own (a cluster node owns the
	// partitions it leads); a part whose log is fenced is given up
	// (Disown) instead of ending the process. Otherwise every part is
	// owned from the start. Needs OpenLog.
	Handover bool
	// GivenUp, if set, is told of a part the engine gave up on its own
	// (its log fenced or failed) while whoever calls Own may still think
	// it owns it; cluster.Leaders.Drop, so the node takes it up again if
	// it still leads. Called with the part's handover lock held: it must
	// not call Own or Disown itself.
	GivenUp func(part int)
	// feedSize overrides maxFeed (tests).
	feedSize int
}

func (c *Config) defaults() {
	if c.PassivateAfter == 0 {
		c.PassivateAfter = 2 * time.Minute
	}
	if c.MaxInflight == 0 {
		c.MaxInflight = 4096
	}
	if c.SyncEvery == 0 {
		c.SyncEvery = 5 * time.Second
	}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	if c.Env == "" {
		c.Env = "test"
	}
}

// Engine owns the log, the snapshot store, the actor system and the key
// directory. It is the only door through which state changes.
type Engine struct {
	cfg    Config
	parts  []*part // the logs, each with its applier's progress (part.go)
	store  *snapshot.Store
	system *actor.ActorSystem
	dir    *Directory
	reg    *registry
	ids    ids.Generator
	// hooks, by entity kind, in the order added; see AddHook.
	hooks [domain.NumKinds][]func(id string, events []domain.Event)
	// ownership hooks, in the order added; see AddOwnership.
	ownership []func(part int, owned bool)

	ready  atomic.Bool
	epoch  atomic.Int64 // the passivation sweeper's ticks (passivate.go)
	backup backupGuard  // one backup at a time; pins the log while it copies (backup.go)
	// taken and given count parts taken up and given up (handover.go).
	taken, given atomic.Uint64

	stop     chan struct{}
	wg       sync.WaitGroup
	closeErr error
	fx       *fatalExit // ends the process on a storage failure (fatal.go)
}

// ErrNotReady is returned while the engine is recovering.
var ErrNotReady = errors.New("actors: recovering")

// Open opens the log (repairing a torn tail) and the snapshot store. It does
// not replay: call Recover, which may take a while, then serve.
func Open(cfg Config) (*Engine, error) {
	cfg.defaults()
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("actors: data dir %s: %w", cfg.DataDir, err)
	}
	fx := newFatalExit(cfg.Logger)
	e := &Engine{
		cfg: cfg, dir: newDirectory(cfg.Env), reg: newRegistry(),
		stop: make(chan struct{}),
		fx:   fx,
	}
	if err := openParts(e, cfg, fx); err != nil {
		return nil, err
	}
	store, err := snapshot.OpenFatal(filepath.Join(cfg.DataDir, "state"), fx.fail, cfg.Logger)
	if err != nil {
		_ = closeParts(e.parts)
		return nil, err
	}
	e.store, e.system = store, NewSystem(cfg.Logger)
	return e, nil
}

// openLog opens cfg.OpenLog's log of part, or the local one (repairing a
// torn tail), which it also returns as local.
func openLog(cfg Config, part int, opts partlog.Options) (partlog.PartitionLog, *wal.Log, error) {
	if cfg.OpenLog != nil {
		log, err := cfg.OpenLog(part, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("actors: open log %d: %w", part, err)
		}
		return log, nil, nil
	}
	walOpts := cfg.WAL
	walOpts.OnDurable, walOpts.OnFatal, walOpts.Logf = opts.OnDurable, opts.OnFatal, opts.Logf
	log, rep, err := wal.Open(filepath.Join(cfg.DataDir, "wal"), walOpts)
	if err != nil {
		return nil, nil, err
	}
	if rep.CutBytes > 0 {
		cfg.Logger.Warn("wal tail repaired", "segment", rep.Segment, "cut_at", rep.CutAtOffset,
			"cut_bytes", rep.CutBytes, "broken_file", rep.BrokenFile, "last_good_index", rep.LastGoodIndex)
	}
	return log, log, nil
}

// NewSystem is a protoactor actor system whose own log lines go through
// logger's handler, JSON like the service's (protoactor's default is
// coloured text), at warn and above whatever the handler admits: its info
// lines ("actor system started") say nothing an operator needs.
func NewSystem(logger *slog.Logger) *actor.ActorSystem {
	h := loglevel.Floor(logger.Handler(), slog.LevelWarn)
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(h)
	}))
}

// Recover brings the snapshot store up to the end of the log, loads the key
// directory and starts the background applier. Until it returns, Ready is
// false and /health answers 503.
func (e *Engine) Recover() error {
	start := time.Now()
	from, replayed := uint64(0), 0
	for _, p := range e.parts {
		applied, n, err := p.recover()
		var lre logReadError
		if err != nil && e.cfg.Handover && errors.As(err, &lre) {
			// A stream read failing while leadership settles: the part's
			// applier tries again (catchUpOrFail), as Own does.
			e.cfg.Logger.Warn("partition log not applied at start; trying again", "part", p.n, "err", err.Error())
			err = nil
		}
		if err != nil {
			return err
		}
		from, replayed = from+applied, replayed+n
	}
	if err := e.store.Keys(func(k *domain.APIKey) error { e.dir.put(k); return nil }); err != nil {
		return err
	}
	e.cfg.Logger.Info("recovered", "from_index", from, "replayed", replayed, "last_index", e.LastIndex(),
		"logs", len(e.parts), "keys", e.dir.Len(), "took_ms", time.Since(start).Milliseconds())
	for _, p := range e.parts {
		p.startApplier()
	}
	e.startSweeper()
	e.ready.Store(true)
	return nil
}

// recover brings the store up to the end of p's log; it returns where the
// store was and how many records it applied.
func (p *part) recover() (uint64, int, error) {
	applied, err := p.e.store.PartAppliedIndex(p.n)
	if err != nil {
		return 0, 0, err
	}
	if first := p.log().FirstIndex(); applied+1 < first {
		return 0, 0, fmt.Errorf("actors: snapshot store is at index %d of log %d but the log starts at %d: records %d..%d are lost",
			applied, p.n, first, applied+1, first-1)
	}
	p.applied.Store(applied)
	n, err := p.catchUp()
	if err != nil {
		return 0, 0, err
	}
	p.dropReadCache() // replay read the log back; the feed serves from now on
	p.readBack = false
	return applied, n, nil
}

// MetaStore holds service facts: the engine (its log) on a single node; a
// cluster node's own files for the facts that are the node's, not a
// partition's (cluster.NodeMeta: its chain watcher's progress, the chain
// it is bound to).
type MetaStore interface {
	// Meta reads a fact ("" when never set).
	Meta(key string) (string, error)
	// PutMeta records a fact durably.
	PutMeta(key, value string) error
}

var _ MetaStore = (*Engine)(nil)

// BindChain records the chain's genesis hash in m on first start and
// refuses to run on any other chain afterwards: balances, orders and
// watchers of one chain must never be read against another. On a single
// node m is the engine: call it after Recover (the store then holds every
// logged fact).
func BindChain(m MetaStore, genesis string) error {
	have, err := m.Meta(MetaChainGenesis)
	if err != nil {
		return err
	}
	if have == genesis {
		return nil
	}
	if have != "" {
		return fmt.Errorf("actors: this data dir belongs to the chain with genesis %s, not %s; refusing to start", have, genesis)
	}
	return m.PutMeta(MetaChainGenesis, genesis)
}

// BindChain is BindChain(e, genesis).
func (e *Engine) BindChain(genesis string) error { return BindChain(e, genesis) }

// Meta reads a service fact recorded with PutMeta ("" when never set).
func (e *Engine) Meta(key string) (string, error) { return e.store.Meta(key) }

// PutMeta records a service fact (entity "") durably in the log and waits
// until the store holds it, so Meta reads it back at once and after any
// restart. The chain watcher records its last processed block this way.
func (e *Engine) PutMeta(key, value string) error {
	rec := domain.Record{Events: []domain.Event{{Kind: domain.EvMetaPut, ID: key, Value: value}}}
	p := e.metaPart()
	idx, err := p.log().Append(domain.MarshalRecord(nil, &rec))
	if err != nil {
		return fmt.Errorf("actors: record %s: %w", key, err)
	}
	// The background applier owns the store: wait for it to apply.
	for deadline := time.Now().Add(10 * time.Second); p.applied.Load() < idx; {
		if time.Now().After(deadline) {
			return fmt.Errorf("actors: record %d (%s) not applied in time", idx, key)
		}
		time.Sleep(100 * time.Microsecond)
	}
	return nil
}

// MetaChainGenesis is the meta key of the bound chain's genesis hash.
const MetaChainGenesis = "chain_genesis"

// Ready reports whether the engine serves.
func (e *Engine) Ready() bool { return e.ready.Load() }

// LastIndex is the last durable log index, summed over the logs (one on a
// single node): it grows by one with every record written.
func (e *Engine) LastIndex() uint64 {
	var n uint64
	for _, p := range e.parts {
		n += p.log().LastIndex()
	}
	return n
}

// AppliedIndex is the last index the snapshot store holds, summed over the
// logs as LastIndex is: the two are equal when the store is caught up.
func (e *Engine) AppliedIndex() uint64 {
	var n uint64
	for _, p := range e.parts {
		n += p.applied.Load()
	}
	return n
}

// local is the local write-ahead log, nil on cluster streams.
func (e *Engine) local() *wal.Log { return e.metaPart().local }

// LogBatches is the number of group-committed log batches since start
// (one fsync each; on partition streams one message each), summed over
// the logs.
func (e *Engine) LogBatches() uint64 { return e.LogBatchSizes().Count() }

// LogTailBytes is the log's tail segment, which the log library holds in
// memory (wal.Log.TailBytes).
func (e *Engine) LogTailBytes() int64 {
	if e.local() == nil {
		return 0
	}
	return e.local().TailBytes()
}

// Directory is the key directory used by authentication.
func (e *Engine) Directory() *Directory { return e.dir }

// Env is "test" or "live".
func (e *Engine) Env() string { return e.cfg.Env }

// NewID makes a fresh id with the prefix for a record of the account that
// owner belongs to (owner: the account's id or any id of its records), so
// the id carries the account's partition.
func (e *Engine) NewID(prefix, owner string) string {
	return e.ids.New(prefix, e.cfg.Clock(), ids.PartitionOf(owner))
}

// idSource makes the ids of entity id's records: they carry its partition.
// An actor makes it once, at activation.
func (e *Engine) idSource(id string) func(prefix string) string {
	p := ids.PartitionOf(id)
	return func(prefix string) string { return e.ids.New(prefix, e.cfg.Clock(), p) }
}

// env is the decision environment of one command: the engine's clock,
// normalized so it survives the codec unchanged, and the entity's id source.
func (e *Engine) env(newID func(string) string) domain.Env {
	return domain.Env{Now: e.cfg.Clock().UTC().Round(0), NewID: newID}
}

// Close stops the applier and the actors, then closes the log and the store.
func (e *Engine) Close() error {
	select {
	case <-e.stop:
		return e.closeErr
	default:
	}
	e.closeHandovers()
	close(e.stop)
	e.wg.Wait()
	e.system.Shutdown()
	e.backup.close() // a running backup reads the log and the store (backup.go)
	errLog := closeParts(e.parts)
	if e.ready.Load() {
		// Final sync so the next start replays as little as possible.
		if err := e.store.Sync(); err != nil && errLog == nil {
			errLog = err
		}
	}
	errStore := e.store.Close()
	e.closeErr = errors.Join(errLog, errStore)
	return e.closeErr
}

// await waits for the reply on done or the end of ctx.
func await[T any](ctx context.Context, id string, done <-chan T) (T, error) {
	select {
	case r := <-done:
		return r, nil
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("actors: %s: %w", id, ctx.Err())
	}
}

// ErrBusy is returned when a bound is reached (mailbox, active accounts).
var ErrBusy = errors.New("actors: busy")

// sendTo delivers msg to entity id's actor, calling activate (with the
// shard lock held, so one entity is never activated twice) if it is not in
// memory.
func (e *Engine) sendTo(id string, msg any, activate func() (*entry, error)) error {
	if !e.ready.Load() {
		return ErrNotReady
	}
	p := e.partOf(id)
	sh := e.reg.shard(id)
	sh.mu.Lock()
	if !p.owned.Load() { // under the lock: see stopPart
		sh.mu.Unlock()
		return ErrNotOwner
	}
	en := sh.m[id]
	if en == nil {
		if e.reg.active() >= MaxActiveAccounts {
			sh.mu.Unlock()
			return fmt.Errorf("%w: %d entities active", ErrBusy, MaxActiveAccounts)
		}
		var err error
		if en, err = activate(); err != nil {
			sh.mu.Unlock()
			return err
		}
		sh.m[id] = en
		sh.peak.Saw(len(sh.m))
		e.reg.add(1)
	}
	if atomic.LoadInt64(&en.inflight) >= e.cfg.MaxInflight {
		sh.mu.Unlock()
		return fmt.Errorf("%w: %s has %d messages waiting", ErrBusy, id, e.cfg.MaxInflight)
	}
	atomic.AddInt64(&en.inflight, 1)
	sh.mu.Unlock()
	e.system.Root.Send(en.pid, msg)
	return nil
}

// entityDispatcher runs an entity's mailbox on the goroutine that posts to
// an idle mailbox, instead of on a new goroutine per wake-up: the HTTP
// handler runs the decide step itself, and the log writer runs the commit
// step of the batch it just made durable. Each write then costs one
// goroutine hand-off (the reply to the waiting handler) instead of three,
// which measured +10% durable writes/s on two cores. It is safe because an
// entity's Receive never blocks: it decides, enqueues to the log (which
// never waits), applies and answers on buffered channels; the mailbox
// still runs one message at a time. Nothing may post to an entity while
// holding a lock that the entity's commit takes (the directory, the FX
// tracker), since the post may run the commit right there.
var entityDispatcher = actor.NewSynchronizedDispatcher(300)

// entityProps spawns an entity actor (account or order) on entityDispatcher.
func entityProps(a actor.Actor) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return a }, actor.WithDispatcher(entityDispatcher))
}

// unregister removes an idle actor's entry if no message is on its way to
// it. The actor stops itself only when this returns true.
func (e *Engine) unregister(acct string, en *entry) bool {
	sh := e.reg.shard(acct)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.m[acct] != en || atomic.LoadInt64(&en.inflight) != 0 {
		return false
	}
	delete(sh.m, acct)
	sh.m = mapshrink.Shrink(sh.m, &sh.peak)
	e.reg.add(-1)
	return true
}

// ActiveAccounts is the number of entity actors (accounts and orders) in memory.
func (e *Engine) ActiveAccounts() int { return e.reg.active() }

// fatal ends the process on a storage error with the one line of
// fatal.go, the log's failures and the store's alike: the log is the
// truth, and the next start recovers from it.
func (e *Engine) fatal(err error) { e.fx.fail(err) }
