package torture

import (
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/fxd-labs/fxd/client"
)

// Bounds of what a run keeps of its problems.
const (
	maxFailures        = 200
	maxAnomalyExamples = 40
)

// harness is one run's state: the server, the chain client, the history,
// the records, the receivers, the accounts and workers, and what went
// wrong.
type harness struct {
	cfg  Config
	seed uint64
	srv  *server
	rss  *rssSampler

	eth      *ethclient.Client
	chainID  *big.Int
	tokens   map[string]common.Address
	decimals int
	public   *client.Client // no key: the public routes

	hist     *history
	reg      registry
	recv     map[string]*receiver
	accounts []*account
	workers  []*worker
	keySeq   atomic.Int64

	// baseline is each trader's token balances once set up.
	baseline map[common.Address]map[string]*big.Int

	// names holds the unique name of every record a create was sent for,
	// before it is sent: a listed record with another name is not ours.
	namesMu sync.Mutex
	names   map[string]bool

	mu        sync.Mutex
	failures  []string
	failCount int
	anomalies map[string]int
	examples  []string
	faults    faultStats
	checks    checkStats
	reported  map[*tracked]bool
}

func newHarness(cfg Config, seed uint64) *harness {
	return &harness{cfg: cfg, seed: seed, hist: newHistory(cfg.MaxRequests), recv: map[string]*receiver{},
		anomalies: map[string]int{}, names: map[string]bool{}, baseline: map[common.Address]map[string]*big.Int{}}
}

// noteName records a record's unique name before its create is sent.
func (h *harness) noteName(name string) {
	h.namesMu.Lock()
	h.names[name] = true
	h.namesMu.Unlock()
}

// sentName reports whether a create with that name was ever sent.
func (h *harness) sentName(name string) bool {
	h.namesMu.Lock()
	defer h.namesMu.Unlock()
	return h.names[name]
}

// nextKey numbers Idempotency-Keys (unique over the run).
func (h *harness) nextKey() int64 { return h.keySeq.Add(1) }

// fail records a broken promise of the service: the run fails.
func (h *harness) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failCount++
	if len(h.failures) < maxFailures {
		h.failures = append(h.failures, msg)
	}
	h.cfg.Logf("torture: FAILURE: %s", msg)
}

// anomaly records something the workload did not plan that is not a
// broken promise (a chain call refused during a fault, a quote gone):
// counted by operation, a few examples kept.
func (h *harness) anomaly(op, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.anomalies[op]++
	if len(h.examples) < maxAnomalyExamples {
		h.examples = append(h.examples, op+": "+msg)
	}
}

// checkStats counts what the checks compared.
type checkStats struct {
	AfterFault       int            `json:"checks_after_faults"`
	AckedChecked     int            `json:"acked_writes_checked"`
	Replays          int            `json:"replays_sent"`
	ReplaysIdentical int            `json:"replays_byte_identical"`
	Records          map[string]int `json:"records_by_kind_and_state"`
	Balances         int            `json:"balances_checked"`
	Events           int            `json:"events_checked"`
	Deliveries       int            `json:"deliveries_checked"`
	Duplicates       int            `json:"duplicate_deliveries_seen"`
	DisabledChecks   int            `json:"deliveries_to_disabled_endpoints"`
	Forbidden        int            `json:"forbidden_deliveries_checked_absent"`
	WalletFields     int            `json:"wallet_fields_checked"`
	EndpointFields   int            `json:"endpoint_fields_checked"`
	Unresolved       int            `json:"unanswered_resent_at_end"`
}

// countCheck updates the check counters and returns AfterFault.
func (h *harness) countCheck(f func(*checkStats)) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	f(&h.checks)
	return h.checks.AfterFault
}
