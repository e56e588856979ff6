// Package connect opens the chain the service runs on: the embedded dev
// chain (started in the data dir, contract set deployed once, from fixed
// test keys) or any JSON-RPC node (contracts from a contracts.json written
// by `fxd chain deploy`). Either way the rest of the service sees one
// *ethclient.Client, the contract addresses and the service's own keys —
// which are gas and minting keys only, never a user's.
package connect

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/embedded"
	"github.com/fxd-labs/fxd/internal/atomicfile"
)

// Modes of --chain.
const (
	ModeEmbedded = "embedded"
	ModeRPC      = "rpc"
)

// Config says which chain to open.
type Config struct {
	Mode          string
	DataDir       string // embedded: the chain lives in DataDir/chain
	RPCListen     string // embedded: JSON-RPC served here ("" = none)
	RPCURL        string // rpc: the node
	ContractsFile string // rpc: contracts.json
	// Key files (hex private key, one line) for rpc mode. The relayer pays
	// gas; the faucet owns the test tokens (the deployer). In the embedded
	// chain both are fixed test keys.
	RelayerKeyFile string
	FaucetKeyFile  string
	// MakerKeysFile (rpc) holds the market makers' keys, one hex key a
	// line ("#" comments): maker1, maker2, … in that order. Each maker
	// needs gas and inventory on the chain and must be registered in the
	// escrow (fxd chain deploy --makers). Empty: no makers (the AMM only).
	MakerKeysFile string
	Makers        int // embedded: how many makers, with fixed test keys
	Logger        *slog.Logger
}

// Chain is an open chain.
type Chain struct {
	// Client is the service's client of the chain: the embedded node's
	// Backend (no block seen before it is durable) or the RPC node's.
	Client    chain.Backend
	ChainID   *big.Int
	Genesis   common.Hash
	Contracts *bind.Addresses
	Relayer   *ecdsa.PrivateKey
	Faucet    *ecdsa.PrivateKey // nil when no faucet key is configured
	Makers    []*ecdsa.PrivateKey
	RPCURL    string // where callers self-broadcast
	node      *embedded.Node
	head      lastHead // see HeadOrLast
}

// MakerInventory is what each embedded maker holds of every token.
var MakerInventory = bind.Units(5_000_000)

// Open opens the chain.
func Open(ctx context.Context, cfg Config) (*Chain, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	var c *Chain
	var err error
	if cfg.Mode == ModeRPC {
		c, err = openRPC(ctx, cfg)
	} else {
		c, err = openEmbedded(ctx, cfg)
	}
	if err != nil {
		if c != nil { // opened, then refused (contracts.json does not match)
			c.Close()
		}
		return nil, err
	}
	// The first head read: from now on HeadOrLast always has one to show.
	if _, err := c.Head(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("connect: head: %w", err)
	}
	return c, nil
}

// MaxMakers bounds Config.Makers: every embedded maker is an actor with its
// own key and inventory, and each quote asks all of them.
const MaxMakers = 16

// Check refuses a Config Open cannot open, before anything is opened: an
// unknown mode, rpc without its node and contracts, an embedded maker
// count outside 0..MaxMakers. `fxd serve` calls it while checking its
// flags, so these are usage errors there.
func (cfg Config) Check() error {
	switch cfg.Mode {
	case ModeEmbedded, "":
		if cfg.Makers < 0 || cfg.Makers > MaxMakers {
			return fmt.Errorf("connect: --makers must be from 0 to %d, not %d", MaxMakers, cfg.Makers)
		}
	case ModeRPC:
		if cfg.RPCURL == "" || cfg.ContractsFile == "" {
			return errors.New("connect: --chain rpc needs --rpc-url and --contracts")
		}
	default:
		return fmt.Errorf("connect: --chain must be embedded or rpc, not %q", cfg.Mode)
	}
	return nil
}

func makerNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("maker%d", i+1)
	}
	return names
}

func openEmbedded(ctx context.Context, cfg Config) (*Chain, error) {
	names := append([]string{"deployer", "relayer"}, makerNames(cfg.Makers)...)
	alloc := embedded.DefaultAlloc(names...)
	alloc[bind.CanonicalPermit2Address] = types.Account{Code: bind.PermitRuntimeCode(), Balance: new(big.Int)}
	dir := filepath.Join(cfg.DataDir, "chain")
	node, err := embedded.StartWithFaults(embedded.Config{DataDir: dir, RPCListen: cfg.RPCListen, Alloc: alloc, Logger: cfg.Logger})
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err) // the error names the embedded chain
	}
	c := &Chain{
		Client: node.Backend(), ChainID: new(big.Int).SetUint64(node.ChainID()), Genesis: node.GenesisHash(),
		Relayer: embedded.DevKey("relayer"), Faucet: embedded.DevKey("deployer"), RPCURL: node.RPCURL(), node: node,
	}
	for _, n := range makerNames(cfg.Makers) {
		c.Makers = append(c.Makers, embedded.DevKey(n))
	}
	file := filepath.Join(dir, "contracts.json")
	if c.Contracts, err = readContracts(file); err == nil {
		return c, c.checkCode(ctx)
	}
	if !errors.Is(err, os.ErrNotExist) {
		node.Close()
		return nil, err
	}
	if err := c.deployEmbedded(ctx, file); err != nil {
		node.Close()
		return nil, err
	}
	return c, nil
}

// deployEmbedded deploys the contract set from the fixed deployer key on
// a fresh chain, so every fresh data dir gets the same addresses.
func (c *Chain) deployEmbedded(ctx context.Context, file string) error {
	deployer := crypto.PubkeyToAddress(c.Faucet.PublicKey)
	nonce, err := c.node.Client().NonceAt(ctx, deployer, nil) // at start, before anyone reads the chain
	if err != nil {
		return fmt.Errorf("connect: deployer nonce: %w", err)
	}
	if nonce != 0 {
		// Deployed, but the crash came before contracts.json was written.
		return fmt.Errorf("connect: the chain in %s was deployed to but %s is missing; remove the data dir to start afresh", filepath.Dir(file), file)
	}
	auth, err := gethbind.NewKeyedTransactorWithChainID(c.Faucet, c.ChainID)
	if err != nil {
		return err
	}
	auth.Context = ctx
	makers := make([]common.Address, len(c.Makers))
	for i, k := range c.Makers {
		makers[i] = crypto.PubkeyToAddress(k.PublicKey)
	}
	addrs, err := bind.DeployAll(auth, c.Client, bind.DeployConfig{
		Permit2: bind.CanonicalPermit2Address, Makers: makers, MakerInventory: MakerInventory,
	})
	if err != nil {
		return fmt.Errorf("connect: deploy contracts: %w", err)
	}
	c.Contracts = addrs
	return WriteContracts(file, addrs)
}

func openRPC(ctx context.Context, cfg Config) (*Chain, error) {
	client, err := dialRPC(ctx, cfg.RPCURL)
	if err != nil {
		return nil, err
	}
	c := &Chain{Client: client, RPCURL: cfg.RPCURL}
	if c.ChainID, err = client.ChainID(ctx); err != nil {
		return nil, fmt.Errorf("connect: chain id of %s: %w", cfg.RPCURL, err)
	}
	g, err := client.HeaderByNumber(ctx, big.NewInt(0))
	if err != nil {
		return nil, fmt.Errorf("connect: genesis of %s: %w", cfg.RPCURL, err)
	}
	c.Genesis = g.Hash()
	if c.Contracts, err = readContracts(cfg.ContractsFile); err != nil {
		return nil, err
	}
	if c.Relayer, err = ReadKeyFile(cfg.RelayerKeyFile); err != nil {
		return nil, fmt.Errorf("connect: --relayer-key-file: %w", err)
	}
	if cfg.FaucetKeyFile != "" {
		if c.Faucet, err = ReadKeyFile(cfg.FaucetKeyFile); err != nil {
			return nil, fmt.Errorf("connect: --faucet-key-file: %w", err)
		}
	}
	if cfg.MakerKeysFile != "" {
		if c.Makers, err = ReadKeysFile(cfg.MakerKeysFile); err != nil {
			return nil, fmt.Errorf("connect: --maker-keys-file: %w", err)
		}
	}
	return c, c.checkCode(ctx)
}

// namedAddress is one contract of a contracts.json, by its JSON key.
type namedAddress struct {
	name string
	addr common.Address
}

// required lists the single contracts the service needs, by contracts.json key.
func required(a *bind.Addresses) []namedAddress {
	return []namedAddress{{"usdc", a.USDC}, {"usdt", a.USDT}, {"eurc", a.EURC}, {"permit2", a.Permit2},
		{"relay_router", a.RelayRouter}, {"rfq_escrow", a.RfqEscrow}, {"payment_link_factory", a.PaymentLinkFactory}}
}

// checkCode refuses a contracts file that does not match the chain.
func (c *Chain) checkCode(ctx context.Context) error {
	for _, r := range required(c.Contracts) {
		name, a := r.name, r.addr
		code, err := c.Client.CodeAt(ctx, a, nil)
		if err != nil {
			return fmt.Errorf("connect: code of %s: %w", name, err)
		}
		if len(code) == 0 {
			return fmt.Errorf("connect: no contract at %s (%s): wrong contracts.json for this chain?", a, name)
		}
	}
	return nil
}

// Close stops the embedded chain (if any) and the client.
func (c *Chain) Close() error {
	if rc, ok := c.Client.(*ethclient.Client); ok {
		rc.Close() // the RPC node's; the embedded node owns its own
	}
	if c.node != nil {
		return c.node.Close()
	}
	return nil
}

func readContracts(file string) (*bind.Addresses, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var a bind.Addresses
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("connect: %s: %w", file, err)
	}
	// A missing key decodes as the zero address, which checkCode would only report
	// as "no contract"; a file from before a contract existed deserves a clearer hint.
	for _, r := range required(&a) {
		if r.addr == (common.Address{}) {
			return nil, fmt.Errorf("connect: %s has no %q address (written before that contract existed?): "+
				"deploy the contract set again with `fxd chain deploy` (embedded chain: start with a fresh data dir)", file, r.name)
		}
	}
	return &a, nil
}

// WriteContracts writes contracts.json atomically.
func WriteContracts(file string, a *bind.Addresses) error {
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(file, append(b, '\n'), 0o644)
}

// ReadKeyFile reads a hex secp256k1 private key (optionally 0x-prefixed).
func ReadKeyFile(path string) (*ecdsa.PrivateKey, error) {
	if path == "" {
		return nil, errors.New("no key file given")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseKey(string(b))
}

// parseKey reads one hex private key (0x optional, spaces around it).
func parseKey(s string) (*ecdsa.PrivateKey, error) {
	return crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(s), "0x"))
}

// maxMakerKeys bounds a maker keys file.
const maxMakerKeys = 16

// ReadKeysFile reads hex private keys, one a line; blank lines and lines
// starting with # are skipped. It refuses an empty file, a repeated key
// and more than maxMakerKeys.
func ReadKeysFile(path string) ([]*ecdsa.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var keys []*ecdsa.PrivateKey
	seen := map[common.Address]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, err := parseKey(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: not a hex private key", i+1)
		}
		a := crypto.PubkeyToAddress(k.PublicKey)
		if seen[a] {
			return nil, fmt.Errorf("line %d: key of %s given twice", i+1, a.Hex())
		}
		seen[a] = true
		keys = append(keys, k)
	}
	switch {
	case len(keys) == 0:
		return nil, errors.New("no key in the file")
	case len(keys) > maxMakerKeys:
		return nil, fmt.Errorf("%d keys (at most %d)", len(keys), maxMakerKeys)
	}
	return keys, nil
}

// waitMined waits for a receipt, polling; chains here seal within ~2 s.
func waitMined(ctx context.Context, client chain.Backend, tx *types.Transaction) (*types.Receipt, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		r, err := client.TransactionReceipt(ctx, tx.Hash())
		if err == nil {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect: tx %s not mined: %w", tx.Hash(), ctx.Err())
		case <-tick.C:
		}
	}
}
