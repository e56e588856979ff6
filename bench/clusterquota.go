package bench

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

// quotaRun caps each node at its share of this machine's cores (cgroup
// CPU quotas) and writes through every node at once, each to the
// accounts it leads, for one round. Where quotas cannot be set (not root,
// no cpu controller) it says why and runs nothing.
func quotaRun(cfg Config, nodes []*clusterNode, keys []*KeySet, say func(string, ...any)) *QuotaRun {
	q := &QuotaRun{CoresEach: float64(runtime.NumCPU()) / float64(len(nodes))}
	var quotas []*cpuQuota
	defer func() {
		for _, cq := range quotas {
			if err := cq.release(); err != nil {
				say("  !! %v", err)
			}
		}
	}()
	for _, nd := range nodes {
		cq, err := limitCPU(fmt.Sprintf("fxbench-%d-%s", os.Getpid(), nd.Name), nd.PID(), q.CoresEach)
		if err != nil {
			q.Skipped = "CPU quotas not available: " + err.Error()
			say("  %s", q.Skipped)
			return q
		}
		quotas = append(quotas, cq)
	}
	results := make([]*LoadResult, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	say("== cluster-quota: each node capped at %.2f cores, %d conns through each, %v + %v", q.CoresEach,
		max(1, cfg.Conns/len(nodes)), cfg.Warmup, roundWindow(cfg))
	for i, nd := range nodes {
		l := Load{Name: "cluster-quota-" + nd.Name, Addr: nd.Addr(), Method: "POST", Path: contactsPath, Body: contactBody,
			WantStatus: 201, Keys: keys[i], Conns: max(1, cfg.Conns/len(nodes)), Warmup: cfg.Warmup,
			Duration: roundWindow(cfg), Gen: cfg.Gen, ServerPID: nd.PID()}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = RunLoad(l)
		}()
	}
	wg.Wait()
	var cpu time.Duration
	var ok int64
	q.Valid = true
	for i, r := range results {
		if errs[i] != nil {
			q.Skipped, q.Valid = errs[i].Error(), false
			return q
		}
		q.Rates = append(q.Rates, r.Rate)
		q.Rate += r.Rate
		q.Valid = q.Valid && r.Valid() && r.serverCPU >= 0
		cpu += r.serverCPU
		ok += r.OK
	}
	if ok > 0 {
		q.CPUUs = cpu.Seconds() * 1e6 / float64(ok)
	}
	say("  %.0f writes/s in all (%v per node), %.0f µs CPU per write over the three", q.Rate, roundedRates(q.Rates), q.CPUUs)
	return q
}

func roundedRates(rs []float64) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = int64(r + 0.5)
	}
	return out
}
