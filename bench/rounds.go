package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The open-loop phases (FX quotes, webhook deliveries) run their load in
// Config.Rounds rounds, each a floor round and then an fxd round at the
// same offered rate: floor, fxd, floor, fxd. Every fxd round then comes
// after a floor round, so each starts from the same history, and drift in
// what else the machine does hits both. Each round has its own warm-up
// and an equal share of the phase's window; each is kept in the report,
// the merged fxd result is what the targets judge, and the rows show the
// spread over the rounds.

// phaseRounds is cfg's number of rounds, at least 1.
func phaseRounds(cfg Config) int { return max(cfg.Rounds, 1) }

// roundWindow is one round's measured window: the phase's window split
// evenly, so the rounds together measure as long as one window did.
func roundWindow(cfg Config) time.Duration {
	return cfg.Duration / time.Duration(phaseRounds(cfg))
}

// alternateLoads runs the closed-loop loads a and b in alternating rounds
// (a, b, b, a, …: drift in what else the machine does hits both alike),
// each with its warm-up and roundWindow(cfg), and returns each side's
// rounds merged. first, if set, adjusts each load of the first round
// before it runs (profilers hook in there), given the load's unnumbered
// name. A load that fails is handed to fail and left out of its side.
func alternateLoads(cfg Config, a, b Load, first func(name string, l *Load), say func(string, ...any), fail func(string, error)) (*LoadResult, *LoadResult) {
	rounds := phaseRounds(cfg)
	var sides [2][]*LoadResult
	for i := range rounds {
		for j := range 2 {
			side := j
			if i%2 == 1 {
				side = 1 - j
			}
			l := []Load{a, b}[side]
			name := l.Name
			l.Name, l.Duration = roundName(name, i, rounds), roundWindow(cfg)
			if i == 0 && first != nil {
				first(name, &l)
			}
			say("== %s: %d conns, %v + %v", l.Name, l.Conns, l.Warmup, l.Duration)
			r, err := RunLoad(l)
			if err != nil {
				fail(l.Name, err)
				continue
			}
			sides[side] = append(sides[side], r)
		}
	}
	return MergeResults(sides[0]...), MergeResults(sides[1]...)
}

// roundName numbers a round's load when there are several.
func roundName(name string, i, rounds int) string {
	if rounds <= 1 {
		return name
	}
	return fmt.Sprintf("%s#%d", name, i+1)
}

// mergeOpen combines the rounds of one open-loop load: counts, windows
// and CPU add up, histograms merge. WindowStart is the first round's;
// SlowPer100ms stays with each round (the windows are apart in time).
// It is nil when every round is.
func mergeOpen(name string, rs ...*OpenResult) *OpenResult {
	var out *OpenResult
	for _, r := range rs {
		if r == nil {
			continue
		}
		if out == nil {
			out = &OpenResult{Name: name, OfferedRate: r.OfferedRate, WindowStart: r.WindowStart, SlowOverMs: r.SlowOverMs,
				Keys: r.Keys, Accounts: r.Accounts, BudgetPerKey: r.BudgetPerKey, Status: map[string]int64{}}
		}
		out.Workers = max(out.Workers, r.Workers)
		out.WarmupS += r.WarmupS
		out.WindowS += r.WindowS
		out.Slots += r.Slots
		out.WindowSlots += r.WindowSlots
		out.Sent += r.Sent
		out.OK += r.OK
		out.LateSends += r.LateSends
		out.TooMany += r.TooMany
		out.Unexpected += r.Unexpected
		out.TransportErrors += r.TransportErrors
		out.Unsent += r.Unsent
		for k, v := range r.Status {
			out.Status[k] += v
		}
		if out.FirstProblem == "" {
			out.FirstProblem = r.FirstProblem
		}
		out.lat.Merge(&r.lat)
		out.svc.Merge(&r.svc)
		out.lateness.Merge(&r.lateness)
		out.use.gen += r.use.gen
		out.use.server = addKnown(out.use.server, r.use.server)
		out.use.sys = addKnown(out.use.sys, r.use.sys)
		out.useSecs += r.useSecs
	}
	if out == nil {
		return nil
	}
	out.Latency, out.Service, out.Lateness = out.lat.Summary(), out.svc.Summary(), out.lateness.Summary()
	if out.WindowS > 0 {
		out.Rate = float64(out.OK) / out.WindowS
	}
	out.shareCPU()
	return out
}

// spread is " (lo–hi)" of the rounds' values in format, or "" for fewer
// than two rounds (one round has no spread to show).
func spread(format string, vals []float64) string {
	if len(vals) < 2 {
		return ""
	}
	return " (" + fmt.Sprintf(format, slices.Min(vals)) + "–" + fmt.Sprintf(format, slices.Max(vals)) + ")"
}

// openVals is one figure of each round's result, nil rounds left out.
func openVals(rs []*OpenResult, f func(*OpenResult) float64) []float64 {
	var out []float64
	for _, r := range rs {
		if r != nil {
			out = append(out, f(r))
		}
	}
	return out
}

func openP99(r *OpenResult) float64      { return r.Latency.P99Ms }
func openP999(r *OpenResult) float64     { return r.Latency.P999Ms }
func openServerUs(r *OpenResult) float64 { return r.ServerCPUUs }

// latenessText is the generator's own lateness in one load: how many
// window sends left more than 1 ms after their time, and its tail.
func latenessText(r *OpenResult) string {
	return fmt.Sprintf("%s late sends of %s (lateness p99 %.2f ms)", commas(r.LateSends), commas(r.WindowSlots), r.Lateness.P99Ms)
}

// openRoundsText lists the rounds of one open-loop load: tail latency,
// server CPU per answer where known, and the generator's lateness.
func openRoundsText(rs []*OpenResult) string {
	var parts []string
	for i, r := range rs {
		if r == nil {
			parts = append(parts, fmt.Sprintf("#%d not run", i+1))
			continue
		}
		p := fmt.Sprintf("#%d p99 %.2f / p99.9 %.2f ms", i+1, r.Latency.P99Ms, r.Latency.P999Ms)
		if r.ServerCPUUs > 0 {
			p += fmt.Sprintf(", server %.0f µs CPU/req", r.ServerCPUUs)
		}
		if e := r.Errors(); e > 0 {
			p += fmt.Sprintf(", %d errors", e)
		}
		parts = append(parts, p+", "+latenessText(r))
	}
	return strings.Join(parts, "; ")
}

// coresDuring is an OnWindow hook that measures the cores process pid
// used over the window into *cores (-1 where unreadable): fxd's own work
// while the floor is measured, which would otherwise count as other work
// on the machine against the floor.
func coresDuring(pid int, cores *float64) func() func() {
	return func() func() {
		c0, err0 := procCPU(pid)
		t0 := time.Now()
		return func() {
			c1, err1 := procCPU(pid)
			secs := time.Since(t0).Seconds()
			if err0 != nil || err1 != nil || secs <= 0 {
				*cores = -1
				return
			}
			*cores = (c1 - c0).Seconds() / secs
		}
	}
}

// idleText describes fxd's cores during the floor's rounds ("" if none
// were measured).
func idleText(cores []float64) string {
	var parts []string
	for i, c := range cores {
		if c >= 0 {
			parts = append(parts, fmt.Sprintf("#%d %.2f", i+1, c))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "fxd's own cores meanwhile (idle, counted in the other work): " + strings.Join(parts, ", ")
}

// profiler returns the OnWindow hook that profiles pid during a load
// window under the name phase, or nil when nothing is profiled (no -perf).
type profiler func(phase string, pid int) func() func()

// chainWindows is one OnWindow hook running each non-nil hook as the
// window opens and each one's end as it closes, in reverse order.
func chainWindows(hooks ...func() func()) func() func() {
	return func() func() {
		var ends []func()
		for _, h := range hooks {
			if h != nil {
				if end := h(); end != nil {
					ends = append(ends, end)
				}
			}
		}
		return func() {
			for i := len(ends) - 1; i >= 0; i-- {
				ends[i]()
			}
		}
	}
}
