package bench

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/webhook"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// The webhook open loop in rounds (rounds.go): a floor round, then an fxd
// round, at the same offered rate. In an fxd round the bench makes test
// events (POST /webhooks/{id}/test) and fxd delivers them to the
// receiver; in a floor round the bench itself posts signed deliveries
// straight to the same receiver: what one delivery costs at the least, an
// HTTPS POST on loopback. The floor's posts are signed as fxd signs
// (Standard Webhooks, the healthy endpoint's secret, so the receiver
// verifies them alike) and carry the body of one of fxd's own deliveries
// with its event id replaced by one of the same length; like fxd's sender
// they use at most webhook.MaxInFlight connections. Their lag runs from
// the post's send to its arrival (the floor's event is born as it is
// sent). After each fxd round the bench waits for its deliveries, so the
// next round starts on a quiet pipeline. The dead endpoint is not enabled
// again during a floor round: its retries are part of fxd's load (the
// lag is judged with a dead endpoint retrying), and its pending
// deliveries have a fixed number of attempts, which the longer phase
// would otherwise spend before fxd's last round and the drain.

// WebhookLoop is one open loop of the phase: the requests the bench sent
// (fxd's test events, or the floor's posts) and what the receiver saw.
type WebhookLoop struct {
	Sends    *OpenResult      `json:"sends,omitempty"`
	Delivery *WebhookDelivery `json:"delivery,omitempty"`
	// BodyBytes is the floor's body: the size of the fxd delivery it copies.
	BodyBytes int `json:"body_bytes,omitempty"`
}

// WebhookRound is one round: the floor's loop, then fxd's.
type WebhookRound struct {
	Floor *WebhookLoop `json:"floor,omitempty"`
	FXD   *WebhookLoop `json:"fxd,omitempty"`
	// FXDCoresDuringFloor is what fxd, idle, used over the floor's window
	// (-1: unreadable).
	FXDCoresDuringFloor float64 `json:"fxd_cores_during_floor"`
}

// hookRun is one round's loop as run: its result, every slot (warm-up
// first) and the receiver's counters over it.
type hookRun struct {
	res   *OpenResult
	slots []hookSlot
	nWarm int64
	rcv   Receiver
	idle  float64 // a floor round's: fxd's cores over its window
}

// window is the run's window slots.
func (r *hookRun) window() []hookSlot { return r.slots[r.nWarm:] }

// span is the run's window in wall time.
func (r *hookRun) span() [2]time.Time {
	start := r.res.WindowStart
	return [2]time.Time{start, start.Add(time.Duration(r.res.WindowS * float64(time.Second)))}
}

// hookPhase is what the phase's loads (the open loop's rounds, the
// drain) share.
type hookPhase struct {
	cfg      Config
	fx       *FXD
	recv     *hookReceiver
	ctl      *ctlClients
	healthy  string
	target   string // the healthy endpoint's test path
	tks      *KeySet
	rate     float64
	inflight int
	floor    *hookFloor // nil: fxd's rounds run alone
	// pauseDead stops enabling the dead endpoint again (true) and resumes
	// (false): its retries are fxd's background work, so they run in
	// fxd's rounds only, and its pending deliveries' attempts last.
	pauseDead func(bool)
	ph        *WebhookPhase
	logw      io.Writer
	note      func(format string, args ...any)
}

func (w *hookPhase) say(format string, args ...any) { fmt.Fprintf(w.logw, format+"\n", args...) }

// run runs the rounds, then joins fxd's tests to their arrivals, and
// fills ph.Rounds, ph.Tests and ph.Delivery (fxd merged) and ph.Floor.
// It returns fxd's windows (the dead endpoint's attempts are counted in
// them).
func (w *hookPhase) run(ctx context.Context) ([][2]time.Time, error) {
	rounds := phaseRounds(w.cfg)
	var floors, fxds []*hookRun
	for i := range rounds {
		if w.floor != nil {
			w.pauseDead(true)
			fl, err := w.floorRound(i)
			w.pauseDead(false)
			if err != nil {
				return nil, err
			}
			floors = append(floors, fl)
		}
		var onWindow func() func()
		if i == 0 {
			onWindow = w.pprofHook() // the first fxd round's window
		}
		fr, err := w.fxdRound(i, onWindow)
		if err != nil {
			return nil, err
		}
		fxds = append(fxds, fr)
	}
	if err := w.deliveries(ctx, fxds); err != nil {
		return nil, err
	}
	w.floorDeliveries(floors)
	var spans [][2]time.Time
	for _, r := range fxds {
		spans = append(spans, r.span())
	}
	return spans, nil
}

// fxdRound is one round of tests to the healthy endpoint, and the wait
// for their deliveries.
func (w *hookPhase) fxdRound(i int, onWindow func() func()) (*hookRun, error) {
	nWarm, nWin := openSlots(w.rate, w.cfg.Warmup, roundWindow(w.cfg))
	run := &hookRun{slots: make([]hookSlot, nWarm+nWin), nWarm: nWarm}
	before, n0, _ := w.recv.stats()
	name := roundName("webhook-tests", i, phaseRounds(w.cfg))
	w.say("== %s: POST /webhooks/{healthy}/test open loop at %.0f/s, %v + %v, up to %d waiting or in flight",
		name, w.rate, w.cfg.Warmup, roundWindow(w.cfg), w.inflight)
	var err error
	run.res, err = RunOpen(OpenLoad{Name: name, Addr: w.fx.Addr(), Rate: w.rate, Warmup: w.cfg.Warmup, Duration: roundWindow(w.cfg),
		MaxInFlight: w.inflight, WantStatus: 202, ServerPID: w.fx.PID(), Progress: w.logw, OnWindow: onWindow,
		Request: uniquePOST(w.tks, w.target, ""),
		OnAnswerAt: func(i int64, body []byte, sent, end time.Time) {
			var v struct {
				DeliveryID string `json:"delivery_id"`
			}
			if i < int64(len(run.slots)) && json.Unmarshal(body, &v) == nil {
				run.slots[i] = hookSlot{dlv: v.DeliveryID, sent: sent, recv: end}
			}
		}})
	if err != nil {
		return nil, err
	}
	run.res.Keys, run.res.Accounts, run.res.BudgetPerKey = w.tks.Len(), 1, writeBudget
	w.say("  tests: %s; errors %d, %s", latencyText(run.res.Latency), run.res.Errors(), latenessText(run.res))
	made := 0
	for _, s := range run.slots {
		if s.dlv != "" {
			made++
		}
	}
	if !w.recv.waitDistinct(n0+made, webhookDeliverWait) {
		_, n, _ := w.recv.stats()
		w.note("%s: only %d of %d tests arrived within %v of its end", name, n-n0, made, webhookDeliverWait)
	}
	after, _, _ := w.recv.stats()
	run.rcv = after.minus(before)
	return run, nil
}

// floorRound is one round of the floor's signed posts to the receiver.
func (w *hookPhase) floorRound(i int) (*hookRun, error) {
	nWarm, nWin := openSlots(w.rate, w.cfg.Warmup, roundWindow(w.cfg))
	run := &hookRun{slots: make([]hookSlot, nWarm+nWin), nWarm: nWarm}
	before, _, _ := w.recv.stats()
	name := roundName("webhook-floor", i, phaseRounds(w.cfg))
	w.say("== %s: signed POSTs straight to the receiver open loop at %.0f/s, %v + %v, up to %d in flight",
		name, w.rate, w.cfg.Warmup, roundWindow(w.cfg), webhook.MaxInFlight)
	var err error
	run.res, err = RunOpen(OpenLoad{Name: name, Addr: w.floor.addr, TLS: w.floor.tls, Rate: w.rate, Warmup: w.cfg.Warmup,
		Duration: roundWindow(w.cfg), MaxInFlight: webhook.MaxInFlight, WantStatus: 200, Progress: w.logw, Prepare: w.floor.prepare(i),
		OnWindow: coresDuring(w.fx.PID(), &run.idle),
		OnAnswerAt: func(j int64, _ []byte, sent, _ time.Time) {
			if j < int64(len(run.slots)) {
				// The floor's event is born as it is sent.
				run.slots[j] = hookSlot{dlv: string(floorEventID(nil, w.floor.idLen, i, j)), sent: sent, recv: sent}
			}
		}})
	if err != nil {
		return nil, err
	}
	after, _, _ := w.recv.stats()
	run.rcv = after.minus(before)
	w.say("  floor: posts %s; errors %d, %s", latencyText(run.res.Latency), run.res.Errors(), latenessText(run.res))
	return run, nil
}

// pprofHook is the OnWindow of a CPU profile of fxd over one round's
// window (nil without -webhook-pprof).
func (w *hookPhase) pprofHook() func() func() {
	if w.cfg.WebhookPprofDir == "" {
		return nil
	}
	path, _ := filepath.Abs(filepath.Join(w.cfg.WebhookPprofDir, "fxd-webhooks-open-"+time.Now().Format("20060102-150405")+".pprof"))
	return func() func() {
		done := make(chan error, 1)
		go func() { done <- fetchPprof(w.fx, roundWindow(w.cfg), path) }()
		return func() {
			if err := <-done; err != nil {
				w.note("pprof of the open loop: %v", err)
				return
			}
			w.ph.PprofFiles = append(w.ph.PprofFiles, path)
		}
	}
}

// deliveries joins fxd's tests to their arrivals (202 → delivery id →
// the healthy endpoint's deliveries list → event id → receiver), round by
// round and merged.
func (w *hookPhase) deliveries(ctx context.Context, runs []*hookRun) error {
	var all []hookSlot
	for _, r := range runs {
		all = append(all, r.slots...)
	}
	// The receiver sees a request before the server has recorded its
	// attempt in the log, so the last few may need another look.
	var rows []attemptRow
	for try := 0; ; try++ {
		var err error
		if rows, err = w.ctl.listAttempts(ctx, w.healthy); err != nil {
			return fmt.Errorf("list the healthy endpoint's deliveries: %w", err)
		}
		if try == 10 || allListed(all, rows) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	dlvEvent := make(map[string]string, len(rows))
	for _, r := range rows {
		dlvEvent[r.ID] = r.EventID
	}
	attempts := roundAttempts(runs, rows)
	var ds []*WebhookDelivery
	var ress []*OpenResult
	for i, r := range runs {
		d := w.roundDelivery(r, dlvEvent)
		d.Attempt, d.FailedAttempts = attempts[i].hist.Summary(), attempts[i].failed
		w.ph.Rounds = append(w.ph.Rounds, WebhookRound{FXD: &WebhookLoop{Sends: r.res, Delivery: d}})
		ds, ress = append(ds, d), append(ress, r.res)
	}
	w.ph.Tests = mergeOpen("webhook-tests", ress...)
	if w.ph.Tests == nil {
		return errors.New("no round of tests ran")
	}
	w.ph.Tests.Keys, w.ph.Tests.Accounts, w.ph.Tests.BudgetPerKey = w.tks.Len(), 1, writeBudget
	w.ph.Delivery = mergeDeliveries(w.ph.Tests, runs, ds, dlvEvent, w.recv.arrival)
	m := attempts[len(runs)]
	w.ph.Delivery.Attempt, w.ph.Delivery.FailedAttempts = m.hist.Summary(), m.failed
	d := w.ph.Delivery
	w.say("  deliveries: %d of %d window events at %.0f/s; lag from the 202 %s; from the send p99 %.2f ms; receiver saw %.0f/s in the windows",
		d.Delivered, d.WindowEvents, d.Rate, latencyText(d.Lag), d.LagFromSend.P99Ms, d.ReceiverRate)
	return nil
}

// floorDeliveries is deliveries for the floor's rounds: each post's event
// id is its own delivery.
func (w *hookPhase) floorDeliveries(runs []*hookRun) {
	if len(runs) == 0 {
		return
	}
	self := map[string]string{}
	for _, r := range runs {
		for _, s := range r.window() {
			if s.dlv != "" {
				self[s.dlv] = s.dlv
			}
		}
	}
	var ds []*WebhookDelivery
	var ress []*OpenResult
	for i, r := range runs {
		d := w.roundDelivery(r, self)
		if i < len(w.ph.Rounds) {
			w.ph.Rounds[i].Floor, w.ph.Rounds[i].FXDCoresDuringFloor = &WebhookLoop{Sends: r.res, Delivery: d}, r.idle
		}
		ds, ress = append(ds, d), append(ress, r.res)
	}
	sends := mergeOpen("webhook-floor", ress...)
	w.ph.Floor = &WebhookLoop{Sends: sends, Delivery: mergeDeliveries(sends, runs, ds, self, w.recv.arrival), BodyBytes: w.floor.bodyBytes()}
	d := w.ph.Floor.Delivery
	w.say("  floor: %d of %d posts arrived at %.0f/s; lag from the send %s", d.Delivered, d.WindowEvents, d.Rate, latencyText(d.Lag))
}

// roundDelivery is what the receiver saw of one round's window.
func (w *hookPhase) roundDelivery(r *hookRun, dlvEvent map[string]string) *WebhookDelivery {
	d, last := deliveryOf(r.res, r.window(), dlvEvent, w.recv.arrival)
	span := r.span()
	d.Receiver = r.rcv
	if d.WindowS > 0 {
		d.ReceiverRate = float64(w.recv.arrivalsIn(span[0], span[1])) / d.WindowS
	}
	d.BySecond = lagBySecond(r.window(), span[0], dlvEvent, w.recv.arrival)
	if !last.IsZero() {
		d.LastArrivalS = last.Sub(span[1]).Seconds()
	}
	return d
}

// deliveryOf joins window slots to their arrivals: counts, rate, lags,
// and the loop's CPU per event delivered. It returns the last arrival.
func deliveryOf(res *OpenResult, win []hookSlot, dlvEvent map[string]string, arrival func(string) (time.Time, bool)) (*WebhookDelivery, time.Time) {
	d := &WebhookDelivery{OfferedRate: res.OfferedRate, WindowS: res.WindowS}
	lag, fromSend, events, delivered, missing, unjoined, before, last := webhookLags(win, dlvEvent, arrival)
	d.WindowEvents, d.Delivered, d.Missing, d.Unjoined, d.BeforeReply = events, delivered, missing, unjoined, before
	d.Lag, d.LagFromSend = lag.Summary(), fromSend.Summary()
	if d.WindowS > 0 {
		d.Rate = float64(delivered) / d.WindowS
	}
	if res.OK > 0 {
		d.ServerCPUUs, d.ServerCores = res.ServerCPUUs, res.ServerCores
		d.GeneratorCPUUs, d.OtherCores = res.GeneratorCPUUs, res.OtherCores
	}
	if delivered > 0 && res.OK > 0 {
		// CPU per OK answer in the window is CPU per event made; per
		// event delivered it is the same share of the window's CPU.
		scale := float64(res.OK) / float64(delivered)
		d.ServerCPUUs *= scale
		d.GeneratorCPUUs *= scale
	}
	return d, last
}

// mergeDeliveries is the rounds' deliveries as one: lags over every
// window slot, counts and receiver rates added, the per-second lags of
// each round in turn (marked with their round).
func mergeDeliveries(res *OpenResult, runs []*hookRun, ds []*WebhookDelivery, dlvEvent map[string]string, arrival func(string) (time.Time, bool)) *WebhookDelivery {
	var win []hookSlot
	for _, r := range runs {
		win = append(win, r.window()...)
	}
	d, _ := deliveryOf(res, win, dlvEvent, arrival)
	arrived := 0.0
	for i, rd := range ds {
		arrived += rd.ReceiverRate * rd.WindowS
		d.Receiver = d.Receiver.plus(rd.Receiver)
		d.LastArrivalS = max(d.LastArrivalS, rd.LastArrivalS)
		for _, s := range rd.BySecond {
			s.Round = i + 1
			d.BySecond = append(d.BySecond, s)
		}
	}
	if d.WindowS > 0 {
		d.ReceiverRate = arrived / d.WindowS
	}
	return d
}

// plus adds the counters of another span (FirstProblem: the first).
func (r Receiver) plus(o Receiver) Receiver {
	s := Receiver{Requests: r.Requests + o.Requests, Duplicates: r.Duplicates + o.Duplicates, Verified: r.Verified + o.Verified,
		BadSignatures: r.BadSignatures + o.BadSignatures, BadBodies: r.BadBodies + o.BadBodies, HeldTooLong: r.HeldTooLong + o.HeldTooLong,
		FirstProblem: r.FirstProblem}
	if s.FirstProblem == "" {
		s.FirstProblem = o.FirstProblem
	}
	return s
}

// attemptTally is the server's attempts of some deliveries.
type attemptTally struct {
	hist   Hist
	failed int64
}

// roundAttempts tallies the healthy endpoint's attempt rows by the round
// whose test made their delivery (warm-up slots included); the last
// tally is every round's.
func roundAttempts(runs []*hookRun, rows []attemptRow) []attemptTally {
	round := map[string]int{}
	for i, r := range runs {
		for _, s := range r.slots {
			if s.dlv != "" {
				round[s.dlv] = i
			}
		}
	}
	out := make([]attemptTally, len(runs)+1)
	for _, a := range rows {
		i, ok := round[a.ID]
		if !ok {
			continue
		}
		for _, t := range []*attemptTally{&out[i], &out[len(runs)]} {
			t.hist.Record(a.DurationMs * int64(time.Millisecond))
			if a.StatusCode == nil || *a.StatusCode < 200 || *a.StatusCode >= 300 {
				t.failed++
			}
		}
	}
	return out
}

// hookFloor posts signed deliveries straight to the receiver.
type hookFloor struct {
	addr  string
	url   string // in full: fasthttp's TLS HostClient wants the https scheme
	tls   *tls.Config
	key   []byte   // the healthy endpoint's signing key
	parts [][]byte // one of fxd's delivery bodies, split around its event id
	idLen int
}

// newHookFloor copies the first delivery the receiver accepted; secret is
// the healthy endpoint's.
func newHookFloor(recv *hookReceiver, caPEM []byte, secret string) (*hookFloor, error) {
	body, id := recv.sampleBody()
	if body == nil || id == "" {
		return nil, errors.New("the receiver has no delivery to copy")
	}
	key, err := sign.ParseSecret(secret)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, errors.New("the receiver's CA does not parse")
	}
	return &hookFloor{addr: recv.ln.Addr().String(), url: recv.url(), tls: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		key: key, parts: bytes.Split(body, []byte(id)), idLen: len(id)}, nil
}

// bodyBytes is the length of the floor's bodies.
func (f *hookFloor) bodyBytes() int {
	n := (len(f.parts) - 1) * f.idLen
	for _, p := range f.parts {
		n += len(p)
	}
	return n
}

// prepare builds round's slot i: POST to the receiver, the copied body
// with the slot's event id, signed now as fxd signs.
func (f *hookFloor) prepare(round int) func(int64, *fasthttp.Request) bool {
	return func(i int64, req *fasthttp.Request) bool {
		var buf [64]byte
		id := floorEventID(buf[:0], f.idLen, round, i)
		req.Header.SetMethod("POST")
		req.SetRequestURI(f.url)
		for j, p := range f.parts {
			if j > 0 {
				req.AppendBody(id)
			}
			req.AppendBody(p)
		}
		sid, ts := string(id), time.Now().Unix()
		req.Header.SetContentType("application/json")
		req.Header.SetUserAgent("fxd-webhooks/1.0")
		req.Header.Set("webhook-id", sid)
		req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
		req.Header.Set("webhook-signature", sign.Sign(f.key, sid, ts, req.Body()))
		return true
	}
}

// floorEventID appends the event id of a floor round's slot i:
// "evt_floor<round>_" and i, zero-padded to n bytes where it fits, so the
// floor's bodies are as long as the fxd delivery they copy.
func floorEventID(dst []byte, n, round int, i int64) []byte {
	start := len(dst)
	dst = append(dst, "evt_floor"...)
	dst = strconv.AppendInt(dst, int64(round), 10)
	dst = append(dst, '_')
	digits := len(strconv.FormatInt(i, 10))
	for pad := n - (len(dst) - start) - digits; pad > 0; pad-- {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, i, 10)
}

// webhookAPIRow is the API side of fxd's open loop (merged rounds), with
// the spread of its p99 over the rounds.
func webhookAPIRow(w *WebhookPhase) Row {
	row := openRow(fmt.Sprintf("webhook POST /webhooks/{id}/test @ %s/s (API)", commas(int64(w.Tests.OfferedRate))), w.Tests, false)
	fxds := webhookSends(w.Rounds, false)
	if len(fxds) > 1 {
		row.Value += spread("%.2f", openVals(fxds, openP99))
		row.Detail += "; rounds: " + openRoundsText(fxds)
	}
	return row
}

// webhookLoops is each round's floor or fxd loop (nil where not run).
func webhookLoops(rounds []WebhookRound, floor bool) []*WebhookLoop {
	out := make([]*WebhookLoop, len(rounds))
	for i, r := range rounds {
		out[i] = r.FXD
		if floor {
			out[i] = r.Floor
		}
	}
	return out
}

// webhookSends is each round's floor or fxd sends (nil where not run).
func webhookSends(rounds []WebhookRound, floor bool) []*OpenResult {
	var out []*OpenResult
	for _, l := range webhookLoops(rounds, floor) {
		var s *OpenResult
		if l != nil {
			s = l.Sends
		}
		out = append(out, s)
	}
	return out
}

// webhookDeliveries is each round's floor or fxd deliveries (nil rounds
// left out).
func webhookDeliveries(rounds []WebhookRound, floor bool) []*WebhookDelivery {
	var out []*WebhookDelivery
	for _, l := range webhookLoops(rounds, floor) {
		if l != nil && l.Delivery != nil {
			out = append(out, l.Delivery)
		}
	}
	return out
}

// deliveryVals is one figure of each round's deliveries.
func deliveryVals(ds []*WebhookDelivery, f func(*WebhookDelivery) float64) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = f(d)
	}
	return out
}

func deliveryRate(d *WebhookDelivery) float64  { return d.Rate }
func deliveryLag99(d *WebhookDelivery) float64 { return d.Lag.P99Ms }

// rateSpread is spread for rates: whole numbers with thousands commas.
func rateSpread(vals []float64) string {
	if len(vals) < 2 {
		return ""
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	return " (" + commas(int64(lo+0.5)) + "–" + commas(int64(hi+0.5)) + ")"
}

// deliveryRoundsText lists each round's deliveries: rate, lag and the
// generator's lateness in sending what made them.
func deliveryRoundsText(ds []*WebhookDelivery, sends []*OpenResult) string {
	var parts []string
	for i, d := range ds {
		p := fmt.Sprintf("#%d %s/s, lag p99 %.2f / max %.2f ms", i+1, commas(int64(d.Rate+0.5)), d.Lag.P99Ms, d.Lag.MaxMs)
		if i < len(sends) && sends[i] != nil {
			p += ", " + latenessText(sends[i])
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// webhookFloorRows are the floor's rows: its delivery rate and lag, each
// with the spread over rounds (none without a floor).
func webhookFloorRows(w *WebhookPhase) []Row {
	f := w.Floor
	if f == nil || f.Delivery == nil || f.Sends == nil {
		return nil
	}
	d, ds, sends := f.Delivery, webhookDeliveries(w.Rounds, true), webhookSends(w.Rounds, true)
	valid := d.Valid(f.Sends)
	detail := []string{fmt.Sprintf("fxbench posts copies of one of fxd's deliveries (%s bytes), signed as fxd signs, over HTTPS straight to the "+
		"receiver, %d connections at most", commas(int64(f.BodyBytes)), webhook.MaxInFlight),
		fmt.Sprintf("%s of %s window posts arrived in a %.0fs window", commas(d.Delivered), commas(d.WindowEvents), d.WindowS),
		receiverText(d.Receiver), fmt.Sprintf("fxbench (sender + receiver) %.0f µs CPU/delivery", d.GeneratorCPUUs)}
	if d.OtherCores >= 0 {
		detail = append(detail, fmt.Sprintf("other work on the machine %.2f cores (fxd idle: its dead endpoint is not enabled again meanwhile)", d.OtherCores))
	}
	var idle []float64
	for _, r := range w.Rounds {
		if r.Floor != nil {
			idle = append(idle, r.FXDCoresDuringFloor)
		}
	}
	if t := idleText(idle); t != "" {
		detail = append(detail, t)
	}
	detail = append(detail, "generator: "+latenessText(f.Sends))
	if len(ds) > 1 {
		detail = append(detail, "rounds: "+deliveryRoundsText(ds, sends))
	}
	rate := Row{Name: fmt.Sprintf("webhook floor deliveries (signed POST to the receiver), %s/s offered", commas(int64(d.OfferedRate))),
		Value: commas(int64(d.Rate+0.5)) + " /s" + rateSpread(deliveryVals(ds, deliveryRate)), Detail: strings.Join(detail, "; ")}
	lag := Row{Name: "webhook floor lag (signed POST to the receiver)", Value: fmt.Sprintf("p99 %.2f ms%s", d.Lag.P99Ms,
		spread("%.2f", deliveryVals(ds, deliveryLag99))), Detail: latencyText(d.Lag) + fmt.Sprintf(", max %.2f ms (from the post's send to "+
		"its arrival)", d.Lag.MaxMs)}
	if !valid {
		rate.Result, lag.Result = "INVALID", "INVALID"
	}
	return []Row{rate, lag}
}

// webhookRoundsDetail is what fxd's delivery rows add about rounds and
// the floor: the spreads of their values over the rounds, each round
// beside the deliveries row, and the floor beside both.
func webhookRoundsDetail(w *WebhookPhase) (rateSpr, lagSpr, rateDetail, lagDetail string) {
	ds := webhookDeliveries(w.Rounds, false)
	if len(ds) > 1 {
		rateSpr, lagSpr = rateSpread(deliveryVals(ds, deliveryRate)), spread("%.2f", deliveryVals(ds, deliveryLag99))
		rateDetail = "; rounds (each after a floor round): " + deliveryRoundsText(ds, webhookSends(w.Rounds, false))
	}
	if f := w.Floor; f != nil && f.Delivery != nil {
		rateDetail += fmt.Sprintf("; floor (signed POST straight to the receiver) %s/s", commas(int64(f.Delivery.Rate+0.5)))
		lagDetail = fmt.Sprintf("; floor (signed POST straight to the receiver, from its send) p99 %.2f / max %.2f ms",
			f.Delivery.Lag.P99Ms, f.Delivery.Lag.MaxMs)
	}
	return rateSpr, lagSpr, rateDetail, lagDetail
}

// deadRetriedEveryRound reports whether the dead endpoint retried during
// fxd's window, in every round when there were several.
func deadRetriedEveryRound(dd *WebhookDead) bool {
	if dd.AttemptsWindow <= 0 {
		return false
	}
	for _, n := range dd.AttemptsByRound {
		if n <= 0 {
			return false
		}
	}
	return true
}

// deadRoundsText is the dead endpoint's attempts in each of fxd's
// windows ("" for one round).
func deadRoundsText(dd *WebhookDead) string {
	if len(dd.AttemptsByRound) < 2 {
		return ""
	}
	parts := make([]string, len(dd.AttemptsByRound))
	for i, n := range dd.AttemptsByRound {
		parts[i] = commas(n)
	}
	return " (in fxd's windows, round by round: " + strings.Join(parts, " / ") + "; not enabled again during the floor's)"
}
