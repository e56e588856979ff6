package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// sentCreate is one POST /contacts of the crash test.
type sentCreate struct {
	name    string
	idemKey string
	key     int // index of the signing key
	body    []byte
	resp    []byte // the acknowledged (201) body, once there is one
	id      string
	round   int
}

// crashState is everything the crash test knows about what it sent.
type crashState struct {
	mu      sync.Mutex
	acked   map[string]*sentCreate // by name: answered 201
	order   []*sentCreate          // acked, in the order they were acknowledged
	refused map[string]bool        // answered 429: must never have executed
	unknown []*sentCreate          // no answer (connection killed) or 503

	// Totals for the log.
	sent, ackTotal, refusedTotal, unknownTotal, unknownDurable, unknownFresh, replaysChecked int
}

func (st *crashState) ack(r *sentCreate, body []byte) {
	var c contact
	_ = json.Unmarshal(body, &c) // verify compares the whole body later
	r.resp, r.id = body, c.ID
	st.acked[r.name] = r
	st.order = append(st.order, r)
	st.ackTotal++
}

// TestCrashKill9KeepsEveryAcknowledgedWrite loads the service with
// idempotent contact creates over many keys, kills it with SIGKILL at a
// random point of the load, restarts it on the same data dir and checks,
// cumulatively over several rounds, that every acknowledged write survived
// exactly once and still replays byte for byte, and that requests that got
// no answer execute at most once when re-sent.
func TestCrashKill9KeepsEveryAcknowledgedWrite(t *testing.T) {
	t.Parallel()
	const (
		nKeys = 16 // each key may write 120/min; spread the load
		kills = 8
		// At most perKeyLoad creates per key per server lifetime, plus a
		// few re-sends (resendAcked and the unanswered ones, spread over
		// all keys): well under 120 writes/min per key.
		perKeyLoad  = 60
		resendAcked = 24
		pageSize    = 200
	)
	began := time.Now()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))

	dataDir := t.TempDir()
	srv := startServer(t, dataDir)
	acct := srv.createAccount(t, "crash test")
	keys := make([]apiKey, nKeys)
	for i := range keys {
		keys[i] = srv.createKey(t, acct, "pay")
	}

	st := &crashState{acked: map[string]*sentCreate{}, refused: map[string]bool{}}
	for round := 0; ; round++ {
		clients := make([]*client.Client, nKeys)
		for i := range keys {
			clients[i] = srv.client(t, keys[i])
		}
		// What was acknowledged before the kill must all be there; a
		// request that got no answer may or may not be.
		st.verify(t, clients[0], pageSize, true)
		st.resendUnknown(t, clients)
		st.resendAcked(t, clients, rng, resendAcked)
		st.verify(t, clients[0], pageSize, false)
		if round == kills {
			break
		}
		// Odd rounds run paced load for several seconds, so that the kill
		// also lands around the engine's periodic snapshot-store sync and
		// log truncation (every 5 s); even rounds go flat out.
		st.loadAndKill(t, srv, clients, round, rng, perKeyLoad, round%2 == 1)
		if round%3 == 2 {
			// Kill it again while it recovers (or just after), then start
			// it for good: recovery itself must survive a crash.
			// Somewhere within the time the last start took.
			early := spawnServer(t, dataDir)
			delay := time.Duration(rng.Int64N(int64(srv.Ready.Sub(srv.Launched)) + 1))
			time.Sleep(delay)
			early.Kill()
			state := "before it served"
			if strings.Contains(early.stdout.String(), "listening on") {
				state = "after it served"
			} else if strings.Contains(early.Stderr(), `"recovered"`) {
				state = "after it recovered"
			}
			t.Logf("round %d: killed a restart %v after launch (a start takes %v), %s", round, delay.Round(time.Millisecond), srv.Ready.Sub(srv.Launched).Round(time.Millisecond), state)
		}
		srv = startServer(t, dataDir)
	}
	srv.Stop(t)

	rep := cliJSON(t, "wal", "verify", "--data-dir", dataDir)
	require.Equal(t, true, rep["ok"], "wal verify: %v", rep)

	t.Logf("%d kills in %v: %d creates sent, %d acknowledged, %d refused with 429, %d unanswered "+
		"(re-sent: %d had been durable and replayed, %d executed on re-send), %d acknowledged creates replayed byte for byte; %d contacts in the end",
		kills, time.Since(began).Round(time.Millisecond), st.sent, st.ackTotal, st.refusedTotal, st.unknownTotal,
		st.unknownDurable, st.unknownFresh, st.replaysChecked, len(st.acked))
}

// loadAndKill runs one worker per key creating contacts and SIGKILLs the
// server in the middle of it. Flat out, the kill comes once a random share
// of the load has been answered; paced, after a random 4.5..7.5 s.
func (st *crashState) loadAndKill(t *testing.T, srv *server, clients []*client.Client, round int, rng *mrand.Rand, perKey int, paced bool) {
	t.Helper()
	total := len(clients) * perKey
	killAt := int64(total/5 + rng.IntN(total/2)) // after 20%..70% of the answers
	killAfter := 4500*time.Millisecond + time.Duration(rng.IntN(3000))*time.Millisecond
	if paced {
		killAt = int64(total) + 1 // never by count
	}
	var answered atomic.Int64
	var wg sync.WaitGroup
	var unexpected []string
	for k := range clients {
		wg.Add(1)
		wrng := mrand.New(mrand.NewPCG(rng.Uint64(), rng.Uint64()))
		go func(k int, wrng *mrand.Rand) {
			defer wg.Done()
			suffix := wrng.Uint32()
			for i := 0; i < perKey; i++ {
				if paced {
					// Pacing, not a wait for anything: 100..200 ms apart.
					time.Sleep(time.Duration(100+wrng.IntN(100)) * time.Millisecond)
				}
				name := fmt.Sprintf("crash r%d k%02d n%03d %08x", round, k, i, suffix+uint32(i))
				r := &sentCreate{name: name, idemKey: "crash-" + strings.ReplaceAll(name, " ", "-"), key: k,
					body: contactBody(name, randomAddress()), round: round}
				ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
				resp, err := clients[k].Do(ctx, "POST", basePath+"/contacts", r.body, map[string]string{"Idempotency-Key": r.idemKey})
				cancel()
				st.mu.Lock()
				st.sent++
				if err != nil {
					// No answer: the server is gone (or the request timed
					// out). Whether it executed is unknown.
					st.unknown = append(st.unknown, r)
					st.unknownTotal++
					st.mu.Unlock()
					return
				}
				answered.Add(1)
				switch {
				case resp.Status == 201 && resp.Header.Get("Idempotency-Replayed") == "":
					st.ack(r, resp.Body)
				case resp.Status == 429:
					st.refused[r.name] = true
					st.refusedTotal++
				case resp.Status == 503:
					st.unknown = append(st.unknown, r)
					st.unknownTotal++
				default:
					unexpected = append(unexpected, fmt.Sprintf("%s: %d %v %s", name, resp.Status, resp.Header, resp.Body))
				}
				st.mu.Unlock()
			}
		}(k, wrng)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	started := time.Now()
	finished := false
	for !finished && answered.Load() < killAt && (!paced || time.Since(started) < killAfter) {
		select {
		case <-done:
			finished = true
		case <-time.After(time.Millisecond):
		}
	}
	srv.Kill()
	select {
	case <-done:
	case <-time.After(2 * httpTimeout):
		t.Fatal("load workers did not finish after the kill")
	}
	require.Empty(t, unexpected, "unexpected answers during the load")
	require.Positive(t, len(st.acked), "nothing was acknowledged")
	mode := "flat out"
	if paced {
		mode = "paced"
	}
	t.Logf("round %d (%s): killed after %v and %d of %d answers; %d acknowledged so far, %d unanswered",
		round, mode, time.Since(started).Round(time.Millisecond), answered.Load(), total, len(st.acked), len(st.unknown))
}

// verify lists every contact and checks them against what was sent: every
// acknowledged create present exactly once with the acknowledged fields,
// no name twice, nothing refused with 429 executed, and nothing else
// present (except, when allowUnknown, creates that got no answer).
func (st *crashState) verify(t *testing.T, c *client.Client, pageSize int, allowUnknown bool) {
	t.Helper()
	list := listAllContacts(t, c, pageSize)
	unknown := map[string]bool{}
	if allowUnknown {
		for _, r := range st.unknown {
			unknown[r.name] = true
		}
	}
	seen := make(map[string]contact, len(list))
	var problems []string
	for _, ct := range list {
		if prev, dup := seen[ct.Name]; dup {
			problems = append(problems, fmt.Sprintf("name %q appears twice: %s and %s", ct.Name, prev.ID, ct.ID))
			continue
		}
		seen[ct.Name] = ct
		switch a := st.acked[ct.Name]; {
		case st.refused[ct.Name]:
			problems = append(problems, fmt.Sprintf("%q was refused with 429 but exists as %s", ct.Name, ct.ID))
		case a != nil:
			if want := decodeContact(t, a.resp); want != ct {
				problems = append(problems, fmt.Sprintf("%q listed as %+v, acknowledged as %+v", ct.Name, ct, want))
			}
		case !unknown[ct.Name]:
			problems = append(problems, fmt.Sprintf("contact %s %q was never sent or never acknowledged", ct.ID, ct.Name))
		}
	}
	lost := 0
	for name, a := range st.acked {
		if _, ok := seen[name]; !ok {
			lost++
			if lost <= 10 {
				problems = append(problems, fmt.Sprintf("acknowledged contact %s %q (round %d) is lost", a.id, name, a.round))
			}
		}
	}
	if len(problems) > 0 {
		if len(problems) > 30 {
			problems = append(problems[:30], fmt.Sprintf("… and %d more", len(problems)-30))
		}
		t.Fatalf("after restart: %d contacts listed, %d acknowledged, %d lost:\n%s", len(list), len(st.acked), lost, strings.Join(problems, "\n"))
	}
}

// resendUnknown re-sends every create that got no answer, with its
// Idempotency-Key and body, freshly signed: it replays if it was durable,
// else it executes now. Either way it is acknowledged afterwards.
func (st *crashState) resendUnknown(t *testing.T, clients []*client.Client) {
	t.Helper()
	for _, r := range st.unknown {
		resp := call(t, clients[r.key], "POST", basePath+"/contacts", string(r.body), map[string]string{"Idempotency-Key": r.idemKey})
		requireStatus(t, resp, 201)
		got := decodeContact(t, resp.Body)
		require.Equal(t, r.name, got.Name)
		if resp.Header.Get("Idempotency-Replayed") == "true" {
			st.unknownDurable++
		} else {
			st.unknownFresh++
		}
		st.ack(r, resp.Body)
	}
	st.unknown = nil
}

// resendAcked re-sends a sample of acknowledged creates (half of it from
// the latest acknowledgements, the ones closest to the kill) and requires
// the stored answer: 201, the same bytes, Idempotency-Replayed: true.
func (st *crashState) resendAcked(t *testing.T, clients []*client.Client, rng *mrand.Rand, n int) {
	t.Helper()
	if len(st.order) == 0 {
		return
	}
	var sample []*sentCreate
	recent := st.order[max(0, len(st.order)-n):]
	for i := 0; i < n/2; i++ {
		sample = append(sample, recent[rng.IntN(len(recent))])
	}
	for len(sample) < n {
		sample = append(sample, st.order[rng.IntN(len(st.order))])
	}
	for _, r := range sample {
		resp := call(t, clients[r.key], "POST", basePath+"/contacts", string(r.body), map[string]string{"Idempotency-Key": r.idemKey})
		requireStatus(t, resp, 201)
		require.Equal(t, "true", resp.Header.Get("Idempotency-Replayed"), "re-sent acknowledged create %q: not marked as a replay", r.name)
		require.True(t, bytes.Equal(r.resp, resp.Body), "re-sent acknowledged create %q: body differs\noriginal: %s\nreplayed: %s", r.name, r.resp, resp.Body)
		st.replaysChecked++
	}
}
