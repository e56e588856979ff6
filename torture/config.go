package torture

import (
	"errors"
	"fmt"
	"time"
)

// Config is one torture run.
type Config struct {
	// Bin is the fxd binary under test.
	Bin string
	// Seed chooses every random decision of the run (operations, amounts,
	// fault kinds and their relative timing); 0 picks one, which Run logs
	// and returns in the Summary.
	Seed uint64
	// Duration is the load-and-faults phase. Setup comes before it and the
	// end (records finishing, deliveries, the final checks) after it.
	Duration time.Duration
	// MinKills is the least number of kill -9s; the fault phase runs past
	// Duration until it is reached.
	MinKills int
	// WorkDir holds the data dir, the server's logs and the receivers'
	// certificates; it is created if missing and left in place.
	WorkDir string
	// Logf reports progress (nil: silent).
	Logf func(format string, args ...any)

	// Accounts and WorkersPerAccount size the workload: one API key, one
	// client and one trading wallet per worker (default 3 × 2).
	Accounts, WorkersPerAccount int
	// ClientTimeout is every API request's deadline (default 5 s); pauses
	// last longer than it, so paused requests are answered by nobody.
	ClientTimeout time.Duration
	// RSSLimit is the bound on the server's resident memory over the whole
	// run (default 1 GiB).
	RSSLimit uint64
	// SettleTimeout is how long the end waits for chain work, forwards and
	// deliveries to finish (default 3 min).
	SettleTimeout time.Duration
	// ReplaysPerCheck is how many acknowledged writes are re-sent after
	// every restart (default 8; half of them the latest acknowledged).
	ReplaysPerCheck int
	// MaxRequests bounds the history: workers start no new operation past
	// it (default 400,000).
	MaxRequests int
}

// Defaults of a Config's zero fields.
const (
	defaultAccounts        = 3
	defaultWorkers         = 2
	defaultClientTimeout   = 5 * time.Second
	defaultRSSLimit        = 1 << 30
	defaultSettleTimeout   = 3 * time.Minute
	defaultReplaysPerCheck = 8
	defaultMaxRequests     = 400_000
	// maxWorkersPerAccount keeps an account within its 100 wallets and
	// 16 webhook endpoints with room for payout wallets.
	maxWorkersPerAccount = 8
)

// withDefaults fills the zero fields and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.Accounts == 0 {
		c.Accounts = defaultAccounts
	}
	if c.WorkersPerAccount == 0 {
		c.WorkersPerAccount = defaultWorkers
	}
	if c.ClientTimeout == 0 {
		c.ClientTimeout = defaultClientTimeout
	}
	if c.RSSLimit == 0 {
		c.RSSLimit = defaultRSSLimit
	}
	if c.SettleTimeout == 0 {
		c.SettleTimeout = defaultSettleTimeout
	}
	if c.ReplaysPerCheck == 0 {
		c.ReplaysPerCheck = defaultReplaysPerCheck
	}
	if c.MaxRequests == 0 {
		c.MaxRequests = defaultMaxRequests
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	switch {
	case c.Bin == "":
		return c, errors.New("torture: Config.Bin is required")
	case c.WorkDir == "":
		return c, errors.New("torture: Config.WorkDir is required")
	case c.Duration <= 0:
		return c, fmt.Errorf("torture: Duration %v, want > 0", c.Duration)
	case c.MinKills < 0:
		return c, fmt.Errorf("torture: MinKills %d, want >= 0", c.MinKills)
	case c.Accounts < 1 || c.WorkersPerAccount < 1 || c.WorkersPerAccount > maxWorkersPerAccount:
		return c, fmt.Errorf("torture: %d accounts × %d workers: want >= 1 × 1..%d", c.Accounts, c.WorkersPerAccount, maxWorkersPerAccount)
	case c.ClientTimeout < time.Second:
		return c, fmt.Errorf("torture: ClientTimeout %v, want >= 1s", c.ClientTimeout)
	}
	return c, nil
}
