// Package maker runs the embedded market makers of the RFQ rail
// (chain/contracts/src/RfqEscrow.sol).
//
// A maker answers a Request with a firm quote: an rfq.Quote signed under the
// escrow's EIP-712 domain, which the taker can escrow with Permit2 until the
// quote's expiry. When the taker has funded the escrow, the service asks the
// maker to Settle: the maker's own key sends escrow.settle(executionId), which
// pays the taker from the maker's balance and hands the maker the escrowed
// input.
//
// Each local maker is one protoactor-go actor holding its pricing and
// inventory state; the Maker that Start returns is a thin client that sends it
// messages and waits for the answer (bounded by ctx and by a default timeout).
// One actor per maker serialises the inventory check and the reservation of a
// commitment, so two concurrent requests can never promise the same tokens
// twice.
//
// Inventory is the maker's on-chain balance of each token (re-read at most
// once per BalanceRefreshInterval, and after each settle is mined) minus the
// output of its own unexpired commitments, which stays reserved until the
// quote can no longer be escrowed. A maker commits to a quote in one of two
// ways. Quote asks the actor, which reserves at once. Offer (the quote path
// of the FX desk) prices on the caller's goroutine from the inventory
// snapshot the actor publishes after every message, with no message and no
// reservation; the offer's salt carries a tag that proves its terms to the
// maker, and the maker commits (reserves, against its inventory then) when
// the offer is accepted and it signs it. An unaccepted offer costs the maker
// nothing, so quote traffic cannot lock its inventory; an offer accepted
// after the inventory ran out is declined at Sign. All amounts are integers
// (big.Int, big.Rat); there is no floating point anywhere.
//
// Maker is an interface so that an external maker (reached over HTTP) can sit
// beside the local ones later.
package maker

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/accounts/abi"
	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fxd-labs/fxd/chain"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/rfq"
)

// Limits and defaults. Each limit is a refusal, never growth.
const (
	// MaxPendingRequests bounds the requests (Quote, Inventory) waiting in one
	// maker's mailbox. Beyond it Quote declines at once (ErrNoQuote wrapping
	// ErrBusy) instead of queueing: a quote that waits long is worth little,
	// and an unbounded mailbox would turn a burst into memory growth.
	MaxPendingRequests = 1024
	// MaxReservations bounds the unexpired firm quotes a maker remembers.
	// Beyond it the maker declines until some expire.
	MaxReservations = 100_000
	// BalanceRefreshInterval: balances are re-read from the chain on demand,
	// at most this often (and right after a settle was mined).
	BalanceRefreshInterval = time.Second
	// MaxQuoteTTL is how far in the future Request.Expiry may lie. A firm
	// quote reserves inventory until it expires, so a far expiry would lock
	// the maker's tokens for that long.
	MaxQuoteTTL = 10 * time.Minute
	// DefaultMaxQuote is the largest AmountIn quoted when Config.MaxQuote is
	// nil: 1,000,000 tokens of 6 decimals.
	DefaultMaxQuote = 1_000_000_000_000
	// DefaultRequestTimeout bounds Quote, Inventory and Settle when ctx has
	// no deadline, so a caller never waits forever on a stuck actor or node.
	DefaultRequestTimeout = 10 * time.Second
	// DefaultStartTimeout bounds Start (reads and the approvals' mining) when
	// ctx has no deadline.
	DefaultStartTimeout = 2 * time.Minute
	// SettleConfirmTimeout is how long the maker watches a sent settle for
	// its receipt (to release the quote's reservation and re-read balances).
	SettleConfirmTimeout = 3 * time.Minute

	// chainCallTimeout bounds one balance read from inside the actor.
	chainCallTimeout = 5 * time.Second
	// bps is the basis-point denominator of SpreadBps.
	bps = 10_000
)

var (
	// ErrNoQuote: the maker declines (no price for the pair, a token it does
	// not trade, not enough inventory, the amount too large or too small, too
	// many requests waiting). Declines wrap it with the reason.
	ErrNoQuote = errors.New("maker: no quote")
	// ErrSkipped: Settle was asked of a maker configured with
	// FaultSkipSettle; nothing was sent.
	ErrSkipped = errors.New("maker: settle skipped (fault skip-settle)")
	// ErrBusy: MaxPendingRequests requests are already waiting for the
	// maker. Quote wraps it together with ErrNoQuote.
	ErrBusy = errors.New("maker: too many requests waiting")
	// ErrInvalidRequest: the request itself is malformed (zero taker, equal
	// tokens, a missing or non-positive amount, an expiry already past).
	ErrInvalidRequest = errors.New("maker: invalid request")
	// ErrStopped: the maker was stopped.
	ErrStopped = errors.New("maker: stopped")
)

var (
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	// approvalFloor: an allowance at or above 2^255 counts as unlimited. The
	// test tokens do not decrease an allowance of maxUint256, but a token that
	// does would take more settles than can ever happen to go below this.
	approvalFloor = new(big.Int).Lsh(big.NewInt(1), 255)
	bpsBig        = big.NewInt(bps)

	escrowABI = mustABI(fxbind.RfqEscrowMetaData)
	tokenABI  = mustABI(fxbind.TestTokenMetaData)
)

func mustABI(md *gethbind.MetaData) *abi.ABI {
	a, err := md.GetAbi()
	if err != nil {
		panic(fmt.Sprintf("maker: binding ABI: %v", err))
	}
	return a
}

// Request asks a maker for a firm quote.
type Request struct {
	Taker    common.Address
	TokenIn  common.Address
	TokenOut common.Address
	AmountIn *big.Int // base units, > 0
	Expiry   uint64   // unix seconds: the on-chain Quote.expiry the maker signs
}

// Firm is a firm quote: its terms are the maker's own, committed to when it
// is made (Quote) or when it is accepted (an Offer, at Sign), the output
// then reserved until the quote's expiry. Its EIP-712 signature is made by
// Sign, when the quote is accepted: only the escrow call needs it.
type Firm struct {
	Maker string    // the maker's name, e.g. "maker1" (shown to API users as provider)
	Quote rfq.Quote // Quote.Maker is the maker's address
}

// Maker is one liquidity provider. Implementations must be safe for
// concurrent use.
type Maker interface {
	// Name is the maker's configured name (the API's provider).
	Name() string
	// Address is the maker's account: Quote.Maker, and the sender of settle.
	Address() common.Address
	// Quote returns a firm quote, or an error wrapping ErrNoQuote when the
	// maker declines (ErrInvalidRequest for a malformed request).
	Quote(ctx context.Context, r Request) (*Firm, error)
	// QuoteAsync sends r and returns at once; wait gives Quote's answer.
	// A caller asking several makers sends to all, then waits, with no
	// goroutine per maker.
	QuoteAsync(ctx context.Context, r Request) (wait func() (*Firm, error))
	// Sign returns the 65-byte rfq.SignQuote signature of a quote the
	// maker made and still holds (the same one every time), committing
	// to an offer first; ErrNoQuote for a quote expired or never made by
	// it, or an offer whose output the inventory no longer holds.
	Sign(ctx context.Context, q *rfq.Quote) ([]byte, error)
	// Settle sends escrow.settle(executionID) from the maker's key and
	// returns the tx hash once the node accepted it (it does not wait for
	// mining). ErrSkipped under FaultSkipSettle.
	Settle(ctx context.Context, executionID [32]byte) (common.Hash, error)
}

// PriceSource gives the mid price for selling tokenIn for tokenOut: units of
// tokenOut per unit of tokenIn, exact (all tokens have 6 decimals, so base
// units and whole tokens give the same ratio). ok=false when there is no
// price. It is called once per quote, on the maker's actor goroutine or on
// an Offer's caller's, so it must be quick (read a cache, not the chain)
// and safe for concurrent use. The maker only reads the returned Rat.
type PriceSource func(tokenIn, tokenOut common.Address) (mid *big.Rat, ok bool)

// Fault is a fault a maker can be configured to inject (for tests and demos
// of the escrow's refund path).
type Fault string

// Faults.
const (
	// FaultNone: the maker behaves.
	FaultNone Fault = "none"
	// FaultSkipSettle: the maker quotes normally but never settles, so its
	// escrows run out their window and are refunded.
	FaultSkipSettle Fault = "skip-settle"
)

// Config configures a local maker.
type Config struct {
	Name      string
	Key       *ecdsa.PrivateKey // signs quotes and sends approve/settle; its account pays their gas
	Backend   chain.Backend
	ChainID   *big.Int
	Escrow    common.Address
	Tokens    []common.Address // tokens it trades (it approves the escrow for each)
	SpreadBps uint64           // below mid, e.g. 3; must be < 10000
	Price     PriceSource
	Fault     Fault    // "" means FaultNone
	MaxQuote  *big.Int // largest AmountIn it quotes (base units); nil = DefaultMaxQuote
	Logger    *slog.Logger
	// Now is the wall clock that quote expiries and the balance refresh
	// interval are measured with; nil means time.Now. Tests set it.
	Now func() time.Time
}

// limits are the bounds a maker enforces; tests shrink them.
type limits struct {
	maxPending      int64
	maxReservations int
}

var defaultLimits = limits{maxPending: MaxPendingRequests, maxReservations: MaxReservations}

// Local is a maker run in this process as a protoactor-go actor. Start
// returns one as a Maker.
type Local struct {
	name    string
	addr    common.Address
	fault   Fault
	escrow  common.Address
	system  *actor.ActorSystem
	pid     *actor.PID
	relayer *relay.Relayer
	parser  *fxbind.RfqEscrowFilterer
	log     *slog.Logger
	limits  limits

	// pending counts requests sent to the actor and not yet taken from its
	// mailbox: the client increments it, the actor decrements it.
	pending atomic.Int64
	// terms price offers; snap is the actor's inventory they are checked
	// against (Offer).
	terms *terms
	snap  atomic.Pointer[snapshot]

	life     context.Context // ends at Stop
	stop     context.CancelFunc
	mu       sync.Mutex // guards stopped and watchers.Add
	stopped  bool
	watchers sync.WaitGroup // settle receipt watchers
}

var _ Maker = (*Local)(nil)

// Start spawns the maker's actor on system, makes sure the escrow may pull
// each token from the maker (if allowance(maker, escrow) < 2^255 it sends
// approve(escrow, maxUint256) from the maker key through a relay.Relayer
// owned by the maker and waits for it to be mined), reads its inventory, and
// returns the Maker (a *Local).
//
// On a fresh chain Start sends one approve per token and waits for them to be
// mined (all sent first, then awaited together); on a chain where the maker
// approved before, it sends nothing and takes a few calls. The maker's account
// needs ETH for that gas and for every settle. Start also warns (it does not
// fail) if the escrow does not list the maker: its quotes would be refused on
// chain.
func Start(ctx context.Context, system *actor.ActorSystem, cfg Config) (Maker, error) {
	return start(ctx, system, cfg, defaultLimits)
}

func start(ctx context.Context, system *actor.ActorSystem, cfg Config, lim limits) (*Local, error) {
	if system == nil {
		return nil, errors.New("maker: nil actor system")
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultStartTimeout)
		defer cancel()
	}
	addr := crypto.PubkeyToAddress(cfg.Key.PublicKey)
	log := cfg.Logger.With("maker", cfg.Name, "address", addr.Hex())

	// A chain id that differs from the node's would make every signature
	// (quotes and transactions) worthless; better to refuse now.
	id, err := cfg.Backend.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("maker %s: chain id: %w", cfg.Name, err)
	}
	if id.Cmp(cfg.ChainID) != 0 {
		return nil, fmt.Errorf("maker %s: configured chain id %s, node has %s", cfg.Name, cfg.ChainID, id)
	}

	escrow, err := fxbind.NewRfqEscrow(cfg.Escrow, cfg.Backend)
	if err != nil {
		return nil, fmt.Errorf("maker %s: bind escrow: %w", cfg.Name, err)
	}
	tokens := make([]token, len(cfg.Tokens))
	for i, a := range cfg.Tokens {
		c, err := fxbind.NewTestTokenCaller(a, cfg.Backend)
		if err != nil {
			return nil, fmt.Errorf("maker %s: bind token %s: %w", cfg.Name, a.Hex(), err)
		}
		tokens[i] = token{addr: a, caller: c}
	}

	relayer := relay.New(cfg.Backend, cfg.Key, cfg.ChainID)
	if err := approveAll(ctx, relayer, tokens, addr, cfg.Escrow, log); err != nil {
		return nil, fmt.Errorf("maker %s: %w", cfg.Name, err)
	}
	if ok, err := escrow.IsMaker(&gethbind.CallOpts{Context: ctx}, addr); err != nil {
		return nil, fmt.Errorf("maker %s: escrow isMaker: %w", cfg.Name, err)
	} else if !ok {
		log.Warn("maker: the escrow does not list this maker; its quotes will be refused on chain", "escrow", cfg.Escrow.Hex())
	}
	balances, err := readBalances(ctx, tokens, addr)
	if err != nil {
		return nil, fmt.Errorf("maker %s: %w", cfg.Name, err)
	}

	t, err := newTerms(cfg, addr, log)
	if err != nil {
		return nil, err
	}
	life, stop := context.WithCancel(context.Background())
	l := &Local{
		name: cfg.Name, addr: addr, fault: cfg.Fault, escrow: cfg.Escrow, system: system,
		relayer: relayer, parser: &escrow.RfqEscrowFilterer, log: log, limits: lim, life: life, stop: stop, terms: t,
	}
	a := newActor(cfg, t, tokens, balances, l, lim)
	l.pid = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }, actor.WithDispatcher(makerDispatcher)))
	logStarted(log, cfg, tokens, balances)
	return l, nil
}

// logStarted logs the maker's configuration and inventory at start.
func logStarted(log *slog.Logger, cfg Config, tokens []token, balances map[common.Address]*big.Int) {
	inv := make([]any, 0, 2*len(tokens))
	for _, t := range tokens {
		inv = append(inv, t.addr.Hex(), balances[t.addr].String())
	}
	log.Info("maker started", "spread_bps", cfg.SpreadBps, "max_quote", cfg.MaxQuote.String(), "fault", string(cfg.Fault),
		slog.Group("inventory", inv...))
}

// newTerms are cfg's terms, with a fresh offer key.
func newTerms(cfg Config, addr common.Address, log *slog.Logger) (*terms, error) {
	t := &terms{name: cfg.Name, addr: addr, spreadBps: cfg.SpreadBps, price: cfg.Price, maxQuote: cfg.MaxQuote,
		trades: make(map[common.Address]bool, len(cfg.Tokens)), now: cfg.Now, log: log}
	for _, a := range cfg.Tokens {
		t.trades[a] = true
	}
	if _, err := rand.Read(t.offerKey[:]); err != nil {
		return nil, fmt.Errorf("maker %s: offer key: %w", cfg.Name, err)
	}
	return t, nil
}

func (c *Config) check() error {
	name := c.Name
	if name == "" {
		return errors.New("maker: config: empty name")
	}
	switch {
	case c.Key == nil:
		return fmt.Errorf("maker %s: config: nil key", name)
	case c.Backend == nil:
		return fmt.Errorf("maker %s: config: nil backend", name)
	case c.ChainID == nil || c.ChainID.Sign() <= 0:
		return fmt.Errorf("maker %s: config: chain id must be positive", name)
	case c.Escrow == (common.Address{}):
		return fmt.Errorf("maker %s: config: zero escrow address", name)
	case len(c.Tokens) == 0:
		return fmt.Errorf("maker %s: config: no tokens", name)
	case c.SpreadBps >= bps:
		return fmt.Errorf("maker %s: config: spread %d bps leaves nothing to pay (must be < %d)", name, c.SpreadBps, bps)
	case c.Price == nil:
		return fmt.Errorf("maker %s: config: nil price source", name)
	case c.MaxQuote != nil && c.MaxQuote.Sign() <= 0:
		return fmt.Errorf("maker %s: config: max quote must be positive", name)
	}
	switch c.Fault {
	case "", FaultNone, FaultSkipSettle:
	default:
		return fmt.Errorf("maker %s: config: unknown fault %q", name, c.Fault)
	}
	seen := make(map[common.Address]bool, len(c.Tokens))
	for _, t := range c.Tokens {
		if t == (common.Address{}) {
			return fmt.Errorf("maker %s: config: zero token address", name)
		}
		if seen[t] {
			return fmt.Errorf("maker %s: config: token %s listed twice", name, t.Hex())
		}
		seen[t] = true
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Fault == "" {
		c.Fault = FaultNone
	}
	if c.MaxQuote == nil {
		c.MaxQuote = big.NewInt(DefaultMaxQuote)
	} else {
		c.MaxQuote = new(big.Int).Set(c.MaxQuote) // the caller may reuse its value
	}
	c.ChainID = new(big.Int).Set(c.ChainID)
	c.Tokens = append([]common.Address(nil), c.Tokens...)
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// token is one traded token and its read-only binding.
type token struct {
	addr   common.Address
	caller *fxbind.TestTokenCaller
}

// approveAll sends approve(escrow, maxUint256) for every token whose
// allowance is below approvalFloor, then waits for all of them: sending them
// together lets one block mine them all.
func approveAll(ctx context.Context, r *relay.Relayer, tokens []token, owner, escrow common.Address, log *slog.Logger) error {
	type sent struct {
		token common.Address
		tx    *types.Transaction
	}
	var txs []sent
	data, err := tokenABI.Pack("approve", escrow, maxUint256)
	if err != nil {
		return fmt.Errorf("pack approve: %w", err)
	}
	for _, t := range tokens {
		allowance, err := t.caller.Allowance(&gethbind.CallOpts{Context: ctx}, owner, escrow)
		if err != nil {
			return fmt.Errorf("allowance of %s: %w", t.addr.Hex(), err)
		}
		if allowance.Cmp(approvalFloor) >= 0 {
			continue
		}
		tx, err := r.Send(ctx, t.addr, data, 0)
		if err != nil {
			return fmt.Errorf("approve %s for the escrow: %w", t.addr.Hex(), err)
		}
		log.Info("maker: approving the escrow", "token", t.addr.Hex(), "tx", tx.Hash().Hex())
		txs = append(txs, sent{t.addr, tx})
	}
	for _, s := range txs {
		rc, err := r.Wait(ctx, s.tx)
		if err != nil {
			return fmt.Errorf("approve %s (tx %s): waiting to be mined: %w", s.token.Hex(), s.tx.Hash().Hex(), err)
		}
		if rc.Status != types.ReceiptStatusSuccessful {
			return fmt.Errorf("approve %s (tx %s) reverted", s.token.Hex(), s.tx.Hash().Hex())
		}
	}
	return nil
}

// readBalances reads the maker's balance of every token at the latest block.
func readBalances(ctx context.Context, tokens []token, owner common.Address) (map[common.Address]*big.Int, error) {
	out := make(map[common.Address]*big.Int, len(tokens))
	for _, t := range tokens {
		b, err := t.caller.BalanceOf(&gethbind.CallOpts{Context: ctx}, owner)
		if err != nil {
			return nil, fmt.Errorf("balance of %s: %w", t.addr.Hex(), err)
		}
		out[t.addr] = b
	}
	return out, nil
}

// Name is the maker's configured name.
func (l *Local) Name() string { return l.name }

// Address is the maker's account.
func (l *Local) Address() common.Address { return l.addr }

// Quote asks the maker's actor for a firm quote. Declines wrap ErrNoQuote
// (and ErrBusy when too many requests are waiting); a malformed request gives
// ErrInvalidRequest; the end of ctx (or DefaultRequestTimeout when ctx has no
// deadline) gives ctx's error. A quote the caller stopped waiting for is not
// made (the actor checks ctx first), so it reserves nothing.
func (l *Local) Quote(ctx context.Context, r Request) (*Firm, error) { return l.QuoteAsync(ctx, r)() }

// QuoteAsync is Quote in two steps: the request leaves now, wait answers.
func (l *Local) QuoteAsync(ctx context.Context, r Request) func() (*Firm, error) {
	done := make(chan quoteReply, 1)
	wait := askAsync(ctx, l, done, func(ctx context.Context) any { return quoteMsg{ctx: ctx, req: r, done: done} })
	return func() (*Firm, error) {
		rep, err := wait()
		if err != nil {
			if errors.Is(err, ErrBusy) {
				return nil, fmt.Errorf("%w: %w", ErrNoQuote, err)
			}
			return nil, err
		}
		return rep.firm, rep.err
	}
}

// Sign asks the maker's actor to sign a quote it made (see Maker.Sign).
func (l *Local) Sign(ctx context.Context, q *rfq.Quote) ([]byte, error) {
	done := make(chan signReply, 1)
	rep, err := askAsync(ctx, l, done, func(ctx context.Context) any { return signMsg{ctx: ctx, quote: *q, done: done} })()
	if err != nil {
		return nil, err
	}
	return rep.sig, rep.err
}

// Inventory returns what the maker can still promise of each token: its
// balance (refreshed if older than BalanceRefreshInterval) minus the output
// of its unexpired firm quotes. The map is the caller's.
func (l *Local) Inventory(ctx context.Context) (map[common.Address]*big.Int, error) {
	done := make(chan inventoryReply, 1)
	rep, err := askAsync(ctx, l, done, func(ctx context.Context) any { return inventoryMsg{ctx: ctx, done: done} })()
	if err != nil {
		return nil, err
	}
	return rep.available, rep.err
}

// askAsync sends the message that build makes (it carries done, one slot)
// to the actor unless MaxPendingRequests are waiting, and returns the wait
// for the reply, the end of ctx, or Stop. The wait must be called once.
func askAsync[T any](ctx context.Context, l *Local, done <-chan T, build func(context.Context) any) func() (T, error) {
	var zero T
	if l.life.Err() != nil {
		return func() (T, error) { return zero, fmt.Errorf("maker %s: %w", l.name, ErrStopped) }
	}
	cancel := context.CancelFunc(func() {})
	if _, ok := ctx.Deadline(); !ok {
		ctx, cancel = context.WithTimeout(ctx, DefaultRequestTimeout)
	}
	if n := l.pending.Add(1); n > l.limits.maxPending {
		l.pending.Add(-1)
		cancel()
		return func() (T, error) { return zero, fmt.Errorf("maker %s: %w (%d)", l.name, ErrBusy, l.limits.maxPending) }
	}
	l.system.Root.Send(l.pid, build(ctx))
	return func() (T, error) {
		defer cancel()
		select {
		case r := <-done:
			return r, nil
		case <-ctx.Done():
			return zero, fmt.Errorf("maker %s: waiting for the actor: %w", l.name, ctx.Err())
		case <-l.life.Done():
			return zero, fmt.Errorf("maker %s: %w", l.name, ErrStopped)
		}
	}
}

// Settle sends escrow.settle(executionID) from the maker's key through its
// relayer and returns the transaction hash once the node accepted it; it
// does not wait for mining. A settle that would revert (not this maker's
// escrow, window closed, already settled, not enough balance) fails at gas
// estimation and sends nothing. If the outcome of the broadcast is unknown
// the error wraps relay.ErrMaybeSent and the hash is returned with it.
//
// The transaction is sent from the caller's goroutine, not the actor's: the
// relayer numbers nonces itself, and sending from the actor would make every
// quote wait behind a settle's round trips to the node. The maker then
// watches for the receipt in the background; once mined, the actor releases
// the settled quote's reservation (matched by taker, tokens and amounts, as
// the escrow's QuoteSettled event reports them) and re-reads its balances.
//
// Under FaultSkipSettle it sends nothing, logs, and returns ErrSkipped. A
// ctx without deadline gets DefaultRequestTimeout.
func (l *Local) Settle(ctx context.Context, executionID [32]byte) (common.Hash, error) {
	id := common.Hash(executionID)
	if l.fault == FaultSkipSettle {
		l.log.Warn("maker: skipping settle (fault skip-settle)", "execution_id", id.Hex())
		return common.Hash{}, fmt.Errorf("maker %s: execution %s: %w", l.name, id.Hex(), ErrSkipped)
	}
	if l.life.Err() != nil {
		return common.Hash{}, fmt.Errorf("maker %s: %w", l.name, ErrStopped)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultRequestTimeout)
		defer cancel()
	}
	data, err := escrowABI.Pack("settle", executionID)
	if err != nil {
		return common.Hash{}, fmt.Errorf("maker %s: pack settle: %w", l.name, err)
	}
	tx, err := l.relayer.Send(ctx, l.escrow, data, 0)
	if tx != nil {
		l.watchSettle(tx, id)
	}
	if err != nil {
		if tx != nil {
			return tx.Hash(), fmt.Errorf("maker %s: settle %s: %w", l.name, id.Hex(), err)
		}
		return common.Hash{}, fmt.Errorf("maker %s: settle %s: %w", l.name, id.Hex(), err)
	}
	l.log.Info("maker: settle sent", "execution_id", id.Hex(), "tx", tx.Hash().Hex(), "nonce", tx.Nonce())
	return tx.Hash(), nil
}

// watchSettle waits (in the background, at most SettleConfirmTimeout) for
// the settle's receipt and tells the actor what it settled.
func (l *Local) watchSettle(tx *types.Transaction, id common.Hash) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	l.watchers.Add(1)
	go func() {
		defer l.watchers.Done()
		ctx, cancel := context.WithTimeout(l.life, SettleConfirmTimeout)
		defer cancel()
		msg := settledMsg{id: id}
		rc, err := l.relayer.Wait(ctx, tx)
		switch {
		case err != nil:
			if l.life.Err() != nil {
				return
			}
			l.log.Warn("maker: settle not seen mined", "execution_id", id.Hex(), "tx", tx.Hash().Hex(), "err", err.Error())
		case rc.Status != types.ReceiptStatusSuccessful:
			l.log.Error("maker: settle reverted", "execution_id", id.Hex(), "tx", tx.Hash().Hex(), "block", rc.BlockNumber)
		default:
			msg.fill = l.settledFill(rc, id)
			l.log.Info("maker: settle mined", "execution_id", id.Hex(), "tx", tx.Hash().Hex(), "block", rc.BlockNumber)
		}
		// Balances changed (or may have): the actor re-reads them either way.
		if l.life.Err() == nil {
			l.system.Root.Send(l.pid, msg)
		}
	}()
}

// settledFill finds the escrow's QuoteSettled event for id in rc.
func (l *Local) settledFill(rc *types.Receipt, id common.Hash) *fill {
	for _, lg := range rc.Logs {
		if lg.Address != l.escrow {
			continue
		}
		ev, err := l.parser.ParseQuoteSettled(*lg)
		if err != nil || ev.ExecutionId != id || ev.Maker != l.addr {
			continue
		}
		return &fill{taker: ev.Taker, tokenIn: ev.TokenIn, tokenOut: ev.TokenOut, amountIn: ev.AmountIn, amountOut: ev.AmountOut}
	}
	return nil
}

// Stop stops the actor and the settle watchers and waits for the watchers.
// Later calls fail with ErrStopped; settles already sent stay sent. Stop is
// idempotent.
func (l *Local) Stop() {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return
	}
	l.stopped = true
	l.stop()
	l.mu.Unlock()
	l.system.Root.Stop(l.pid)
	l.watchers.Wait()
}

// newSalt is a fresh random 128-bit salt: two quotes with equal terms get
// different hashes, so each is single-use on its own.
func newSalt() (*big.Int, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("maker: random salt: %w", err)
	}
	return new(big.Int).SetBytes(b[:]), nil
}

// AmountOut is the maker's price for amountIn at mid with a spread of
// spreadBps below it, in integers:
//
//	⌊amountIn · mid · (10000 − spreadBps) / 10000⌋
//
// It is zero when an input is missing or not positive, or spreadBps ≥ 10000.
func AmountOut(amountIn *big.Int, mid *big.Rat, spreadBps uint64) *big.Int {
	if amountIn == nil || mid == nil || amountIn.Sign() <= 0 || mid.Sign() <= 0 || spreadBps >= bps {
		return new(big.Int)
	}
	num := new(big.Int).Mul(amountIn, mid.Num())
	num.Mul(num, new(big.Int).SetUint64(bps-spreadBps))
	den := new(big.Int).Mul(mid.Denom(), bpsBig)
	return num.Quo(num, den) // both positive: truncation is floor
}

// makerDispatcher runs a maker's mailbox on the goroutine that posts to it
// while it is idle, instead of on a new goroutine per wake-up: a quote is
// microseconds of arithmetic (it signs nothing), so the request's own
// goroutine makes it, and a quote costs no scheduler round trip. The
// receive that re-reads balances (at most once per BalanceRefreshInterval)
// waits on the chain on that goroutine, which is waiting for the answer
// anyway.
var makerDispatcher = actor.NewSynchronizedDispatcher(300)
