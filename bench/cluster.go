package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"
)

// The cluster phase (DESIGN.md, "Beyond one machine"): three `fxd serve
// --cluster-*` nodes on this machine beside one single node, durable
// writes (POST /contacts) in alternating rounds through the node that
// leads the written accounts, the CPU each node spends per acknowledged
// write, the same cluster under CPU quotas summing to this machine, and a
// kill -9 of the leader.

// defaultClusterNodes is the cluster's size: the streams' three replicas.
const defaultClusterNodes = 3

// deepConnsFactor sets the phase's second operating point: this many
// times the connections. Every partition's stream takes one message per
// group commit, and a closed loop of N connections spread over the
// leader's partitions puts about N/partitions writes in each, so the
// cluster's CPU per write depends on the connections where the single
// node's (one log, batches of hundreds either way) hardly does.
const deepConnsFactor = 16

// ClusterPhase is the cluster phase's outcome.
type ClusterPhase struct {
	Nodes          int   `json:"nodes"`
	OwnedAtStart   []int `json:"partitions_owned_at_start"`
	KeysSingle     int   `json:"keys_single"`
	KeysLeader     int   `json:"keys_leader"`
	KeysOtherNodes int   `json:"keys_each_other_node"`
	// ClusterPoint is the rounds at the run's connections (-conns, as
	// every write phase); Deep the same at deepConnsFactor times them.
	ClusterPoint
	Deep     *ClusterPoint `json:"deep,omitempty"`
	Quota    *QuotaRun     `json:"quota,omitempty"`
	Failover *Failover     `json:"failover,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
}

// ClusterPoint is one operating point of the phase: the single node's and
// the cluster's write rounds, alternating, at one number of connections.
type ClusterPoint struct {
	Conns int `json:"conns,omitempty"`
	// Single is the single node's write rounds; Cluster the cluster's,
	// every account led by node 0, entered there (its ServerCPUUs is the
	// leader's).
	Single  *LoadResult `json:"single_writes,omitempty"`
	Cluster *LoadResult `json:"cluster_writes,omitempty"`
	// CPU per acknowledged write of the cluster's rounds, in µs: the
	// leader's, each follower's, and all three's.
	LeaderCPUUs   float64   `json:"leader_cpu_us_per_write"`
	FollowerCPUUs []float64 `json:"follower_cpu_us_per_write"`
	ClusterCPUUs  float64   `json:"cluster_cpu_us_per_write"`
	// Projected is the capacity of Nodes machines like this one running
	// the cluster (leadership spread evenly: each write costs one leader's
	// and Nodes-1 followers' CPU) over one machine running a single node,
	// if CPU is what runs out: Nodes × single CPU per write / cluster CPU
	// per write.
	Projected float64 `json:"projected_capacity_vs_single"`
	// WritesPerMessage is the leader's mean records per stream message in
	// the cluster's windows, SingleWritesPerFsync the single node's per
	// group commit in its own (both from fxd_wal_batch_records; 0:
	// unread).
	WritesPerMessage     float64 `json:"writes_per_stream_message,omitempty"`
	SingleWritesPerFsync float64 `json:"single_writes_per_fsync,omitempty"`
}

// QuotaRun is the cluster under per-node CPU quotas that sum to this
// machine's cores, written through every node at once (each node's own
// accounts), against the single node's rate on the whole machine.
type QuotaRun struct {
	CoresEach float64   `json:"cores_each"`
	Rates     []float64 `json:"rates_per_node"`
	Rate      float64   `json:"rate_per_s"`
	CPUUs     float64   `json:"cluster_cpu_us_per_write"`
	Valid     bool      `json:"valid"`
	Skipped   string    `json:"skipped,omitempty"` // why it did not run
}

// runClusterPhase runs the phase in dir; estRate is the single node's
// write rate measured earlier in the run (0: unknown), which sizes the
// keys. profiled (see Run; nil hooks without -perf) samples the single
// node, the leader and one follower during their first write rounds.
func runClusterPhase(ctx context.Context, cfg Config, dir string, estRate float64, cp *ClusterPhase, profiled profiler, logw io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	if estRate <= 0 {
		estRate = fallbackRatePerSec
	}
	rounds, roundWin := phaseRounds(cfg), roundWindow(cfg)
	keysFor := func(rate float64, d time.Duration) int {
		return min(cfg.MaxKeys, int(math.Ceil(rate*d.Seconds()*provisionMargin/writeBudget)))
	}
	cp.Nodes = cfg.ClusterNodes
	// Both operating points write with the same keys.
	cp.KeysSingle = keysFor(estRate, 2*(time.Duration(rounds)*cfg.Warmup+cfg.Duration))
	cp.KeysLeader = keysFor(estRate, time.Duration(2*rounds+1)*cfg.Warmup+2*cfg.Duration+roundWin)
	cp.KeysOtherNodes = keysFor(estRate/float64(cp.Nodes), cfg.Warmup+roundWin)

	say("== cluster: a single node and %d cluster nodes", cp.Nodes)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	single, err := StartFXD(cfg.Bin, filepath.Join(dir, "data-single"), filepath.Join(dir, "fxd-single.log"))
	if err != nil {
		return fmt.Errorf("start single node: %w", err)
	}
	defer func() { _ = single.Kill() }()
	singleKeys, err := accountsWithKeys(ctx, single, cp.KeysSingle, "single", logw)
	if err != nil {
		return fmt.Errorf("single node keys: %w", err)
	}
	nodes, err := startCluster(cfg.Bin, dir, cp.Nodes)
	if err != nil {
		return err
	}
	defer func() {
		for _, nd := range nodes {
			_ = nd.Kill()
		}
	}()
	if cp.OwnedAtStart, err = awaitBalanced(nodes); err != nil {
		return err
	}
	say("  partitions owned: %v", cp.OwnedAtStart)
	nodeKeys := make([]*KeySet, len(nodes))
	for i, nd := range nodes {
		n := cp.KeysOtherNodes
		if i == 0 {
			n = cp.KeysLeader
		}
		keys, err := accountsWithKeys(ctx, nd.FXD, n, nd.Name, logw)
		if err != nil {
			return fmt.Errorf("keys on %s: %w", nd.Name, err)
		}
		nodeKeys[i] = NewKeySet(keys, writeBudget)
	}
	singleSet := NewKeySet(singleKeys, writeBudget)
	cp.Conns = cfg.Conns
	if cp.Conns <= 0 {
		cp.Conns = defaultConns // -only cluster runs no sweep to pick them
	}
	if err := clusterRounds(cfg, single, singleSet, nodes, nodeKeys[0], &cp.ClusterPoint, "", profiled, say); err != nil {
		return err
	}
	cp.Deep = &ClusterPoint{Conns: cp.Conns * deepConnsFactor}
	if err := clusterRounds(cfg, single, singleSet, nodes, nodeKeys[0], cp.Deep, fmt.Sprintf("-c%d", cp.Deep.Conns), nil, say); err != nil {
		return fmt.Errorf("at %d conns: %w", cp.Deep.Conns, err)
	}
	cp.Quota = quotaRun(cfg, nodes, nodeKeys, say)
	say("== cluster: failover, kill -9 of %s while every partition it leads is written through %s", nodes[0].Name, nodes[1].Name)
	if cp.Failover, err = runFailover(ctx, nodes[0], nodes[1], logw); err != nil {
		return fmt.Errorf("failover: %w", err)
	}
	say("  unavailable per partition: median %.2fs, max %.2fs over %d partitions", cp.Failover.MedianS, cp.Failover.MaxS, cp.Failover.Partitions)
	return nil
}

// clusterRounds alternates the single node's write rounds with the
// cluster's (through the leader, nodes[0]) at cp.Conns connections and
// derives CPU and records per batch per write; suffix ends the loads'
// names.
func clusterRounds(cfg Config, single *FXD, singleKeys *KeySet, nodes []*clusterNode, leaderKeys *KeySet, cp *ClusterPoint, suffix string, profiled profiler, say func(string, ...any)) error {
	followerCPU := make([]time.Duration, len(nodes)-1)
	var singleBatches, leaderBatches batchTally
	base := Load{Method: "POST", Path: contactsPath, Body: contactBody, WantStatus: 201, Conns: cp.Conns,
		Warmup: cfg.Warmup, Gen: cfg.Gen, Progress: cfg.Log}
	singleLoad, clusterLoad := base, base
	singleLoad.Name, singleLoad.Addr, singleLoad.Keys, singleLoad.ServerPID = "single-writes"+suffix, single.Addr(), singleKeys, single.PID()
	clusterLoad.Name, clusterLoad.Addr, clusterLoad.Keys, clusterLoad.ServerPID = "cluster-writes"+suffix, nodes[0].Addr(), leaderKeys, nodes[0].PID()
	singleLoad.OnWindow = singleBatches.window(single)
	clusterLoad.OnWindow = chainWindows(leaderBatches.window(nodes[0].FXD), func() func() {
		at := followersCPU(nodes[1:])
		return func() {
			for i, d := range followersCPU(nodes[1:]) {
				followerCPU[i] += d - at[i]
			}
		}
	})
	// The first round of each side is profiled: the single node; the
	// leader and the first follower.
	first := func(name string, l *Load) {
		if profiled == nil {
			return
		}
		if l.ServerPID == single.PID() {
			l.OnWindow = chainWindows(l.OnWindow, profiled(name, single.PID()))
			return
		}
		l.OnWindow = chainWindows(l.OnWindow, profiled(name+"-leader", nodes[0].PID()), profiled(name+"-follower", nodes[1].PID()))
	}
	var failed error
	cp.Single, cp.Cluster = alternateLoads(cfg, singleLoad, clusterLoad, first, say, func(name string, err error) {
		failed = errors.Join(failed, fmt.Errorf("%s: %w", name, err))
	})
	if failed != nil {
		return failed
	}
	if cp.Cluster.OK == 0 || cp.Cluster.serverCPU < 0 {
		return errors.New("the cluster acknowledged no write, or its CPU is unknown")
	}
	cp.LeaderCPUUs = cp.Cluster.ServerCPUUs
	cp.ClusterCPUUs = cp.LeaderCPUUs
	for _, d := range followerCPU {
		us := d.Seconds() * 1e6 / float64(cp.Cluster.OK)
		cp.FollowerCPUUs = append(cp.FollowerCPUUs, us)
		cp.ClusterCPUUs += us
	}
	if cp.Single.ServerCPUUs > 0 {
		cp.Projected = float64(len(nodes)) * cp.Single.ServerCPUUs / cp.ClusterCPUUs
	}
	cp.SingleWritesPerFsync, cp.WritesPerMessage = singleBatches.mean(), leaderBatches.mean()
	return nil
}

// batchTally adds up a node's durable log batches (fxd_wal_batch_records:
// group commits on a single node, stream messages it published on a
// cluster node) over load windows.
type batchTally struct {
	records, batches int64
	unread           bool
}

// window is a Load.OnWindow hook that counts fx's batches in the window.
func (t *batchTally) window(fx *FXD) func() func() {
	return func() func() {
		at, err := gauges(fx, "fxd_wal_batch_records_sum", "fxd_wal_batch_records_count")
		return func() {
			now, err2 := gauges(fx, "fxd_wal_batch_records_sum", "fxd_wal_batch_records_count")
			if err != nil || err2 != nil {
				t.unread = true
				return
			}
			t.records += now[0] - at[0]
			t.batches += now[1] - at[1]
		}
	}
}

// mean is the records per batch over the windows, 0 if any went unread.
func (t *batchTally) mean() float64 {
	if t.unread || t.batches <= 0 {
		return 0
	}
	return float64(t.records) / float64(t.batches)
}

// followersCPU reads each node's CPU time so far (0 where unreadable).
func followersCPU(nodes []*clusterNode) []time.Duration {
	out := make([]time.Duration, len(nodes))
	for i, nd := range nodes {
		out[i], _ = procCPU(nd.PID())
	}
	return out
}
