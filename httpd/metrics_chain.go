package httpd

import (
	"context"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/prometheus/client_golang/prometheus"
)

// chainScrapeTimeout bounds the chain reads of one scrape.
const chainScrapeTimeout = 2 * time.Second

// chainCollector reports the chain head, the watcher's progress and the
// relayer's account. Head, balance and nonce are read from the node when
// scraped (three calls; a failed one leaves its series out, and
// fxd_chain_rpc_up says whether the head could be read); the watcher's
// and relayer's own counters are in memory.
type chainCollector struct {
	a                                  *Admin
	up, head, watchNext, lag, rejected family
	balance, nonce, inFlight           family
}

func newChainCollector(a *Admin) *chainCollector {
	return &chainCollector{
		a:    a,
		up:   gaugeFamily("fxd_chain_rpc_up", "1 if the chain node answered this scrape's head request, else 0."),
		head: gaugeFamily("fxd_chain_head_block", "The chain's latest block number."),
		watchNext: gaugeFamily("fxd_chain_watcher_next_block",
			"The next block the chain watcher will scan (every block before it is delivered)."),
		lag: gaugeFamily("fxd_chain_watcher_lag_blocks",
			"Blocks the chain watcher has yet to scan up to the head (head minus the last block scanned)."),
		rejected: counterFamily("fxd_chain_watcher_rejected_logs_total",
			"Logs the node returned that failed the watcher's verification and were dropped, since start."),
		balance: gaugeFamily("fxd_relayer_balance_wei",
			"Gas balance of the relayer's account, in wei (a float: precise to about 16 digits)."),
		nonce: gaugeFamily("fxd_relayer_pending_nonce",
			"The node's pending nonce of the relayer's account (its next transaction's nonce)."),
		inFlight: gaugeFamily("fxd_relayer_in_flight",
			"Relayer transactions being sent or sent and not yet seen mined."),
	}
}

func (c *chainCollector) Describe(ch chan<- *prometheus.Desc) {
	describeAll(ch, []family{c.up, c.head, c.watchNext, c.lag, c.rejected, c.balance, c.nonce, c.inFlight})
}

func (c *chainCollector) Collect(ch chan<- prometheus.Metric) {
	if c.a.chain == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), chainScrapeTimeout)
	defer cancel()
	head, err := c.a.chain.Head(ctx)
	if err != nil {
		c.up.emit(ch, 0)
	} else {
		c.up.emit(ch, 1)
		c.head.emit(ch, float64(head))
	}
	if d := c.a.desk; d != nil {
		if w := d.Watcher(); w != nil {
			next := w.Next()
			c.watchNext.emit(ch, float64(next))
			c.rejected.emit(ch, float64(w.Rejected()))
			if err == nil {
				c.lag.emit(ch, float64(head+1-min(next, head+1)))
			}
		}
		if r := d.Relayer(); r != nil {
			c.inFlight.emit(ch, float64(r.InFlight()))
		}
	}
	c.collectRelayer(ctx, ch)
}

// collectRelayer reads the relayer account's balance and pending nonce.
func (c *chainCollector) collectRelayer(ctx context.Context, ch chan<- prometheus.Metric) {
	var addr common.Address
	switch {
	case c.a.desk != nil && c.a.desk.Relayer() != nil:
		addr = c.a.desk.Relayer().Address()
	case c.a.chain.Relayer != nil:
		addr = crypto.PubkeyToAddress(c.a.chain.Relayer.PublicKey)
	default:
		return
	}
	if wei, err := c.a.chain.Client.BalanceAt(ctx, addr, nil); err == nil {
		f, _ := new(big.Float).SetInt(wei).Float64()
		c.balance.emit(ch, f)
	}
	if n, err := c.a.chain.Client.PendingNonceAt(ctx, addr); err == nil {
		c.nonce.emit(ch, float64(n))
	}
}
