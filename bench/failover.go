package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/ids"
)

const (
	// failoverKeys is how many keys write to one probed partition, in
	// turn: at one write per failoverEvery each key sends 75 a minute,
	// under the per-key write limit of 120 for the whole step.
	failoverKeys  = 8
	failoverEvery = 100 * time.Millisecond
	// failoverBefore is how long the probes write before the kill.
	failoverBefore = 3 * time.Second
	// failoverWait bounds the wait for every partition to be served again.
	failoverWait = time.Minute
	// failoverMaxAccounts bounds the accounts made to cover the
	// victim's partitions (placement is random among them).
	failoverMaxAccounts = 2000
)

// Failover is the cluster phase's kill -9 of one node: how long each
// partition it led answered no write, seen through a surviving node.
type Failover struct {
	Node       string `json:"node_killed"`
	Partitions int    `json:"partitions"` // the partitions it led, each probed
	// Seconds is, per partition, the time from the kill to its first
	// acknowledged write after it, in order; -1 for none in failoverWait.
	Seconds  []float64 `json:"unavailable_s"`
	MedianS  float64   `json:"median_s"`
	MaxS     float64   `json:"max_s"`
	Writes   int64     `json:"acknowledged_writes"`
	Refusals int64     `json:"refused_or_failed"` // 503s, timeouts and the like while it failed over
	Problem  string    `json:"problem,omitempty"`
}

// probeKeys creates accounts on victim (each placed in a partition it
// leads) until every one of its owned partitions has failoverKeys keys.
func probeKeys(ctx context.Context, victim *clusterNode, logw io.Writer) (map[int][]Key, error) {
	owned, err := victim.owned()
	if err != nil {
		return nil, err
	}
	byPart, full := map[int][]Key{}, 0
	for i := 0; full < owned; i++ {
		if i == failoverMaxAccounts {
			return nil, fmt.Errorf("%d accounts covered %d of %s's %d partitions", i, full, victim.Name, owned)
		}
		k, err := accountWithKey(ctx, victim.FXD, fmt.Sprintf("failover-%04d", i))
		if err != nil {
			return nil, err
		}
		p := ids.PartitionOf(k.Account)
		if len(byPart[p]) < failoverKeys {
			if byPart[p] = append(byPart[p], k); len(byPart[p]) == failoverKeys {
				full++
			}
		}
	}
	fmt.Fprintf(logw, "  %d partitions of %s, %d keys each\n", full, victim.Name, failoverKeys)
	return byPart, nil
}

// partitionProbe writes contacts to one partition through the entry
// node, key after key, and notes its first acknowledged write after the
// kill.
type partitionProbe struct {
	clients []*client.Client
	firstOK atomic.Int64 // unix ns of the first 201 after killed; 0 until then
}

// runFailover kills victim with SIGKILL while probes write to each of its
// partitions through entry, and measures each partition's unavailability.
func runFailover(ctx context.Context, victim, entry *clusterNode, logw io.Writer) (*Failover, error) {
	byPart, err := probeKeys(ctx, victim, logw)
	if err != nil {
		return nil, err
	}
	fo := &Failover{Node: victim.Name, Partitions: len(byPart)}
	var killed atomic.Int64 // unix ns of the kill; 0 before
	var seq atomic.Uint64
	probes := make([]*partitionProbe, 0, len(byPart))
	for _, keys := range byPart {
		pr := &partitionProbe{}
		for _, k := range keys {
			c, err := client.New("http://"+entry.Addr(), k.ID, k.Priv, client.WithTimeout(2*time.Second))
			if err != nil {
				return nil, err
			}
			pr.clients = append(pr.clients, c)
		}
		probes = append(probes, pr)
	}
	pctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, pr := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fo.probe(pctx, pr, &killed, &seq)
		}()
	}
	time.Sleep(failoverBefore)
	if atomic.LoadInt64(&fo.Writes) == 0 {
		fo.Problem = "no write acknowledged before the kill"
	}
	killed.Store(time.Now().UnixNano())
	fmt.Fprintf(logw, "  kill -9 %s (pid %d)\n", victim.Name, victim.PID())
	if err := victim.Kill(); err != nil {
		stop()
		wg.Wait()
		return nil, err
	}
	deadline := time.Now().Add(failoverWait)
	for !allServed(probes) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	wg.Wait()
	fo.summarize(probes, killed.Load())
	return fo, nil
}

// probe is one partition's writer until ctx ends.
func (fo *Failover) probe(ctx context.Context, pr *partitionProbe, killed *atomic.Int64, seq *atomic.Uint64) {
	t := time.NewTicker(failoverEvery)
	defer t.Stop()
	for i := 0; ; i++ {
		k := killed.Load()
		resp, err := pr.clients[i%len(pr.clients)].Do(ctx, "POST", contactsPath, contactBody(nil, seq.Add(1)), nil)
		switch {
		case err == nil && resp.Status == 201:
			atomic.AddInt64(&fo.Writes, 1)
			if k != 0 && pr.firstOK.Load() == 0 {
				pr.firstOK.Store(time.Now().UnixNano())
			}
		case ctx.Err() == nil:
			atomic.AddInt64(&fo.Refusals, 1)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func allServed(probes []*partitionProbe) bool {
	for _, pr := range probes {
		if pr.firstOK.Load() == 0 {
			return false
		}
	}
	return true
}

// summarize turns the probes' first writes into unavailability per
// partition, sorted, with the median and the worst.
func (fo *Failover) summarize(probes []*partitionProbe, killed int64) {
	for _, pr := range probes {
		s := -1.0
		if ok := pr.firstOK.Load(); ok != 0 {
			s = time.Duration(ok - killed).Seconds()
		}
		fo.Seconds = append(fo.Seconds, s)
	}
	slices.Sort(fo.Seconds)
	if n := len(fo.Seconds); n > 0 {
		fo.MedianS, fo.MaxS = fo.Seconds[n/2], fo.Seconds[n-1]
		if fo.Seconds[0] < 0 {
			fo.MaxS = -1
			fo.Problem = "a partition was not served again within " + failoverWait.String()
		}
	}
}
