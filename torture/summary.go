package torture

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/bench"
	"github.com/fxd-labs/fxd/internal/buildinfo"
)

// Summary is what a run did and found; fxtorture writes it as JSON.
type Summary struct {
	Seed            uint64          `json:"seed"`
	Replay          string          `json:"replay"`
	StartedAt       time.Time       `json:"started_at"`
	PlannedDuration string          `json:"planned_duration"`
	Wall            string          `json:"wall"`
	WallSeconds     float64         `json:"wall_seconds"`
	Commit          string          `json:"commit,omitempty"`
	CommitDirty     bool            `json:"commit_dirty,omitempty"`
	FXD             *buildinfo.Info `json:"fxd_build,omitempty"` // the binary run (`fxd version`)
	CPUModel        string          `json:"cpu_model,omitempty"`
	NumCPU          int             `json:"num_cpu"`
	Accounts        int             `json:"accounts"`
	Workers         int             `json:"workers"`
	ClientTimeout   string          `json:"client_timeout"`

	Faults    faultStats      `json:"faults"`
	Receivers []receiverStats `json:"receivers"`
	Requests  requestStats    `json:"requests"`
	Ops       map[string]int  `json:"operations"`
	Checks    checkStats      `json:"checks"`

	PeakRSSMiB     uint64   `json:"peak_rss_mib"`
	RSSLimitMiB    uint64   `json:"rss_bound_mib"`
	GoMemLimitMiB  uint64   `json:"server_gomemlimit_mib"`
	RSSSamples     int      `json:"rss_samples"`
	RSSByMinuteMiB []uint64 `json:"rss_peak_by_minute_mib"`

	WALVerifies     int            `json:"wal_verifies"`
	WALFailures     int            `json:"wal_verify_failures"`
	WALTornTails    int            `json:"wal_torn_tails"`
	WALFinal        string         `json:"wal_verify_final"`
	Anomalies       map[string]int `json:"anomalies,omitempty"`
	AnomalyExamples []string       `json:"anomaly_examples,omitempty"`
	FailureCount    int            `json:"failure_count"`
	Failures        []string       `json:"failures"`
	Passed          bool           `json:"passed"`
}

// requestStats counts what the workload sent and how it was answered.
type requestStats struct {
	Writes            int `json:"writes"`
	Attempts          int `json:"write_attempts"`
	Reads             int `json:"reads"`
	Acked             int `json:"acked"`
	Answered          int `json:"answered_non_2xx"`
	Refused           int `json:"refused_attempts"`
	Unknown           int `json:"unanswered_attempts"`
	UnknownWasDurable int `json:"unanswered_then_replayed"`
	UnknownRanLater   int `json:"unanswered_then_executed"`
}

// summarize gathers the summary of h (the run began at began).
func (h *harness) summarize(began time.Time, walFinal string) Summary {
	m := bench.MachineInfo(h.cfg.Bin)
	s := Summary{Seed: h.seed, Replay: replayHint(h.seed), StartedAt: began.UTC(), PlannedDuration: h.cfg.Duration.String(),
		Wall: time.Since(began).Round(time.Second).String(), WallSeconds: time.Since(began).Seconds(),
		Commit: m.GitCommit, CommitDirty: m.GitDirty, FXD: m.FXD, CPUModel: m.CPUModel, NumCPU: m.NumCPU,
		Accounts: h.cfg.Accounts, Workers: len(h.workers), ClientTimeout: h.cfg.ClientTimeout.String(),
		RSSLimitMiB: h.cfg.RSSLimit >> 20, GoMemLimitMiB: memLimitOf(h.cfg.RSSLimit) >> 20, WALFinal: walFinal, Ops: map[string]int{}}
	for _, k := range receiverKinds {
		if r := h.recv[k]; r != nil {
			s.Receivers = append(s.Receivers, r.stats())
		}
	}
	hs := h.hist
	hs.mu.Lock()
	s.Requests = requestStats{Writes: len(hs.reqs), Attempts: hs.attempts, Reads: hs.reads, Acked: hs.acked, Answered: hs.answered,
		Refused: hs.refused, Unknown: hs.unknown, UnknownWasDurable: hs.unknownDurable, UnknownRanLater: hs.unknownFresh}
	hs.mu.Unlock()
	for _, w := range h.workers {
		w.mu.Lock()
		for k, v := range w.opsDone {
			s.Ops[k] += v
		}
		w.mu.Unlock()
	}
	if h.rss != nil {
		peak, n, _ := h.rss.result()
		s.PeakRSSMiB, s.RSSSamples, s.RSSByMinuteMiB = peak>>20, n, h.rss.byMinute()
	}
	h.mu.Lock()
	s.Faults, s.Checks = h.faults, h.checks
	s.Checks.Records = h.recordStates()
	s.WALVerifies, s.WALFailures, s.WALTornTails = h.faults.WALVerifies, h.faults.WALFailures, h.faults.WALTornTails
	s.Anomalies, s.AnomalyExamples = h.anomalies, append([]string(nil), h.examples...)
	s.Failures, s.FailureCount = append([]string{}, h.failures...), h.failCount
	h.mu.Unlock()
	s.Passed = s.FailureCount == 0
	return s
}

// recordStates counts the records by kind and last state seen.
func (h *harness) recordStates() map[string]int {
	out := map[string]int{}
	snap := h.reg.snapshot()
	add := func(t *tracked) {
		s := t.state()
		switch {
		case s == "" && t.id == "":
			s = "not_created" // refused, or never answered and not made on resend
		case s == "":
			s = "unread"
		}
		out[t.kind+"/"+s]++
	}
	for _, o := range snap.orders {
		add(&o.tracked)
	}
	for _, t := range snap.transfers {
		add(&t.tracked)
	}
	for _, l := range snap.links {
		add(&l.tracked)
	}
	for _, e := range snap.endpoints {
		add(&e.tracked)
	}
	for _, c := range snap.contacts {
		st := "present"
		c.locked(func() {
			if c.deleted {
				st = "deleted"
			}
		})
		out[kindContact+"/"+st]++
	}
	out[kindWallet+"/linked"] = len(snap.wallets)
	return out
}

// replayHint says how to run the same seed again.
func replayHint(seed uint64) string {
	return fmt.Sprintf("FXD_TORTURE_SEED=%d go test -count=1 -run TestTortureCI ./e2e/  or  go run ./torture/cmd/fxtorture -seed %d", seed, seed)
}

// Table is a short human summary.
func (s Summary) Table() string {
	var b strings.Builder
	row := func(k string, v any) { fmt.Fprintf(&b, "  %-34s %v\n", k, v) }
	verdict := "PASSED"
	if !s.Passed {
		verdict = fmt.Sprintf("FAILED (%d failures)", s.FailureCount)
	}
	fmt.Fprintf(&b, "torture %s: seed %d, %s wall (%s planned), commit %.12s\n", verdict, s.Seed, s.Wall, s.PlannedDuration, s.Commit)
	f := s.Faults
	row("kills (load / recovery / flush)", fmt.Sprintf("%d (%d / %d / %d)", f.Kills, f.KillsLoad, f.KillsRecovery, f.KillsFlush))
	row("flush waits without a flush", f.FlushFallbacks)
	row("pauses (SIGSTOP past the deadline)", fmt.Sprintf("%d (%s)", f.Pauses, f.Paused.Round(time.Second)))
	row("restarts, slowest", fmt.Sprintf("%d, %s", f.Starts, f.SlowestStart.Round(time.Millisecond)))
	r := s.Requests
	row("writes sent (attempts), reads", fmt.Sprintf("%d (%d), %d", r.Writes, r.Attempts, r.Reads))
	row("acked / answered / refused attempts", fmt.Sprintf("%d / %d / %d", r.Acked, r.Answered, r.Refused))
	row("unanswered attempts (durable / later)", fmt.Sprintf("%d (%d / %d)", r.Unknown, r.UnknownWasDurable, r.UnknownRanLater))
	c := s.Checks
	row("acked writes checked present", c.AckedChecked)
	row("replays byte-identical / sent", fmt.Sprintf("%d / %d", c.ReplaysIdentical, c.Replays))
	row("balances checked", c.Balances)
	row("events / deliveries / duplicates", fmt.Sprintf("%d / %d / %d", c.Events, c.Deliveries, c.Duplicates))
	row("to disabled endpoints", c.DisabledChecks)
	row("forbidden deliveries checked absent", c.Forbidden)
	row("wallet / endpoint fields checked", fmt.Sprintf("%d / %d", c.WalletFields, c.EndpointFields))
	for _, rs := range s.Receivers {
		row("receiver "+rs.Kind, fmt.Sprintf("%d endpoints, %d requests, %d events, resets %d, late %d, slow %d, after a rotation %d",
			rs.Endpoints, rs.Requests, rs.Events, rs.Resets, rs.LateAnswers, rs.SlowAnswers, rs.Rotated))
	}
	keys := make([]string, 0, len(c.Records))
	for k := range c.Records {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var recs []string
	for _, k := range keys {
		recs = append(recs, fmt.Sprintf("%s=%d", k, c.Records[k]))
	}
	row("records", strings.Join(recs, " "))
	n := 0
	for _, v := range s.Anomalies {
		n += v
	}
	row("anomalies (not failures)", n)
	row("peak RSS / bound", fmt.Sprintf("%d MiB / %d MiB (server GOMEMLIMIT %d MiB; %d samples; by minute %v)",
		s.PeakRSSMiB, s.RSSLimitMiB, s.GoMemLimitMiB, s.RSSSamples, s.RSSByMinuteMiB))
	row("wal verify (runs, torn tails after a kill, failures)", fmt.Sprintf("%d, %d, %d; final %s", s.WALVerifies, s.WALTornTails, s.WALFailures, s.WALFinal))
	for i, msg := range s.Failures {
		if i == 10 {
			fmt.Fprintf(&b, "  … %d more failures; of the %d kept, by kind:\n", s.FailureCount-10, len(s.Failures))
			for _, k := range failureKinds(s.Failures) {
				fmt.Fprintf(&b, "  %5d × %s\n", k.n, k.kind)
			}
			break
		}
		fmt.Fprintf(&b, "  FAILURE %s\n", msg)
	}
	fmt.Fprintf(&b, "  replay: %s\n", s.Replay)
	return b.String()
}

// failureKind is a failure message with its ids, hashes, addresses and
// numbers masked, and how many failures read so.
type failureKind struct {
	kind string
	n    int
}

// variablePart matches what differs between failures of one kind.
var variablePart = regexp.MustCompile(`0x[0-9a-fA-F]+|[a-z]+_[0-9A-Za-z_]{16,}|[0-9]+(\.[0-9]+)?`)

// failureKinds groups failures by kind, most frequent first, so a run
// with hundreds of failures shows every distinct cause.
func failureKinds(failures []string) []failureKind {
	count := map[string]int{}
	for _, f := range failures {
		k := variablePart.ReplaceAllString(f, "…")
		if len(k) > 160 {
			k = k[:160] + "…"
		}
		count[k]++
	}
	out := make([]failureKind, 0, len(count))
	for k, n := range count {
		out = append(out, failureKind{k, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n > out[j].n || out[i].n == out[j].n && out[i].kind < out[j].kind })
	return out
}
