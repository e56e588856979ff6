package embedded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/event"

	"github.com/fxd-labs/fxd/chain"
)

// A sealed block becomes visible (go-ethereum makes it the head) before
// this package has fsynced the database; go-ethereum writes without sync.
// A caller that read a receipt in between, and a kill -9 before the
// fsync, would hold a receipt of a block the restarted chain no longer
// has (its transactions gone with the pool): the torture harness saw a
// wallet's payment "mined" and then never on chain. So nobody reads the
// chain while a block is between sealing and its fsync: sealing takes the
// node's sealMu for writing from Commit to the fsync; every read of the
// service's client (Backend) and every request of the JSON-RPC listener
// (the gate) runs under it for reading. A read either ends before the
// block exists or starts after it is durable.

// Bounds of the gate in front of the JSON-RPC listener.
const (
	// gateMaxBody is go-ethereum's own HTTP body limit (5 MiB): the gate
	// reads a request whole before it takes the lock, so a slow client
	// never holds sealing up.
	gateMaxBody = 5 << 20
	// gateMaxAnswer bounds an answer read whole under the lock
	// (go-ethereum's batch response limit is 25 MB).
	gateMaxAnswer = 32 << 20
	// gateMaxRequests bounds the requests the gate serves at once; beyond
	// it a request is answered 503.
	gateMaxRequests = 512
	// gateTimeout bounds one request's exchange with the node.
	gateTimeout = 30 * time.Second
)

// gate serves listen and passes each request to the node's own HTTP
// endpoint at target, reading the request whole first and the node's
// answer whole under sealMu (read), then writing it out. It returns the
// gate's URL and its server (closed by Close).
func (n *Node) gate(target, listen string) (string, *http.Server, error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return "", nil, fmt.Errorf("embedded chain: rpc listen %q: %w", listen, err)
	}
	hc := &http.Client{Timeout: gateTimeout, Transport: &http.Transport{
		Proxy: nil, MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute}}
	slots := make(chan struct{}, gateMaxRequests)
	errLog := slog.NewLogLogger(n.log.Handler(), slog.LevelWarn)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, ReadTimeout: gateTimeout, ErrorLog: errLog,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			default:
				http.Error(w, "too many requests", http.StatusServiceUnavailable)
				return
			}
			n.pass(w, r, hc, target)
		})}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			n.log.Error("embedded chain: rpc gate", "err", err)
		}
	}()
	return "http://" + ln.Addr().String(), srv, nil
}

// pass forwards one request to the node (see gate).
func (n *Node) pass(w http.ResponseWriter, r *http.Request, hc *http.Client, target string) {
	if hold := n.rpcHold.Load(); hold != nil && !(*hold)(r.Context()) {
		http.Error(w, "the chain is stalled (fault)", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, gateMaxBody))
	if err != nil {
		http.Error(w, "request body too large or unreadable", http.StatusRequestEntityTooLarge)
		return
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	req.Header = r.Header.Clone()
	n.sealMu.RLock()
	resp, err := hc.Do(req)
	var answer []byte
	if err == nil {
		answer, err = io.ReadAll(io.LimitReader(resp.Body, gateMaxAnswer))
		resp.Body.Close()
	}
	n.sealMu.RUnlock()
	if err != nil {
		http.Error(w, "chain node unavailable", http.StatusBadGateway)
		return
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(answer)
}

// Backend is the service's client of the node (chain.Backend): the
// in-process client, every call under sealMu (read), every notification
// held until the block it speaks of is durable. It is owned by the Node.
func (n *Node) Backend() chain.Backend { return &durable{c: n.client, mu: &n.sealMu} }

// durable is Node.Backend.
type durable struct {
	c  *ethclient.Client
	mu *sync.RWMutex
}

var _ chain.Backend = (*durable)(nil)

// The pending state is served too: the relay pre-flight calls at the
// pending block (verify.call asks for this interface), and a bound call
// with CallOpts.Pending (gasless.nonceSpent) fails with "backend does not
// support pending state" without it, which held an order whose relay was
// cut short by a kill in awaiting_funding for good.
var _ ethereum.PendingContractCaller = (*durable)(nil)

// read runs f under the lock (read), waiting for it no longer than ctx
// allows: a seal waits for the reads in flight, and a read held up by the
// chain (a stalled node) must not hold every later caller past its own
// deadline.
func read[T any](ctx context.Context, d *durable, f func() (T, error)) (T, error) {
	if err := rlock(ctx, d.mu); err != nil {
		var zero T
		return zero, err
	}
	defer d.mu.RUnlock()
	return f()
}

// rlock takes mu for reading, or gives up when ctx ends (then the lock,
// once had, is let go at once).
func rlock(ctx context.Context, mu *sync.RWMutex) error {
	if mu.TryRLock() {
		return nil
	}
	got := make(chan struct{})
	go func() {
		mu.RLock()
		close(got)
	}()
	select {
	case <-got:
		return nil
	case <-ctx.Done():
		go func() {
			<-got
			mu.RUnlock()
		}()
		return fmt.Errorf("embedded chain: waiting for a block to be durable: %w", ctx.Err())
	}
}

func (d *durable) ChainID(ctx context.Context) (*big.Int, error) {
	return read(ctx, d, func() (*big.Int, error) { return d.c.ChainID(ctx) })
}
func (d *durable) BlockNumber(ctx context.Context) (uint64, error) {
	return read(ctx, d, func() (uint64, error) { return d.c.BlockNumber(ctx) })
}
func (d *durable) HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error) {
	return read(ctx, d, func() (*types.Header, error) { return d.c.HeaderByNumber(ctx, number) })
}
func (d *durable) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	_, err := read(ctx, d, func() (struct{}, error) { return struct{}{}, d.c.SendTransaction(ctx, tx) })
	return err
}
func (d *durable) TransactionReceipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	return read(ctx, d, func() (*types.Receipt, error) { return d.c.TransactionReceipt(ctx, h) })
}
func (d *durable) TransactionByHash(ctx context.Context, h common.Hash) (*types.Transaction, bool, error) {
	var pending bool
	tx, err := read(ctx, d, func() (tx *types.Transaction, err error) {
		tx, pending, err = d.c.TransactionByHash(ctx, h)
		return tx, err
	})
	return tx, pending, err
}
func (d *durable) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	return read(ctx, d, func() ([]types.Log, error) { return d.c.FilterLogs(ctx, q) })
}
func (d *durable) CallContract(ctx context.Context, call ethereum.CallMsg, number *big.Int) ([]byte, error) {
	return read(ctx, d, func() ([]byte, error) { return d.c.CallContract(ctx, call, number) })
}
func (d *durable) PendingCallContract(ctx context.Context, call ethereum.CallMsg) ([]byte, error) {
	return read(ctx, d, func() ([]byte, error) { return d.c.PendingCallContract(ctx, call) })
}
func (d *durable) EstimateGas(ctx context.Context, call ethereum.CallMsg) (uint64, error) {
	return read(ctx, d, func() (uint64, error) { return d.c.EstimateGas(ctx, call) })
}
func (d *durable) PendingNonceAt(ctx context.Context, a common.Address) (uint64, error) {
	return read(ctx, d, func() (uint64, error) { return d.c.PendingNonceAt(ctx, a) })
}
func (d *durable) NonceAt(ctx context.Context, a common.Address, number *big.Int) (uint64, error) {
	return read(ctx, d, func() (uint64, error) { return d.c.NonceAt(ctx, a, number) })
}
func (d *durable) SuggestGasPrice(ctx context.Context) (*big.Int, error) {
	return read(ctx, d, func() (*big.Int, error) { return d.c.SuggestGasPrice(ctx) })
}
func (d *durable) SuggestGasTipCap(ctx context.Context) (*big.Int, error) {
	return read(ctx, d, func() (*big.Int, error) { return d.c.SuggestGasTipCap(ctx) })
}
func (d *durable) CodeAt(ctx context.Context, a common.Address, number *big.Int) ([]byte, error) {
	return read(ctx, d, func() ([]byte, error) { return d.c.CodeAt(ctx, a, number) })
}
func (d *durable) PendingCodeAt(ctx context.Context, a common.Address) ([]byte, error) {
	return read(ctx, d, func() ([]byte, error) { return d.c.PendingCodeAt(ctx, a) })
}
func (d *durable) BalanceAt(ctx context.Context, a common.Address, number *big.Int) (*big.Int, error) {
	return read(ctx, d, func() (*big.Int, error) { return d.c.BalanceAt(ctx, a, number) })
}

// subBuffer is what a subscription's notifications may queue between the
// node and the caller while a block is made durable.
const subBuffer = 256

func (d *durable) SubscribeFilterLogs(ctx context.Context, q ethereum.FilterQuery, ch chan<- types.Log) (ethereum.Subscription, error) {
	in := make(chan types.Log, subBuffer)
	sub, err := read(ctx, d, func() (ethereum.Subscription, error) { return d.c.SubscribeFilterLogs(ctx, q, in) })
	if err != nil {
		return nil, err
	}
	return forward(d.mu, sub, in, ch), nil
}

func (d *durable) SubscribeNewHead(ctx context.Context, ch chan<- *types.Header) (ethereum.Subscription, error) {
	in := make(chan *types.Header, subBuffer)
	sub, err := read(ctx, d, func() (ethereum.Subscription, error) { return d.c.SubscribeNewHead(ctx, in) })
	if err != nil {
		return nil, err
	}
	return forward(d.mu, sub, in, ch), nil
}

// forward passes inner's notifications from in to out, each once any block
// being sealed is durable (a notification is sent while the block is
// sealed, under the lock). The lock is only passed through, never held
// while out is written, so a slow reader never holds sealing up.
func forward[T any](mu *sync.RWMutex, inner ethereum.Subscription, in <-chan T, out chan<- T) ethereum.Subscription {
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer inner.Unsubscribe()
		for {
			select {
			case v := <-in:
				mu.RLock() // an empty critical section: the barrier
				mu.RUnlock()
				select {
				case out <- v:
				case err := <-inner.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-inner.Err():
				return err
			case <-quit:
				return nil
			}
		}
	})
}
