package bench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClusterRows: each operating point has its rows, the deep one named
// by its connections, with writes per stream message beside the CPU; the
// projection is judged against the goal unless a round is invalid.
func TestClusterRows(t *testing.T) {
	load := func(cpu float64) *LoadResult {
		return &LoadResult{OK: 100, Seconds: 5, PlannedS: 5, ServerCPUUs: cpu}
	}
	c := &ClusterPhase{Nodes: 3,
		ClusterPoint: ClusterPoint{Conns: 256, Single: load(71), Cluster: load(152), LeaderCPUUs: 152,
			FollowerCPUUs: []float64{65, 62}, ClusterCPUUs: 279, Projected: 0.77, WritesPerMessage: 11.6, SingleWritesPerFsync: 400},
		Deep: &ClusterPoint{Conns: 4096, Single: load(72), Cluster: &LoadResult{OK: 100, TooMany: 1, Seconds: 5, PlannedS: 5},
			LeaderCPUUs: 87, FollowerCPUUs: []float64{13, 14}, ClusterCPUUs: 114, Projected: 1.9}}
	byName := map[string]Row{}
	for _, r := range clusterRows(c) {
		byName[r.Name] = r
	}
	cpu := byName["cluster: server CPU per acknowledged write"]
	require.Equal(t, "279 µs", cpu.Value)
	require.Contains(t, cpu.Detail, "leader 152 µs + followers 65 + 62 µs, against the single node's 71 µs")
	require.Contains(t, cpu.Detail, "11.6 writes per stream message (the single node: 400.0 per fsync)")
	require.Equal(t, "FAIL", byName["cluster: projected 3-machine capacity / single node"].Result)
	deep := byName["cluster: projected 3-machine capacity / single node at 4096 conns"]
	require.Equal(t, "1.90×", deep.Value)
	require.Equal(t, "INVALID", deep.Result, "a 429 in the deep cluster rounds")
	require.Contains(t, byName["cluster: server CPU per acknowledged write at 4096 conns"].Detail, "? writes per stream message")
}

// TestBatchTally: records and batches add up over windows; an unread
// window makes the mean unknown rather than wrong.
func TestBatchTally(t *testing.T) {
	tally := batchTally{records: 600, batches: 50}
	require.InDelta(t, 12.0, tally.mean(), 1e-9)
	require.Zero(t, (&batchTally{}).mean(), "no batches")
	tally.unread = true
	require.Zero(t, tally.mean())
}
