package bench

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/internal/procs"
	"github.com/fxd-labs/fxd/reqsig"
)

// The floor server is the least any server of this API must do per
// request: look the key up, verify the Ed25519 signature of the canonical
// string (reqsig.Verify, the code fxd uses), and answer a static body of the
// size fxd answers. No freshness, replay, rate limit, routing, state or
// durability. fxd's rate divided by the floor's, under the same load
// generator, is what fxd's own work costs.

// FloorConfig configures a floor server.
type FloorConfig struct {
	Listen string `json:"listen"`
	// Keys maps key ids to Ed25519 public keys (base64 in JSON).
	Keys map[string][]byte `json:"keys"`
	// GetBody is the 200 answer to every GET; PostBody the 201 answer to
	// every other method. fxbench uses fxd's own answers to GET /account
	// and POST /contacts, so both servers send the same bytes.
	GetBody  []byte `json:"get_body"`
	PostBody []byte `json:"post_body"`
	// Answers, if set, answers requests to these paths (without query,
	// any method) instead: the FX quote phase's floor gives POST
	// /fx/quotes fxd's own quote answer, with fxd's status.
	Answers map[string]FloorAnswer `json:"answers,omitempty"`
}

// FloorAnswer is the floor's static answer to one path.
type FloorAnswer struct {
	Status int    `json:"status"`
	Body   []byte `json:"body"`
}

var (
	floor401 = []byte(`{"error":{"code":"auth_failed","message":"signature does not match the request"}}`)
	jsonType = []byte("application/json")
)

// FloorHandler returns the floor's request handler.
func FloorHandler(cfg *FloorConfig) fasthttp.RequestHandler {
	keys := make(map[string]ed25519.PublicKey, len(cfg.Keys))
	for id, k := range cfg.Keys {
		keys[id] = ed25519.PublicKey(k)
	}
	get, post := cfg.GetBody, cfg.PostBody
	// nil unless set, so the read and write phases' floor pays one nil
	// check for it and no lookup.
	var answers map[string]FloorAnswer
	if len(cfg.Answers) > 0 {
		answers = cfg.Answers
	}
	return func(ctx *fasthttp.RequestCtx) {
		h := &ctx.Request.Header
		pub := keys[string(h.Peek(reqsig.HeaderKey))]
		ctx.Response.Header.SetContentTypeBytes(jsonType)
		if pub == nil || !reqsig.Verify(pub, h.Peek(reqsig.HeaderTimestamp), ctx.Method(),
			h.RequestURI(), ctx.Request.Body(), h.Peek(reqsig.HeaderSignature)) {
			ctx.SetStatusCode(401)
			ctx.SetBody(floor401)
			return
		}
		if answers != nil {
			if a, ok := answers[string(ctx.Path())]; ok {
				ctx.SetStatusCode(a.Status)
				ctx.SetBody(a.Body)
				return
			}
		}
		if ctx.IsGet() {
			ctx.SetBody(get)
			return
		}
		ctx.SetStatusCode(201)
		ctx.SetBody(post)
	}
}

// NewFloorServer returns a fasthttp server with fxd's server settings.
func NewFloorServer(cfg *FloorConfig) *fasthttp.Server {
	return &fasthttp.Server{
		Handler:                      FloorHandler(cfg),
		Name:                         "floor",
		MaxRequestBodySize:           64 << 10,
		Concurrency:                  16 << 10,
		ReadTimeout:                  30 * time.Second,
		WriteTimeout:                 30 * time.Second,
		IdleTimeout:                  2 * time.Minute,
		NoDefaultDate:                true,
		NoDefaultContentType:         true,
		DisablePreParseMultipartForm: true,
	}
}

// NewFloorKeys makes n fresh keys and the matching public-key map.
func NewFloorKeys(n int) ([]Key, map[string][]byte, error) {
	keys := make([]Key, n)
	for i := range keys {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		keys[i] = Key{ID: fmt.Sprintf("svc_test_floor%05d", i), Account: "floor", Priv: priv}
	}
	return keys, floorPubs(keys), nil
}

// floorPubs is the public-key map a floor serves keys with.
func floorPubs(keys []Key) map[string][]byte {
	pubs := make(map[string][]byte, len(keys))
	for _, k := range keys {
		pubs[k.ID] = k.Priv.Public().(ed25519.PublicKey)
	}
	return pubs
}

// FloorMain serves the floor described by the JSON file at configPath
// until SIGTERM or SIGINT, printing "listening on ADDR" once it serves. It
// is what `fxbench -floor-serve FILE` runs, so that the floor is a process
// of its own, like fxd, with its own Go runtime and CPU accounting.
func FloorMain(configPath string) error {
	b, err := os.ReadFile(configPath)
	if err != nil {
		return err
	}
	procs.Tune() // fxd serve's policy: the floor runs as fxd would
	var cfg FloorConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("floor config: %w", err)
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	srv := NewFloorServer(&cfg)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "listening on %s\n", ln.Addr())
	w.Flush()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-sig:
	case err := <-errc:
		return err
	}
	return srv.Shutdown()
}
