package httpd

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
	"github.com/fxd-labs/fxd/pay"
	"github.com/fxd-labs/fxd/snapshot"
	"github.com/fxd-labs/fxd/webhook"
)

// maxAdminBody bounds admin request bodies.
const maxAdminBody = 16 << 10

// Admin is the operator listener (loopback only): accounts, KYC and
// permissions, API keys, snapshots and metrics. It is the stand-in for the
// dashboard. Every call carries "Authorization: Bearer <token>" with the
// token from the 0600 file in the data dir.
type Admin struct {
	chain   *connect.Chain // nil: no faucet
	desk    *fx.Desk       // nil: no FX gauges
	pay     *pay.Desk      // nil: no payments gauges
	hooks   *webhook.Desk  // nil: no webhook gauges
	engine  *actors.Engine
	token   []byte
	dataDir string
	mux     *http.ServeMux
	// log is the engine's: the service's JSON log. failures logs the
	// answers the admin listener failed (5xx), with their Request-Id.
	log      *slog.Logger
	failures *failureLog
	// cluster is set by WithCluster on a cluster node; nil: the cluster
	// routes say, in words, that this node is not one.
	cluster *ClusterAdmin
}

// NewAdmin builds the admin handler. chain may be nil (no faucet), desk
// too (no FX gauges).
func NewAdmin(e *actors.Engine, chain *connect.Chain, desk *fx.Desk, token, dataDir string) *Admin {
	a := &Admin{engine: e, chain: chain, desk: desk, token: []byte(token), dataDir: dataDir, mux: http.NewServeMux(),
		log: e.Logger()}
	a.failures = newFailureLog(a.log)
	a.mux.HandleFunc("POST /admin/accounts", a.createAccount)
	a.mux.HandleFunc("GET /admin/accounts/{id}", a.getAccount)
	a.mux.HandleFunc("PATCH /admin/accounts/{id}", a.updateAccount)
	a.mux.HandleFunc("POST /admin/keys", a.createKey)
	a.mux.HandleFunc("POST /admin/keys/{id}/revoke", a.revokeKey)
	a.mux.HandleFunc("POST /admin/snapshots", a.createSnapshot)
	a.mux.HandleFunc("GET /admin/snapshots", a.listSnapshots)
	a.mux.Handle("GET /metrics", a.newMetricsHandler())
	a.registerBackupRoutes()
	a.registerWebhookAdminRoutes()
	a.registerClusterRoutes()
	// Profiles for operators (curl -H "Authorization: Bearer …"); the admin
	// listener is loopback-only and token-protected.
	a.mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	a.mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	a.mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	if e.Env() == "test" {
		a.mux.HandleFunc("POST /admin/faucet", a.faucet)
	} else {
		// Said in words: a bare 404 left `fxd admin faucet` with "status 404".
		a.mux.HandleFunc("POST /admin/faucet", func(w http.ResponseWriter, _ *http.Request) {
			adminError(w, &domain.Error{Status: 404, Code: domain.CodeNotFound, Message: "the faucet exists in the test environment only (--env test)"})
		})
	}
	return a
}

// ServeHTTP gives the answer a Request-Id, serves it and logs it if it
// failed (5xx).
func (a *Admin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := newRequestID()
	w.Header().Set(RequestIDHeader, id)
	// On the connection's own writer, which closes the connection after
	// a refused body (the recorder cannot pass that on).
	r.Body = http.MaxBytesReader(w, r.Body, maxAdminBody)
	rec := &adminRecorder{ResponseWriter: w}
	a.serve(rec, r)
	if rec.status >= 500 {
		route := r.Pattern // set by the mux once it routed the request
		if route == "" {
			route = r.URL.Path
		}
		a.failures.failed("admin request failed", id, r.Method, route, rec.status, rec.body, time.Since(start))
	}
}

// serve checks the bearer token, then routes.
func (a *Admin) serve(w http.ResponseWriter, r *http.Request) {
	got := []byte(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	if subtle.ConstantTimeCompare(got, a.token) != 1 {
		adminError(w, authFailed("admin token required"))
		return
	}
	if !a.engine.Ready() {
		adminError(w, errRecovering)
		return
	}
	a.mux.ServeHTTP(w, r)
}

func adminError(w http.ResponseWriter, e *domain.Error) { adminReply(w, e.Reply()) }

func adminReply(w http.ResponseWriter, r domain.Reply) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(r.Status)
	_, _ = w.Write(r.Body)
}

func adminJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("httpd: admin marshal: " + err.Error())
	}
	adminReply(w, domain.Reply{Status: status, Body: b})
}

// adminDecode reads a strict JSON body.
func adminDecode(r *http.Request, v any) *domain.Error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return domain.ErrInvalid("body: %v", err)
	}
	return jsonbody.Decode(body, v)
}

func (a *Admin) outcome(w http.ResponseWriter, out domain.Outcome, err error) {
	if err != nil {
		adminError(w, domain.ErrUnavailable("%v", err))
		return
	}
	adminReply(w, out.Reply)
}

type accountBody struct {
	Name *string `json:"name"`
	KYC  *string `json:"kyc"`
	Swap *bool   `json:"swap"`
	Pay  *bool   `json:"pay"`
}

func (a *Admin) createAccount(w http.ResponseWriter, r *http.Request) {
	var b accountBody
	if err := adminDecode(r, &b); err != nil {
		adminError(w, err)
		return
	}
	c := accountDefaults(a.engine.Env())
	if b.Name != nil {
		c.Name = *b.Name
	}
	if b.KYC != nil {
		c.KYC = *b.KYC
	}
	if b.Swap != nil {
		c.Swap = *b.Swap
	}
	if b.Pay != nil {
		c.Pay = *b.Pay
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	out, err := a.engine.CreateAccount(ctx, c)
	a.outcome(w, out, err)
}

// accountDefaults is a new account before the operator's flags: approved
// and permitted to swap and pay in the test environment (CONTRACT.md); in
// live, pending and permitted nothing until the operator says so (a
// forgotten flag must not open real money to an unchecked account).
func accountDefaults(env string) domain.CreateAccount {
	if env == "live" {
		return domain.CreateAccount{KYC: domain.KYCPending}
	}
	return domain.CreateAccount{KYC: domain.KYCApproved, Swap: true, Pay: true}
}

func (a *Admin) getAccount(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	reply, err := a.engine.Ask(ctx, r.PathValue("id"), domain.GetAccount{})
	if err != nil {
		adminError(w, domain.ErrNotFound("account"))
		return
	}
	adminReply(w, reply)
}

func (a *Admin) updateAccount(w http.ResponseWriter, r *http.Request) {
	var b accountBody
	if err := adminDecode(r, &b); err != nil {
		adminError(w, err)
		return
	}
	if b.Name != nil {
		adminError(w, domain.ErrInvalid("name cannot be changed"))
		return
	}
	a.exec(w, r, r.PathValue("id"), domain.UpdateAccount{KYC: b.KYC, Swap: b.Swap, Pay: b.Pay})
}

func (a *Admin) exec(w http.ResponseWriter, r *http.Request, acct string, cmd domain.Command) {
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	out, err := a.engine.Exec(ctx, acct, domain.Request{Cmd: cmd})
	if err == actors.ErrNoAccount {
		adminError(w, domain.ErrNotFound("account"))
		return
	}
	a.outcome(w, out, err)
}

type keyBody struct {
	Account   string   `json:"account"`
	Scopes    []string `json:"scopes"`
	PublicKey string   `json:"public_key"` // base64 of the 32-byte Ed25519 public key
}

func (a *Admin) createKey(w http.ResponseWriter, r *http.Request) {
	var b keyBody
	if err := adminDecode(r, &b); err != nil {
		adminError(w, err)
		return
	}
	scopes, derr := domain.ParseScopes(b.Scopes)
	if derr != nil {
		adminError(w, derr)
		return
	}
	pub, err := base64.StdEncoding.DecodeString(b.PublicKey)
	if err != nil || len(pub) != 32 {
		adminError(w, domain.ErrInvalid("public_key must be base64 of a 32-byte Ed25519 public key"))
		return
	}
	if a.engine.Directory().Len() >= actors.MaxKeys {
		adminError(w, domain.ErrUnavailable("key directory is full (%d keys)", actors.MaxKeys))
		return
	}
	id := a.engine.NewID("svc_"+a.engine.Env()+"_", b.Account)
	a.exec(w, r, b.Account, domain.CreateKey{KeyID: id, PublicKey: pub, Scopes: scopes})
}

func (a *Admin) revokeKey(w http.ResponseWriter, r *http.Request) {
	k, ok := a.engine.Directory().Get(r.PathValue("id"))
	if !ok {
		adminError(w, domain.ErrNotFound("key"))
		return
	}
	a.exec(w, r, k.Account, domain.RevokeKey{KeyID: k.ID})
}

func (a *Admin) createSnapshot(w http.ResponseWriter, r *http.Request) {
	b, err := a.engine.Backup(time.Now())
	if err != nil {
		adminError(w, domain.ErrUnavailable("snapshot: %v", err))
		return
	}
	adminJSON(w, 201, b)
}

func (a *Admin) listSnapshots(w http.ResponseWriter, r *http.Request) {
	list, err := snapshot.ListBackups(a.dataDir)
	if err != nil {
		adminError(w, domain.ErrUnavailable("snapshot: %v", err))
		return
	}
	adminJSON(w, 200, map[string]any{"data": list})
}

// adminRecorder keeps an answer's status and, for a failure, the start
// of its body (the contract error, for the log line).
type adminRecorder struct {
	http.ResponseWriter
	status int
	body   []byte
}

// maxLoggedBody bounds the body a failure's log line reads back.
const maxLoggedBody = 1 << 10

func (w *adminRecorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *adminRecorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status >= 500 && len(w.body) < maxLoggedBody {
		w.body = append(w.body, p[:min(len(p), maxLoggedBody-len(w.body))]...)
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *adminRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// WithWebhooks adds the webhook desk's gauges to /metrics.
func (a *Admin) WithWebhooks(d *webhook.Desk) *Admin {
	a.hooks = d
	return a
}

// ClusterAdmin is what a cluster node's admin listener asks of the node
// (cluster.Node).
type ClusterAdmin struct {
	// Status is the partition map (GET /admin/cluster).
	Status func(ctx context.Context) (any, error)
	// RemovePeer removes a dead node from the cluster by name (POST
	// /admin/cluster/remove-peer {"node"}).
	RemovePeer func(ctx context.Context, node string) error
}

// WithCluster serves the cluster routes on a cluster node (before it
// serves: the field is read without a lock).
func (a *Admin) WithCluster(c ClusterAdmin) *Admin {
	a.cluster = &c
	return a
}

// registerClusterRoutes serves GET /admin/cluster and POST
// /admin/cluster/remove-peer: a cluster node's map and peer removal; on a
// single node a 404 that says why (a bare one left `fxd cluster status`
// with "status 404").
func (a *Admin) registerClusterRoutes() {
	notCluster := func(w http.ResponseWriter) bool {
		if a.cluster != nil {
			return false
		}
		adminError(w, &domain.Error{Status: 404, Code: domain.CodeNotFound,
			Message: "this node is not in a cluster (fxd serve ran without --cluster-name)"})
		return true
	}
	a.mux.HandleFunc("GET /admin/cluster", func(w http.ResponseWriter, r *http.Request) {
		if notCluster(w) {
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
		defer cancel()
		v, err := a.cluster.Status(ctx)
		if err != nil {
			adminError(w, domain.ErrUnavailable("cluster status: %v", err))
			return
		}
		adminJSON(w, 200, v)
	})
	a.mux.HandleFunc("POST /admin/cluster/remove-peer", func(w http.ResponseWriter, r *http.Request) {
		if notCluster(w) {
			return
		}
		var b struct {
			Node string `json:"node"`
		}
		if err := adminDecode(r, &b); err != nil {
			adminError(w, err)
			return
		}
		if b.Node == "" {
			adminError(w, domain.ErrInvalid("node is required"))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
		defer cancel()
		if err := a.cluster.RemovePeer(ctx, b.Node); err != nil {
			adminError(w, domain.ErrUnavailable("remove peer: %v; if the cluster is electing a leader, try again", err))
			return
		}
		adminJSON(w, 200, map[string]string{"removed": b.Node})
	})
}

// WithPayments adds the payments desk's gauges to /metrics.
func (a *Admin) WithPayments(p *pay.Desk) *Admin {
	a.pay = p
	return a
}

type faucetBody struct {
	Address  string `json:"address"`
	Currency string `json:"currency"`
	Amount   string `json:"amount"`
}

// faucet funds a test address with gas and tokens (test environment only)
// and answers once both are mined.
func (a *Admin) faucet(w http.ResponseWriter, r *http.Request) {
	var b faucetBody
	if err := adminDecode(r, &b); err != nil {
		adminError(w, err)
		return
	}
	addr, derr := domain.NormalizeAddress("address", b.Address)
	if derr != nil {
		adminError(w, derr)
		return
	}
	cur, derr := domain.CurrencyBySymbol(b.Currency)
	if derr != nil {
		adminError(w, derr)
		return
	}
	amount, derr := domain.ParseAmount("amount", b.Amount, cur.Decimals)
	if derr != nil {
		adminError(w, derr)
		return
	}
	if amount.Cmp(connect.MaxFaucetAmount) > 0 {
		adminError(w, domain.ErrInvalid("amount is above the faucet's limit of %s", domain.FormatAmount(connect.MaxFaucetAmount, cur.Decimals)))
		return
	}
	if a.chain == nil {
		adminError(w, errNoChain)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	tx, err := a.chain.Fund(ctx, common.HexToAddress(addr), cur.Symbol, amount)
	if err != nil {
		adminError(w, domain.ErrUnavailable("faucet: %v", err))
		return
	}
	adminJSON(w, 200, map[string]string{"tx_hash": tx.Hex()})
}
