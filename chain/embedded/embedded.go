// Package embedded runs go-ethereum's in-process dev chain (what `geth --dev`
// builds: node + eth + a simulated beacon) as fxd's default chain.
//
// The chain is kept in Config.DataDir and survives restarts, including
// kill -9: state is stored with the hash scheme in archive mode (every
// block's state is written, nothing is pruned or held in memory), and the
// database's write-ahead log is fsynced after every sealed block.
//
// Blocks are sealed by this package, not by go-ethereum's period timer:
// soon after transactions are pending (at most one block per wall-clock
// second, as many transactions per block as fit), and an empty block when
// none has been sealed for 2 s, so block time moves and stays within 2 s of
// the wall clock.
//
// eth_getLogs is served from go-ethereum's log index (filtermaps), so its
// cost does not grow with the range; a binary built with -race skips the
// index (see ethConfig).
//
// The standard JSON-RPC (eth, net, web3, txpool; never admin, debug, miner,
// personal) is served over HTTP on Config.RPCListen, so callers use any
// Ethereum library (ethers, cast, ethclient) as on a public network. The
// service itself uses Node.Backend(), attached in-process. Neither shows a
// block before it is durable (visible.go).
package embedded

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethclient"
	gethlog "github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/rpc"
)

const (
	// DefaultChainID is the dev chain's id (as geth --dev).
	DefaultChainID = 1337
	// DefaultGasLimit is the block gas limit.
	DefaultGasLimit = 30_000_000

	// nodeName names go-ethereum's instance directory inside DataDir:
	// the chain database is DataDir/node/chaindata.
	nodeName = "node"

	// databaseCache is the Pebble cache in MB. go-ethereum's default (2048)
	// preallocates ~1.7 GB of memtables.
	databaseCache = 64
	// trieCleanCache is the trie node cache in MB.
	trieCleanCache = 64

	// minBlockInterval is the shortest gap between blocks: block timestamps
	// are whole seconds and at least parent+1, so sealing faster than once
	// per second runs chain time ahead of the wall clock.
	minBlockInterval = time.Second
	// maxBlockInterval: an empty block is sealed when none has been for this
	// long, so block time keeps up with the wall clock.
	maxBlockInterval = 2 * time.Second
	// gatherWindow is the least time between a transaction becoming pending
	// and the block that includes it. Besides batching bursts, it keeps a
	// receipt from appearing within 250 ms of the sender's nonce lookup:
	// ethers v6 caches identical JSON-RPC calls for 250 ms (cacheTimeout),
	// so a wallet that sends, waits for the receipt and sends again would
	// otherwise reuse the old eth_getTransactionCount and fail with "nonce
	// too low".
	gatherWindow = 300 * time.Millisecond
)

// httpModules are the only RPC namespaces served over HTTP.
var httpModules = []string{"eth", "net", "web3", "txpool"}

// Config configures the embedded chain.
type Config struct {
	// DataDir holds the chain (DataDir/node/chaindata); required.
	DataDir string
	// RPCListen is the HTTP JSON-RPC address, e.g. "127.0.0.1:8545";
	// "" serves no HTTP; an empty host means 127.0.0.1; port 0 picks a free
	// port (see Node.RPCURL). CORS and virtual hosts are wide open (any
	// origin, any Host header), which is meant for loopback: do not bind
	// it to a public interface.
	RPCListen string
	// ChainID defaults to 1337.
	ChainID uint64
	// Alloc is merged into the dev genesis (precompiles and the system
	// contracts of the enabled forks); on conflict Alloc wins. It only
	// matters for a fresh data dir; on an existing one it must give the
	// same genesis hash as the stored chain or Start fails.
	Alloc types.GenesisAlloc
	// GasLimit is the block gas limit, default 30M.
	GasLimit uint64
	// Logger receives this package's logs and go-ethereum's node warnings;
	// nil discards them.
	Logger *slog.Logger

	// afterSync, if set, is called from the sealing goroutine after a block
	// has been sealed and fsynced (tests).
	afterSync func(*types.Header)
}

// Node is a running embedded chain.
type Node struct {
	cfg         Config
	log         *slog.Logger
	stack       *node.Node
	eth         *eth.Ethereum
	beacon      *catalyst.SimulatedBeacon
	client      *ethclient.Client
	genesisHash common.Hash
	rpcURL      string

	kick      chan struct{} // one slot: "transactions became pending"
	quit      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	synced atomic.Uint64 // number of the last block known to be on disk
	// sealMu is held for writing from a block's sealing to its fsync, and
	// for reading by every read of Backend and of the JSON-RPC gate, so no
	// block is seen before it is durable (visible.go).
	sealMu  sync.RWMutex
	rpcGate *http.Server // in front of the JSON-RPC listener (nil: none)
	// rpcHold, if set, holds each gate request until it reports true
	// (false: answered 503): the stall fault's (stall.go).
	rpcHold atomic.Pointer[func(context.Context) bool]
}

// Genesis returns the genesis cfg describes: geth's dev genesis (all forks
// up to Osaka active from block 0; the unreleased Bogota fork disabled)
// with the given chain id, gas limit and alloc merged in.
func Genesis(chainID uint64, gasLimit uint64, alloc types.GenesisAlloc) *core.Genesis {
	if chainID == 0 {
		chainID = DefaultChainID
	}
	if gasLimit == 0 {
		gasLimit = DefaultGasLimit
	}
	g := core.DeveloperGenesisBlock(gasLimit, nil)
	conf := *g.Config // DeveloperGenesisBlock already copied the params global
	conf.ChainID = new(big.Int).SetUint64(chainID)
	// Bogota (unreleased in v1.17) reprices storage; keep to released rules.
	conf.BogotaTime = nil
	g.Config = &conf
	merged := maps.Clone(g.Alloc)
	maps.Copy(merged, alloc)
	g.Alloc = merged
	return g
}

// Start opens (or creates) the chain in cfg.DataDir, starts sealing and, if
// cfg.RPCListen is set, serves JSON-RPC over HTTP.
//
// On an existing data dir the stored chain is used as is; if its genesis
// hash or chain id differs from what cfg describes, Start fails without
// touching it.
func Start(cfg Config) (*Node, error) {
	begin := time.Now()
	if cfg.DataDir == "" {
		return nil, errors.New("embedded chain: DataDir is required")
	}
	if cfg.ChainID == 0 {
		cfg.ChainID = DefaultChainID
	}
	if cfg.GasLimit == 0 {
		cfg.GasLimit = DefaultGasLimit
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = logger.With("component", "chain")
	dataDir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: data dir: %w", err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded chain: data dir: %w", err)
	}

	genesis := Genesis(cfg.ChainID, cfg.GasLimit, cfg.Alloc)
	genesisHash := genesis.ToBlock().Hash()

	nodeConf := node.Config{
		Name:    nodeName,
		DataDir: dataDir,
		P2P: p2p.Config{ // as geth --dev: no networking
			MaxPeers:    0,
			ListenAddr:  "",
			NoDial:      true,
			NoDiscovery: true,
		},
		DBEngine:             "pebble",
		BatchRequestLimit:    node.DefaultConfig.BatchRequestLimit,
		BatchResponseMaxSize: node.DefaultConfig.BatchResponseMaxSize,
		HTTPBodyLimit:        node.DefaultConfig.HTTPBodyLimit,
		HTTPTimeouts:         rpc.DefaultHTTPTimeouts,
		Logger:               gethlog.NewLogger(minLevel{logger.Handler(), slog.LevelWarn}),
	}
	gateListen := ""
	if cfg.RPCListen != "" {
		host, portStr, err := net.SplitHostPort(cfg.RPCListen)
		if err != nil {
			return nil, fmt.Errorf("embedded chain: rpc listen %q: %w", cfg.RPCListen, err)
		}
		port, err := strconv.Atoi(portStr)
		if err != nil || port < 0 || port > 65535 {
			return nil, fmt.Errorf("embedded chain: rpc listen %q: bad port", cfg.RPCListen)
		}
		if host == "" {
			host = "127.0.0.1"
		}
		// go-ethereum serves on a port of its own; the gate takes
		// RPCListen (visible.go).
		nodeConf.HTTPHost = "127.0.0.1"
		nodeConf.HTTPPort = 0
		gateListen = net.JoinHostPort(host, strconv.Itoa(port))
		nodeConf.HTTPModules = httpModules
		nodeConf.HTTPCors = []string{"*"}
		nodeConf.HTTPVirtualHosts = []string{"*"}
	}
	stack, err := node.New(&nodeConf)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: %w", err)
	}
	var client *ethclient.Client
	ok := false
	defer func() {
		if !ok {
			if client != nil {
				client.Close()
			}
			stack.Close()
		}
	}()

	// A stored chain is reused as geth --dev does (Genesis = nil: the stored
	// chain config rules, so a go-ethereum upgrade never rewinds it), after
	// checking it is the chain cfg describes.
	stored, err := storedGenesis(stack)
	if err != nil {
		return nil, err
	}
	ethConf := ethConfig(cfg)
	fresh := stored == nil
	if fresh {
		ethConf.Genesis = genesis
	} else {
		if stored.hash != genesisHash {
			return nil, fmt.Errorf("embedded chain: data dir %s holds a different chain: stored genesis %s, configured genesis %s", dataDir, stored.hash, genesisHash)
		}
		if stored.chainID != nil && stored.chainID.Uint64() != cfg.ChainID {
			return nil, fmt.Errorf("embedded chain: data dir %s holds chain id %s, configured %d", dataDir, stored.chainID, cfg.ChainID)
		}
	}

	backend, err := eth.New(stack, ethConf)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: %w", err)
	}
	filterSystem := filters.NewFilterSystem(backend.APIBackend, filters.Config{
		LogCacheSize:  ethConf.FilterLogCacheSize,
		LogQueryLimit: ethConf.LogQueryLimit,
		RangeLimit:    ethConf.RangeLimit,
	})
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(filterSystem)}})
	if err := stack.Start(); err != nil {
		return nil, fmt.Errorf("embedded chain: %w", err)
	}
	if got := backend.BlockChain().Genesis().Hash(); got != genesisHash {
		return nil, fmt.Errorf("embedded chain: genesis %s, expected %s", got, genesisHash)
	}
	// period 0: the beacon seals only when asked (Commit); see sealLoop.
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: beacon: %w", err)
	}

	client = ethclient.NewClient(stack.Attach())
	n := &Node{
		cfg:         cfg,
		log:         logger,
		stack:       stack,
		eth:         backend,
		beacon:      beacon,
		client:      client,
		genesisHash: genesisHash,
		kick:        make(chan struct{}, 1),
		quit:        make(chan struct{}),
	}
	if gateListen != "" {
		if n.rpcURL, n.rpcGate, err = n.gate(stack.HTTPEndpoint(), gateListen); err != nil {
			return nil, err
		}
	}
	head := backend.BlockChain().CurrentBlock()
	n.synced.Store(head.Number.Uint64())
	// Make the genesis (fresh start) and whatever eth.New repaired durable.
	if err := backend.ChainDb().SyncKeyValue(); err != nil {
		return nil, fmt.Errorf("embedded chain: sync: %w", err)
	}
	if head.Number.Sign() == 0 {
		// Until a first block is indexed, go-ethereum answers a receipt
		// query for an unknown tx with "transaction indexing is in
		// progress" instead of null, which breaks clients' polling. Seal it
		// now; it also starts chain time at the wall clock.
		n.seal(head)
	}
	for deadline := time.Now().Add(10 * time.Second); !backend.APIBackend.TxIndexDone(); {
		if time.Now().After(deadline) {
			logger.Warn("embedded chain: transaction index still catching up")
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	head = backend.BlockChain().CurrentBlock()

	txs := make(chan core.NewTxsEvent, 256)
	sub := backend.TxPool().SubscribeTransactions(txs, false)
	n.wg.Add(2)
	go n.kickLoop(txs, sub)
	go n.sealLoop()
	ok = true

	logger.Info("embedded chain started",
		"data_dir", dataDir, "fresh", fresh, "chain_id", cfg.ChainID,
		"genesis", genesisHash.Hex(), "head", head.Number.Uint64(),
		"rpc", n.rpcURL, "startup_ms", time.Since(begin).Milliseconds())
	return n, nil
}

type storedChain struct {
	hash    common.Hash
	chainID *big.Int
}

// storedGenesis reads the genesis hash and chain id of the chain already in
// the data dir, or nil if there is none.
func storedGenesis(stack *node.Node) (*storedChain, error) {
	db, err := stack.OpenDatabaseWithOptions("chaindata", node.DatabaseOptions{Cache: 16})
	if err != nil {
		return nil, fmt.Errorf("embedded chain: open database: %w", err)
	}
	defer db.Close()
	hash := rawdb.ReadCanonicalHash(db, 0)
	if hash == (common.Hash{}) {
		return nil, nil
	}
	s := &storedChain{hash: hash}
	if conf := rawdb.ReadChainConfig(db, hash); conf != nil {
		s.chainID = conf.ChainID
	}
	return s, nil
}

func ethConfig(cfg Config) *ethconfig.Config {
	c := ethconfig.Defaults
	c.NetworkId = cfg.ChainID
	c.SyncMode = ethconfig.FullSync
	// Durability across kill -9: hash scheme in archive mode writes every
	// block's state to the database as the block is inserted (the path
	// scheme and pruning keep recent state in memory and lose it).
	c.StateScheme = rawdb.HashScheme
	c.NoPruning = true
	c.SnapshotCache = 0 // no snapshot layer to regenerate after a crash
	c.DatabaseCache = databaseCache
	c.TrieCleanCache = trieCleanCache
	c.TrieDirtyCache = 0
	c.TransactionHistory = 0 // index every tx: receipts by hash forever
	c.LogHistory = 0         // index every block's logs
	// Under -race only (tests), skip the log index: Pebble's race-mode
	// invariant checks make it take tens of seconds per map, on start and
	// stop. eth_getLogs then scans the blocks of the range instead.
	c.LogNoHistory = raceEnabled
	c.TxPool.NoLocals = true // no journal: pool txs are not persisted
	c.TxPool.Journal = ""
	c.Miner.GasCeil = cfg.GasLimit
	c.Miner.GasPrice = big.NewInt(1) // as geth --dev: min tip 1 wei
	return &c
}

// Client is the in-process JSON-RPC client (all namespaces; no network hop),
// without the visibility gate: it may see a block before it is durable
// (tests of the node itself). The service uses Backend. It is owned by the
// Node: do not close it.
func (n *Node) Client() *ethclient.Client { return n.client }

// RPCURL is the HTTP JSON-RPC endpoint, e.g. "http://127.0.0.1:8545", or ""
// when not serving.
func (n *Node) RPCURL() string { return n.rpcURL }

// GenesisHash is the chain's genesis block hash.
func (n *Node) GenesisHash() common.Hash { return n.genesisHash }

// ChainID is the chain's EIP-155 id.
func (n *Node) ChainID() uint64 { return n.cfg.ChainID }

// Close stops sealing, fsyncs the database and shuts the node down. Pending
// (unmined) transactions are dropped. Close is idempotent.
func (n *Node) Close() error {
	n.closeOnce.Do(func() {
		close(n.quit)
		n.wg.Wait()
		var errs []error
		if err := n.beacon.Stop(); err != nil {
			errs = append(errs, err)
		}
		if err := n.eth.ChainDb().SyncKeyValue(); err != nil {
			errs = append(errs, err)
		}
		if n.rpcGate != nil {
			_ = n.rpcGate.Close()
		}
		n.client.Close()
		if err := n.stack.Close(); err != nil {
			errs = append(errs, err)
		}
		n.closeErr = errors.Join(errs...)
		n.log.Info("embedded chain stopped", "head", n.synced.Load(), "err", n.closeErr)
	})
	return n.closeErr
}

// kickLoop turns "transactions became executable" events into a one-slot
// kick for sealLoop. Sealing must not happen on this goroutine: the pool
// sends these events from its own loop, and sealing waits on that loop.
func (n *Node) kickLoop(txs <-chan core.NewTxsEvent, sub interface {
	Unsubscribe()
	Err() <-chan error
}) {
	defer n.wg.Done()
	defer sub.Unsubscribe()
	for {
		select {
		case <-txs:
			select {
			case n.kick <- struct{}{}:
			default:
			}
		case <-sub.Err():
			return
		case <-n.quit:
			return
		}
	}
}

// sealLoop seals blocks: when transactions are pending, at the later of
// the first whole second after the head's timestamp and gatherWindow after
// they were first seen pending; otherwise an empty block maxBlockInterval
// after the head.
func (n *Node) sealLoop() {
	defer n.wg.Done()
	pool := n.eth.TxPool()
	chain := n.eth.BlockChain()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var pendingSince time.Time // zero: nothing pending seen since the last seal
	for {
		// Let the pool finish resetting to the current head before asking
		// what is executable, or just-mined txs count as pending.
		if err := pool.Sync(); err != nil {
			select {
			case <-n.quit:
				return
			default:
			}
			n.log.Warn("embedded chain: txpool sync", "err", err)
		}
		now := time.Now()
		if pending, _ := pool.Stats(); pending == 0 {
			pendingSince = time.Time{}
		} else if pendingSince.IsZero() {
			pendingSince = now
		}
		head := chain.CurrentHeader()
		if delay := sealDelay(head.Time, pendingSince, now); delay > 0 {
			timer.Reset(delay)
			kick := n.kick
			if !pendingSince.IsZero() {
				kick = nil // already due soon; more txs join that block
			}
			select {
			case <-n.quit:
				timer.Stop()
				return
			case <-kick:
				timer.Stop()
			case <-timer.C:
			}
			continue // re-evaluate
		}
		select {
		case <-n.quit:
			return
		default:
		}
		n.seal(head)
		pendingSince = time.Time{}
	}
}

// sealDelay is how long to wait, at wall time now, before sealing on a
// parent with timestamp parentTime (seconds), given when transactions were
// first seen pending (zero: none are).
//
// A parent ahead of the wall clock (clock stepped back) counts as sealed
// now, so sealing never stalls.
func sealDelay(parentTime uint64, pendingSince, now time.Time) time.Duration {
	parent := time.Unix(int64(parentTime), 0)
	if parent.After(now) {
		parent = now
	}
	if pendingSince.IsZero() {
		return parent.Add(maxBlockInterval).Sub(now)
	}
	due := parent.Add(minBlockInterval)
	if gathered := pendingSince.Add(gatherWindow); gathered.After(due) {
		due = gathered
	}
	return due.Sub(now)
}

// seal seals one block on parent and makes it durable.
func (n *Node) seal(parent *types.Header) {
	start := time.Now()
	head, made, ok := n.sealDurable(parent)
	if !made {
		n.log.Warn("embedded chain: sealing produced no block", "head", parent.Number.Uint64())
		// Back off so a persistent failure does not spin.
		select {
		case <-n.quit:
		case <-time.After(minBlockInterval):
		}
	}
	if !ok {
		return
	}
	if n.cfg.afterSync != nil {
		n.cfg.afterSync(head)
	}
	n.log.Debug("embedded chain: block sealed", "block", head.Number.Uint64(),
		"time", head.Time, "gas_used", head.GasUsed, "seal_ms", time.Since(start).Milliseconds())
}

// sealDurable seals one block on parent and fsyncs it, with sealMu held
// for writing all along, so nobody reads the chain while the block exists
// and is not yet durable (visible.go). made is false when sealing
// produced no block; ok is true when a block was made and is durable.
func (n *Node) sealDurable(parent *types.Header) (head *types.Header, made, ok bool) {
	n.sealMu.Lock()
	defer n.sealMu.Unlock()
	n.beacon.Commit()
	head = n.eth.BlockChain().CurrentHeader()
	if head.Hash() == parent.Hash() {
		return nil, false, false
	}
	if err := n.eth.ChainDb().SyncKeyValue(); err != nil {
		n.log.Error("embedded chain: fsync after block", "block", head.Number.Uint64(), "err", err)
		return nil, true, false
	}
	n.synced.Store(head.Number.Uint64())
	return head, true, true
}

// minLevel drops records below a level (go-ethereum's node logs at Info
// are not events of note for the service).
type minLevel struct {
	slog.Handler
	level slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.level && h.Handler.Enabled(ctx, l)
}

func (h minLevel) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "P2P server will be useless, neither dialing nor listening" {
		return nil // by design: the dev chain has no peers
	}
	return h.Handler.Handle(ctx, r)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.level}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.level}
}
