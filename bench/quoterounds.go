package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The quote load in rounds (rounds.go): each fxd round after a floor
// round at the same offered rate, signed with the same keys. The floor
// (floor.go) looks the key up, verifies the Ed25519 signature and answers
// fxd's own answer to a quote, captured from one probe quote; it has no
// rate limit, so the floor rounds spend none of the keys' heavy budget.

// QuoteRound is one round of the quote load: the floor's, then fxd's.
type QuoteRound struct {
	Floor *OpenResult `json:"floor,omitempty"`
	FXD   *OpenResult `json:"fxd,omitempty"`
	// FXDCoresDuringFloor is what fxd, idle, used over the floor's window
	// (-1: unreadable).
	FXDCoresDuringFloor float64 `json:"fxd_cores_during_floor"`
}

// quoteSlowOver is the answer time counted per 100 ms of each window.
const quoteSlowOver = time.Duration(quoteP99TargetMs * float64(time.Millisecond))

// quoteRounds is what the quote load's rounds share.
type quoteRounds struct {
	cfg      Config
	rate     float64
	inflight int
	logw     io.Writer
}

// load is one round's quote load against the server at addr (pid for
// its CPU; 0 for none), signed with ks.
func (q quoteRounds) load(name, addr string, pid int, ks *KeySet) OpenLoad {
	return OpenLoad{Name: name, Addr: addr, Rate: q.rate, Warmup: q.cfg.Warmup, Duration: roundWindow(q.cfg),
		MaxInFlight: q.inflight, WantStatus: 200, Request: quoteRequest(ks), ServerPID: pid, Progress: q.logw, SlowOver: quoteSlowOver}
}

// runQuoteRounds runs the quote load in rounds against fx (signed with
// qks, whose heavy budget it spends) and the floor (the same keys, no
// budget), and fills ph.Rounds, ph.Quotes (fxd merged) and ph.Floor.
// Without a floor, fxd's rounds run alone and a note says why.
func runQuoteRounds(fx *FXD, cfg Config, dir string, keys []Key, qks *KeySet, inflight int, ph *QuotePhase, onWindow func() func(), logw io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	body, err := probeQuote(fx, qks)
	if err != nil {
		return fmt.Errorf("probe quote: %w", err)
	}
	ph.QuoteBodyBytes = len(body)
	floorAddr, floorPID, stopFloor, ferr := startQuoteFloor(cfg, dir, keys, body)
	if ferr != nil {
		ph.Notes = append(ph.Notes, "the quote floor did not start ("+ferr.Error()+"): fxd's quote rounds ran without it")
	} else {
		defer stopFloor()
	}
	q := quoteRounds{cfg: cfg, rate: float64(cfg.QuoteRate), inflight: inflight, logw: logw}
	floorKS := NewKeySet(keys, 0)
	rounds := phaseRounds(cfg)
	var floors, fxds []*OpenResult
	for i := range rounds {
		var r QuoteRound
		if ferr == nil {
			l := q.load(roundName("floor-quotes", i, rounds), floorAddr, floorPID, floorKS)
			l.OnWindow = coresDuring(fx.PID(), &r.FXDCoresDuringFloor)
			say("== %s: POST /fx/quotes to the floor open loop at %.0f/s, %v + %v", l.Name, l.Rate, l.Warmup, l.Duration)
			if r.Floor, err = RunOpen(l); err != nil {
				return err
			}
			say("  floor: %s; errors %d, %s", latencyText(r.Floor.Latency), r.Floor.Errors(), latenessText(r.Floor))
			floors = append(floors, r.Floor)
		}
		l := q.load(roundName("fxd-quotes", i, rounds), fx.Addr(), fx.PID(), qks)
		if i == 0 {
			l.OnWindow = onWindow // profiles cover the first fxd round
		}
		say("== %s: POST /fx/quotes open loop at %.0f/s, %v + %v, up to %d waiting or in flight", l.Name, l.Rate, l.Warmup, l.Duration, inflight)
		if r.FXD, err = RunOpen(l); err != nil {
			return err
		}
		say("  fxd: %s; errors %d, %s", latencyText(r.FXD.Latency), r.FXD.Errors(), latenessText(r.FXD))
		fxds = append(fxds, r.FXD)
		ph.Rounds = append(ph.Rounds, r)
		// Merged after every round, so a failure later leaves these.
		ph.Quotes, ph.Floor = mergeOpen("fxd-quotes", fxds...), mergeOpen("floor-quotes", floors...)
	}
	return nil
}

// probeQuote makes one quote through the load generator (so it spends a
// slot of a key's heavy budget, as the load does) and returns fxd's
// answer: the floor's body.
func probeQuote(fx *FXD, ks *KeySet) ([]byte, error) {
	var body []byte
	r, err := RunOpen(OpenLoad{Name: "fxd-quote-probe", Addr: fx.Addr(), Rate: 100, Duration: 10 * time.Millisecond, MaxInFlight: 1,
		WantStatus: 200, Request: quoteRequest(ks), OnAnswer: func(_ int64, b []byte) { body = bytes.Clone(b) }})
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, fmt.Errorf("no quote: %s", r.FirstProblem)
	}
	return body, nil
}

// startQuoteFloor starts the floor (as the read and write phases do: its
// own process, or in this one) knowing keys and answering POST /fx/quotes
// with body.
func startQuoteFloor(cfg Config, dir string, keys []Key, body []byte) (string, int, func(), error) {
	fdir := filepath.Join(dir, "floor")
	if err := os.MkdirAll(fdir, 0o700); err != nil {
		return "", 0, nil, err
	}
	return startFloor(cfg, fdir, &FloorConfig{Keys: floorPubs(keys), Answers: map[string]FloorAnswer{quotesPath: {Status: 200, Body: body}}})
}

// quoteRows describes the FX phase: the floor's quote rounds, fxd's
// (judged on the merged latency), fxd's CPU per quote (judged) and over
// the floor's, and the accepts.
func quoteRows(fx *QuotePhase, s Settings) []Row {
	var fxds, floors []*OpenResult
	for _, r := range fx.Rounds {
		fxds, floors = append(fxds, r.FXD), append(floors, r.Floor)
	}
	rate := commas(int64(s.QuoteRate))
	var rows []Row
	if fx.Floor != nil {
		row := openRow(fmt.Sprintf("floor POST /fx/quotes @ %s/s (verify + fxd's answer)", rate), fx.Floor, false)
		row.Value = fmt.Sprintf("p99 %.2f ms%s", fx.Floor.Latency.P99Ms, spread("%.2f", openVals(floors, openP99)))
		row.Detail += "; rounds: " + openRoundsText(floors)
		var idle []float64
		for _, r := range fx.Rounds {
			if r.Floor != nil {
				idle = append(idle, r.FXDCoresDuringFloor)
			}
		}
		if t := idleText(idle); t != "" {
			row.Detail += "; " + t
		}
		rows = append(rows, row)
	}
	row := openRow(fmt.Sprintf("quote POST /fx/quotes @ %s/s", rate), fx.Quotes, true)
	if q := fx.Quotes; q != nil && len(fxds) > 0 {
		row.Value = fmt.Sprintf("p99 %.2f ms%s", q.Latency.P99Ms, spread("%.2f", openVals(fxds, openP99)))
		d := fmt.Sprintf("; p99.9 %.2f ms%s; %d rounds of %.1fs warm-up + %.1fs, each after a floor round: %s", q.Latency.P999Ms,
			spread("%.2f", openVals(fxds, openP999)), len(fxds), s.WarmupS, s.DurationS/float64(len(fxds)), openRoundsText(fxds))
		if f := fx.Floor; f != nil {
			d += fmt.Sprintf("; floor p99 %.2f / p99.9 %.2f ms", f.Latency.P99Ms, f.Latency.P999Ms)
		}
		row.Detail += d
	}
	rows = append(rows, row, quoteCPURow(fx, fxds, floors))
	if over, ok := quoteOverFloorRow(fx); ok {
		rows = append(rows, over)
	}
	if s.AcceptRate > 0 {
		rows = append(rows, openRow(fmt.Sprintf("accept POST /fx/quotes/{id}/accept @ %s/s", commas(int64(s.AcceptRate))), fx.Accepts, false))
	}
	return rows
}

// quoteCPURow judges fxd's server CPU per quote (merged rounds) against
// its target, with the floor's beside it.
func quoteCPURow(fx *QuotePhase, fxds, floors []*OpenResult) Row {
	row := Row{Name: "quote server CPU per quote", Value: "not measured", Target: fmt.Sprintf("≤ %g µs", quoteCPUTargetUs), Result: "INVALID"}
	q := fx.Quotes
	if q == nil || q.ServerCPUUs <= 0 {
		return row
	}
	row.Value = fmt.Sprintf("%.0f µs%s", q.ServerCPUUs, spread("%.0f", openVals(fxds, openServerUs)))
	d := []string{fmt.Sprintf("fxd's CPU over the measured windows per quote answered (%.2f cores)", q.ServerCores)}
	switch f := fx.Floor; {
	case f != nil && f.ServerCPUUs > 0:
		d = append(d, fmt.Sprintf("floor %.0f µs%s per request (%.2f cores)", f.ServerCPUUs, spread("%.0f", openVals(floors, openServerUs)), f.ServerCores))
	case f != nil:
		d = append(d, "floor in this process (-floor-inprocess): its CPU is in the generator's")
	}
	d = append(d, fmt.Sprintf("generator %.0f µs CPU/req", q.GeneratorCPUUs))
	if f := fx.Floor; f != nil {
		d = append(d, fmt.Sprintf("generator against the floor %.0f µs CPU/req", f.GeneratorCPUUs))
	}
	row.Detail = strings.Join(d, "; ")
	row.Result = passFail(q.ServerCPUUs <= quoteCPUTargetUs)
	if !q.Valid() || q.Errors() > 0 {
		row.Result = "INVALID"
	}
	return row
}

// quoteOverFloorRow is fxd's server CPU per quote less the floor's per
// request: what fxd's own work on a quote costs, beyond checking the
// signature and writing the same answer. Its spread pairs each fxd round
// with the floor round before it. ok is false unless both were measured.
func quoteOverFloorRow(fx *QuotePhase) (Row, bool) {
	q, f := fx.Quotes, fx.Floor
	if q == nil || f == nil || q.ServerCPUUs <= 0 || f.ServerCPUUs <= 0 {
		return Row{}, false
	}
	var diffs []float64
	for _, r := range fx.Rounds {
		if r.FXD != nil && r.Floor != nil && r.FXD.ServerCPUUs > 0 && r.Floor.ServerCPUUs > 0 {
			diffs = append(diffs, r.FXD.ServerCPUUs-r.Floor.ServerCPUUs)
		}
	}
	d := fmt.Sprintf("fxd %.0f µs − floor %.0f µs server CPU per request; the floor looks the key up, verifies the Ed25519 signature and "+
		"writes fxd's %s-byte quote answer, so the difference is fxd's own work on a quote", q.ServerCPUUs, f.ServerCPUUs, commas(int64(fx.QuoteBodyBytes)))
	if len(diffs) > 1 {
		d += "; the spread pairs each fxd round with the floor round before it"
	}
	return Row{Name: "quote CPU over floor", Value: fmt.Sprintf("%.0f µs%s", q.ServerCPUUs-f.ServerCPUUs, spread("%.0f", diffs)), Detail: d}, true
}
