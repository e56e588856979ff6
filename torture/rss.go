package torture

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rssEvery is how often the server's resident memory is read.
const rssEvery = time.Second

// rssSampler reads the running server's VmRSS every second, for the
// whole run, and remembers the peak and the first time it exceeded the
// bound.
type rssSampler struct {
	limit uint64
	srv   *server

	mu      sync.Mutex
	peak    uint64
	samples int
	over    string // the first sample above the limit, for the failure
	began   time.Time
	minutes []uint64 // the peak of each minute of the run, bounded by maxMinutes
}

// maxMinutes bounds the per-minute peaks kept (a day).
const maxMinutes = 24 * 60

func newRSSSampler(srv *server, limit uint64) *rssSampler {
	return &rssSampler{srv: srv, limit: limit, began: time.Now()}
}

// run samples until ctx ends.
func (r *rssSampler) run(ctx context.Context) {
	t := time.NewTicker(rssEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.sample()
		}
	}
}

func (r *rssSampler) sample() {
	p, gen := r.srv.current()
	if p == nil || p.Exited() {
		return
	}
	rss, err := vmRSS(p.PID())
	if err != nil {
		return // the process is gone between the check and the read
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.samples++
	r.peak = max(r.peak, rss)
	if m := int(time.Since(r.began) / time.Minute); m < maxMinutes {
		for len(r.minutes) <= m {
			r.minutes = append(r.minutes, 0)
		}
		r.minutes[m] = max(r.minutes[m], rss)
	}
	if rss > r.limit && r.over == "" {
		r.over = fmt.Sprintf("server RSS %d MiB above the bound of %d MiB (generation %d, %s)",
			rss>>20, r.limit>>20, gen, time.Now().Format(time.RFC3339))
	}
}

// byMinute is the peak of each minute so far, in MiB.
func (r *rssSampler) byMinute() []uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]uint64, len(r.minutes))
	for i, v := range r.minutes {
		out[i] = v >> 20
	}
	return out
}

// result is the peak, the number of samples and the first excess ("").
func (r *rssSampler) result() (peak uint64, samples int, over string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.peak, r.samples, r.over
}

// vmRSS reads a process's resident set size from /proc/PID/status.
func vmRSS(pid int) (uint64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("VmRSS %q: %w", rest, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmRSS", pid)
}
