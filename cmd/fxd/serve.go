package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/httpd"
	"github.com/fxd-labs/fxd/internal/atomicfile"
	"github.com/fxd-labs/fxd/internal/procs"
)

// Files in the data dir that the operator tools find.
const (
	adminTokenFile = "admin.token" // 0600, the admin bearer token
	adminAddrFile  = "admin.addr"  // the admin listener's URL, written at start
)

type serveFlags struct {
	dataDir, listen, adminListen, env string
	chain, chainRPCListen, rpcURL     string
	contracts, relayerKey, faucetKey  string
	makerKeys                         string
	makers                            int
	makerFault                        string
	orderDeadline, settleTimeout      time.Duration
	passivateAfter                    time.Duration
	publicURL                         string
	logLevel                          string
	webhooks                          webhookFlags
	cluster                           clusterFlags
}

// newServeCmd is `fxd serve`. Its flags are CONTRACT.md's (each also as
// SVC_<FLAG>); their names and defaults are part of the contract.
func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Run the service",
		Long: `Run the service: the public API on --listen, the admin listener on
--admin-listen (loopback only), the chain (embedded by default) and the desks.
It logs one JSON line per event of note to stderr and prints "listening on
ADDR" and "admin listening on ADDR" on stdout once it serves. The webhook
master key may also come from ` + masterKeyEnv + ` (base64).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.OutOrStdout(), cmd.ErrOrStderr(), f)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false // in the order below: the ones most often set first
	fs.StringVar(&f.dataDir, "data-dir", "./data", "data directory (log, snapshot store, chain, admin token)")
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8080", "public API listen address")
	fs.StringVar(&f.adminListen, "admin-listen", "127.0.0.1:8081", "admin listen address (loopback only)")
	fs.StringVar(&f.env, "env", "test", "environment: test or live")
	fs.StringVar(&f.logLevel, "log-level", "info", "least level logged: debug, info, warn or error")
	fs.StringVar(&f.chain, "chain", "embedded", "chain back end: embedded or rpc")
	fs.StringVar(&f.chainRPCListen, "chain-rpc-listen", "127.0.0.1:8545", "embedded chain: JSON-RPC listen address")
	fs.StringVar(&f.rpcURL, "rpc-url", "", "rpc chain: JSON-RPC URL of the node")
	fs.StringVar(&f.contracts, "contracts", "", "rpc chain: `FILE` of contract addresses written by fxd chain deploy")
	fs.StringVar(&f.relayerKey, "relayer-key-file", "", "rpc chain: hex private key file of the gas-only relayer")
	fs.StringVar(&f.faucetKey, "faucet-key-file", "", "rpc chain, test env: hex private key file of the token owner (the deployer)")
	fs.IntVar(&f.makers, "makers", 2, "embedded chain: number of market makers")
	fs.StringVar(&f.makerKeys, "maker-keys-file", "", "rpc chain: `FILE` of the market makers' hex private keys, one a line (each registered by fxd chain deploy --makers, with gas and inventory); none: the AMM only")
	fs.StringVar(&f.makerFault, "maker-fault", "none", "market makers' fault: none, or skip-settle (never settle, so escrows are refunded)")
	fs.DurationVar(&f.orderDeadline, "order-deadline", fx.DefaultOrderDeadline, "FX order deadline after accept")
	fs.DurationVar(&f.settleTimeout, "rfq-settle-timeout", fx.DefaultSettleTimeout, "RFQ maker settlement window (whole seconds); then the escrow is refunded")
	fs.DurationVar(&f.passivateAfter, "passivate-after", 2*time.Minute, "how long an idle account, order, transfer, link or endpoint stays in memory (its state is on disk; the next request loads it)")
	addWebhookFlags(fs, &f.webhooks)
	fs.StringVar(&f.publicURL, "public-url", "", "public base URL of the API as callers reach it (payment link urls); default http://<listen><base path>")
	addClusterFlags(fs, &f.cluster)
	return cmd
}

// check validates the flags before anything is opened; a bad value is a
// usage error. It returns the API base path and the log level.
func (f *serveFlags) check() (string, slog.Level, error) {
	basePath := map[string]string{"test": "/public/v1", "live": "/v1"}[f.env]
	if basePath == "" {
		return "", 0, usageErrorf("serve: --env must be test or live, not %q", f.env)
	}
	level, err := parseLogLevel(f.logLevel)
	if err != nil {
		return "", 0, usageError{err.Error()}
	}
	if f.passivateAfter < time.Second {
		return "", 0, usageErrorf("serve: --passivate-after %v: at least 1s", f.passivateAfter)
	}
	if err := errors.Join(checkLoopback(f.adminListen), f.chainConfig(nil).Check(), checkFXFlags(*f), f.cluster.check(*f), f.webhooks.check(f.env), checkPublicURL(f.publicURL)); err != nil {
		return "", 0, usageError{err.Error()}
	}
	return basePath, level, nil
}

// chainConfig is the chain the flags name.
func (f *serveFlags) chainConfig(logger *slog.Logger) connect.Config {
	return connect.Config{Mode: f.chain, DataDir: f.dataDir, RPCListen: f.chainRPCListen,
		RPCURL: f.rpcURL, ContractsFile: f.contracts, RelayerKeyFile: f.relayerKey, FaucetKeyFile: f.faucetKey,
		MakerKeysFile: f.makerKeys, Makers: f.makers, Logger: logger}
}

// checkPublicURL refuses a --public-url that names no http(s) host ("":
// not given, derived from --listen).
func checkPublicURL(raw string) error {
	if raw == "" {
		return nil
	}
	_, _, err := httpd.ParsePublicURL(raw)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// runServe runs the service until SIGINT or SIGTERM (or a fatal error).
func runServe(stdout, stderr io.Writer, f serveFlags) error {
	basePath, level, err := f.check()
	if err != nil {
		return err
	}
	logger := newServeLogger(stderr, level)
	tuneRuntime(logger)
	if f.env == "live" && f.publicURL == "" {
		// Not refused: --env live serves /v1 with or without it. But without
		// it a SIWE challenge names the host of each request's (unsigned)
		// Host header, and payment link urls the listen address.
		logger.Warn("serve: --env live without --public-url: SIWE challenges name the caller's Host header and payment link urls the listen address; set --public-url to the API's public base")
	}
	// Signatures are accepted only with timestamps from the first whole
	// second after this process started: the previous process may have
	// accepted any earlier one, and the replay cache lives in memory.
	started := time.Now().Truncate(time.Second).Add(time.Second)
	if f.cluster.enabled() {
		return runClusterServe(stdout, logger, f, basePath, started)
	}

	engine, err := actors.Open(actors.Config{DataDir: f.dataDir, Env: f.env, Logger: logger, PassivateAfter: f.passivateAfter})
	if err != nil {
		return err
	}
	ctx, cancelOpen := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancelOpen()
	ch, err := connect.Open(ctx, f.chainConfig(logger))
	if err != nil {
		engine.Close()
		return err
	}
	defer ch.Close()
	if f.env == "live" && f.chain == connect.ModeEmbedded {
		logger.Warn("the embedded chain is a test chain; --env live should run with --chain rpc")
	}
	pools, err := fx.LoadPools(ctx, ch.Client, ch.Contracts.Pools)
	if err != nil {
		engine.Close()
		return err
	}
	makers, stopMakers, err := startMakers(ctx, f, ch, pools, logger)
	if err != nil {
		engine.Close()
		return err
	}
	// One relayer for every relay: it numbers the gas key's nonces.
	relayer := relay.New(ch.Client, ch.Relayer, ch.ChainID)
	desk, payDesk, err := openDesk(ctx, f, engine, ch, pools, makers, relayer, nil, logger)
	if err != nil {
		stopMakers()
		engine.Close()
		return err
	}
	hooks, err := openWebhooks(f.webhooks, f.env, engine, logger)
	if err != nil {
		stopMakers()
		engine.Close()
		return err
	}
	defer stopMakers()
	token, err := adminToken(f.dataDir)
	if err != nil {
		return err
	}
	pubLn, admLn, err := f.listeners()
	if err != nil {
		return err
	}
	given := f.publicURL
	if f.publicURL == "" {
		f.publicURL = "http://" + pubLn.Addr().String() + basePath
	}
	payDesk.SetPublicBase(f.publicURL)
	api, err := httpd.New(httpd.Config{BasePath: basePath, Logger: logger, Started: started, PublicURL: given,
		ServerURL: "http://" + pubLn.Addr().String(), Chain: ch, Desk: desk, Pay: payDesk, Webhooks: hooks}, engine)
	if err != nil {
		return err
	}
	admin := &http.Server{Handler: httpd.NewAdmin(engine, ch, desk, token, f.dataDir).WithPayments(payDesk).WithWebhooks(hooks), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	errc := make(chan error, 2)
	// Serve before recovery so /health can say 503 while the log replays.
	go func() { errc <- api.Serve(pubLn) }()
	go func() { errc <- admin.Serve(admLn) }()

	if err := engine.Recover(); err != nil {
		return err
	}
	if err := engine.BindChain(ch.Genesis.Hex()); err != nil {
		return err
	}
	// Endpoints and pending deliveries first: the chain desks' resumed
	// records may fire events at once.
	if err := hooks.Start(ctx); err != nil {
		return err
	}
	defer hooks.Stop()
	defer desk.Stop()
	defer payDesk.Stop()
	watchErr, stopWatch, err := startWatcher(engine, ch, logger, func(w *watch.Watcher) error {
		if err := desk.Start(w); err != nil {
			return err
		}
		return payDesk.Start(w)
	})
	if err != nil {
		return err
	}
	defer stopWatch()
	stopRates := observeRates(api, logger)
	defer stopRates()
	if err := announce(stdout, f.dataDir, pubLn, admLn, started); err != nil {
		return err
	}
	logger.Info("serving", "listen", pubLn.Addr().String(), "admin", admLn.Addr().String(),
		"env", f.env, "base_path", basePath, "wal_index", engine.LastIndex(),
		"chain", f.chain, "chain_id", ch.ChainID.String(), "chain_rpc", ch.RPCURL)

	failures := make(chan error, 1)
	named(watchErr, "chain watcher", failures)
	fatal := awaitStop(logger, errc, failures)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = api.Shutdown(ctx)
	_ = admin.Shutdown(ctx)
	stopWatch()
	stopRates()
	// The desks' jobs write through the engine: stop them (and wait for
	// their jobs) before it closes. Their deferred Stops are then no-ops.
	hooks.Stop()
	desk.Stop()
	payDesk.Stop()
	return errors.Join(fatal, engine.Close())
}

// listeners opens the public and the admin listeners.
func (f *serveFlags) listeners() (pub, adm net.Listener, err error) {
	if pub, err = net.Listen("tcp", f.listen); err != nil {
		return nil, nil, fmt.Errorf("serve: listen %s: %w", f.listen, err)
	}
	if adm, err = net.Listen("tcp", f.adminListen); err != nil {
		_ = pub.Close()
		return nil, nil, fmt.Errorf("serve: admin listen %s: %w", f.adminListen, err)
	}
	return pub, adm, nil
}

// announce waits for the second signed requests may carry (started),
// writes the admin listener's URL into the data dir for the operator
// tools, and prints the two listening lines callers wait for.
func announce(stdout io.Writer, dataDir string, pub, adm net.Listener, started time.Time) error {
	time.Sleep(time.Until(started))
	adminURL := "http://" + adm.Addr().String()
	if err := atomicfile.Write(filepath.Join(dataDir, adminAddrFile), []byte(adminURL+"\n"), 0o600); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "listening on %s\n", pub.Addr())
	fmt.Fprintf(stdout, "admin listening on %s\n", adm.Addr())
	return nil
}

// awaitStop waits for SIGINT or SIGTERM, a listener's failure, or a
// failure on failures (the chain watcher's; a cluster node's router),
// which is fatal (the exit is then an error). Each failure names its part.
func awaitStop(logger *slog.Logger, errc <-chan error, failures <-chan error) error {
	sig := make(chan os.Signal, 1)
	// Not stopped: a second signal during the shutdown is ignored, as
	// before, rather than killing the process half-way.
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case s := <-sig:
		logger.Info("shutting down", "signal", s.String())
	case err := <-errc:
		logger.Error("listener failed", "err", err.Error())
	case err := <-failures:
		// The watcher: a reorg deeper than it remembers, verified events
		// may have been undone. The router: the node would answer for
		// partitions it does not lead. Stop and let a person look.
		logger.Error("stopped on a failure", "err", err.Error())
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// named forwards c's error, prefixed with what failed, to out.
func named(c <-chan error, what string, out chan<- error) {
	go func() {
		if err, ok := <-c; ok && err != nil {
			out <- fmt.Errorf("%s stopped: %w", what, err)
		}
	}()
}

// checkLoopback refuses an admin address that is not on loopback: the
// admin listener creates keys and must never face a network.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: --admin-listen %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("serve: --admin-listen must be a loopback address, not %q", addr)
	}
	return nil
}

// adminToken reads the admin token, creating it (0600) on first start.
func adminToken(dataDir string) (string, error) {
	path := filepath.Join(dataDir, adminTokenFile)
	b, err := os.ReadFile(path)
	if err == nil {
		if len(b) < 32 {
			return "", fmt.Errorf("serve: admin token %s is too short", path)
		}
		return string(trimNL(b)), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("serve: read %s: %w", path, err)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(raw[:])
	return tok, atomicfile.Write(path, []byte(tok+"\n"), 0o600)
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// observeRates records the day's baseline FX rates every minute (see
// httpd.Server.ObserveRates) until stopped.
func observeRates(api *httpd.Server, logger *slog.Logger) (stop func()) {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(time.Minute)
		defer tick.Stop()
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if err := api.ObserveRates(ctx); err != nil {
				logger.Warn("fx rates not observed", "err", err.Error())
			}
			cancel()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// serveGCPercent is the GC target when GOGC is not set. GC cycles set
// much of the quote path's tail (the quote book and the embedded chain's
// caches are most of the heap, and mark work competes with requests on
// two cores); collecting 4× less often trades memory, which the service
// has, for a shorter tail (bench, quotes at 1,000/s: p99.9 6–11 ms
// before, 2.5–5.4 ms after). A soft limit keeps the trade bounded.
const (
	serveGCPercent   = 400
	serveMemoryLimit = 4 << 30
)

// tuneRuntime applies serveGCPercent and serveMemoryLimit unless GOGC or
// GOMEMLIMIT say otherwise, and procs.Tune's GOMAXPROCS.
func tuneRuntime(logger *slog.Logger) {
	percent := "GOGC"
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
		percent = strconv.Itoa(serveGCPercent)
	}
	limit := "GOMEMLIMIT"
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
		limit = strconv.Itoa(serveMemoryLimit)
	}
	n, fromEnv := procs.Tune()
	logger.Info("runtime tuned", "gc_percent", percent, "memory_limit", limit, "gomaxprocs", n, "gomaxprocs_from_env", fromEnv)
}
