package embedded

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/fxd-labs/fxd/internal/faultinject"
)

// StallFault is the fault point (internal/faultinject, a -tags faultinject
// build only) that stalls the embedded chain: chain-stall-file=PATH. While
// PATH exists:
//
//   - the JSON-RPC listener wallets use (Config.RPCListen) holds every
//     request until the file is removed or the caller gives up;
//   - the service's own client (Node.Client) gets no answer: the node reads
//     no request until the file is removed, so a call ends at its context's
//     deadline;
//   - no block is sealed after the one being sealed when the file appeared
//     (sealing pauses right after each block, so at most that one).
//
// Removing the file resumes all three. Its presence is looked at at most
// every stallPoll, by whoever asks first.
//
// To stall the service's client, the node is reached over a local socket
// instead of go-ethereum's in-process pipe (which has no write deadline):
// the same server, the same namespaces, notifications included. To stall
// the listener, the node's JSON-RPC gate (visible.go, which takes
// RPCListen in every build) holds each request while stalled.
const StallFault = "chain-stall-file"

// Bounds of the stall's plumbing.
const (
	// stallPoll is how stale the file's presence may be, and how often a
	// stalled caller looks again.
	stallPoll = 100 * time.Millisecond
	// maxStallConns bounds the service client's connections to the node
	// (it opens another after a write that timed out); beyond it a
	// connection is closed at once and the client dials again later.
	maxStallConns = 64
)

// StartWithFaults is Start plus the fault points of a faultinject build
// (StallFault). In any other build it is Start.
func StartWithFaults(cfg Config) (*Node, error) {
	path, ok := faultinject.Lookup(StallFault)
	if !ok || path == "" {
		return Start(cfg)
	}
	n, _, err := startStalling(cfg, path)
	return n, err
}

// startStalling starts the node with the stall in front of its RPC and
// inside its sealing.
func startStalling(cfg Config, path string) (*Node, *stall, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &stall{path: path, log: logger.With("component", "chain", "fault", StallFault), done: make(chan struct{})}
	prev := cfg.afterSync
	cfg.afterSync = func(h *types.Header) {
		if prev != nil {
			prev(h)
		}
		s.holdSealing()
	}
	n, err := Start(cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := s.attach(n); err != nil {
		s.stop()
		n.Close()
		return nil, nil, err
	}
	s.log.Warn("embedded chain: stall fault armed", "file", path, "rpc", n.rpcURL)
	return n, s, nil
}

// stall tells whether the chain is stalled (the file exists) and holds
// callers while it is.
type stall struct {
	path    string
	log     *slog.Logger
	checked atomic.Int64 // unix nanos of the last stat
	present atomic.Bool
	// sealHeld: the sealing goroutine is held (after the block it sealed),
	// so no block comes until the file is removed.
	sealHeld atomic.Bool
	done     chan struct{} // closed when the node stops: nobody is held any more
	once     sync.Once

	closers []func() error // the plumbing attach built, closed by stop
}

// stalled reports whether the file exists, as of at most stallPoll ago.
func (s *stall) stalled() bool {
	now := time.Now().UnixNano()
	if last := s.checked.Load(); now-last >= int64(stallPoll) && s.checked.CompareAndSwap(last, now) {
		_, err := os.Stat(s.path)
		present := err == nil
		if s.present.Swap(present) != present {
			s.log.Warn("embedded chain: stall fault", "stalled", present)
		}
	}
	return s.present.Load()
}

// wait holds the caller while the chain is stalled. It reports false when
// ctx ended or the node stopped first.
func (s *stall) wait(ctx context.Context) bool {
	if !s.stalled() {
		return true
	}
	t := time.NewTicker(stallPoll)
	defer t.Stop()
	for s.stalled() {
		select {
		case <-ctx.Done():
			return false
		case <-s.done:
			return false
		case <-t.C:
		}
	}
	return true
}

// holdSealing runs on the sealing goroutine after each block: while
// stalled, no further block.
func (s *stall) holdSealing() {
	if !s.stalled() {
		return
	}
	s.sealHeld.Store(true)
	defer s.sealHeld.Store(false)
	s.wait(context.Background())
}

// stop releases everyone held and closes the plumbing. Idempotent.
func (s *stall) stop() {
	s.once.Do(func() {
		close(s.done)
		for _, c := range s.closers {
			_ = c()
		}
	})
}

// attach gives n a stalling client and holds the requests of its
// JSON-RPC gate (visible.go) while stalled; both go when the node stops.
func (s *stall) attach(n *Node) error {
	client, err := s.client(n)
	if err != nil {
		return err
	}
	inproc := n.client
	n.client = client
	s.closers = append(s.closers, func() error { inproc.Close(); return nil })
	hold := s.wait
	n.rpcHold.Store(&hold)
	go func() {
		<-n.quit
		s.stop()
	}()
	return nil
}

// client serves the node's in-process handler on a local socket, reading
// nothing while stalled, and dials it.
func (s *stall) client(n *Node) (*ethclient.Client, error) {
	srv, err := n.stack.RPCHandler()
	if err != nil {
		return nil, fmt.Errorf("embedded chain: stall: %w", err)
	}
	dir, err := os.MkdirTemp("", "fxd-stall-")
	if err != nil {
		return nil, fmt.Errorf("embedded chain: stall: %w", err)
	}
	s.closers = append(s.closers, func() error { return os.RemoveAll(dir) })
	sock := filepath.Join(dir, "rpc.ipc")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: stall: %w", err)
	}
	s.closers = append(s.closers, ln.Close)
	go s.serveSocket(ln, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := rpc.DialIPC(ctx, sock)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: stall: %w", err)
	}
	return ethclient.NewClient(c), nil
}

// serveSocket serves each connection with srv until the listener closes.
func (s *stall) serveSocket(ln net.Listener, srv *rpc.Server) {
	slots := make(chan struct{}, maxStallConns)
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		select {
		case slots <- struct{}{}:
		default:
			c.Close()
			continue
		}
		go func() {
			defer func() { <-slots }()
			srv.ServeCodec(rpc.NewCodec(&stallConn{Conn: c, s: s}), 0)
		}()
	}
}

// stallConn is the node's side of the client's connection: it reads no
// request while the chain is stalled (answers to requests already read
// still go out, as from a node that stopped taking work).
type stallConn struct {
	net.Conn
	s *stall
}

func (c *stallConn) Read(p []byte) (int, error) {
	c.s.wait(context.Background())
	return c.Conn.Read(p)
}
