package cluster

import (
	"context"
	"time"

	"github.com/fxd-labs/fxd/actors"
)

// Status is the cluster's partition map as one node sees it (fxd cluster
// status, GET /admin/cluster).
type Status struct {
	Node       string            `json:"node"`
	Partitions []PartitionStatus `json:"partitions"`
	// Relayer is the node running the cluster's relayer (the relay
	// journal stream's leader); "" when none does (no chain, or an
	// election under way).
	Relayer string `json:"relayer"`
}

// PartitionStatus is one partition: its stream's leader and replicas (from
// JetStream, asked now), and this node's engine's part.
type PartitionStatus struct {
	actors.PartStatus
	Stream   string          `json:"stream"`
	Leader   string          `json:"leader"` // "" while an election is under way
	Replicas []ReplicaStatus `json:"replicas"`
}

// ReplicaStatus is a replica other than the leader.
type ReplicaStatus struct {
	Node    string `json:"node"`
	Current bool   `json:"current"`
	Offline bool   `json:"offline"`
	Lag     uint64 `json:"lag"` // raft entries behind the leader
}

// Status asks JetStream for every partition stream's placement
// (streamInfos, each within statusReadTimeout). A stream that does not
// answer (its leader being elected) shows no leader; so does every stream
// not read when ctx ends, so Status never fails. Before, the streams were
// read one after another under ctx alone: the first that did not answer
// used up the admin's 10 s and the whole status failed (503), right after
// a node was killed.
func (n *Node) Status(ctx context.Context) Status {
	parts := n.Engine.Parts()
	names := make([]string, 0, len(parts)+1)
	for _, part := range parts {
		names = append(names, StreamName(part.Part))
	}
	infos := streamInfos(ctx, n.JS, append(names, RelayStream), statusReadTimeout)
	st := Status{Node: n.NATS.Name()}
	for i, part := range parts {
		ps := PartitionStatus{PartStatus: part, Stream: names[i], Replicas: []ReplicaStatus{}}
		if info := infos[i]; info != nil && info.Cluster != nil {
			ps.Leader = info.Cluster.Leader
			for _, r := range info.Cluster.Replicas {
				ps.Replicas = append(ps.Replicas, ReplicaStatus{Node: r.Name, Current: r.Current, Offline: r.Offline, Lag: r.Lag})
			}
		}
		st.Partitions = append(st.Partitions, ps)
	}
	if info := infos[len(parts)]; info != nil && info.Cluster != nil {
		st.Relayer = info.Cluster.Leader
	}
	return st
}

// statusReadTimeout bounds the wait for one stream's info in Status. The
// admin request has 10 s for all 65, placementReads at a time: a few
// streams without a leader hold a slot each for this long while the others
// are read; an answer on a loaded machine gets more than a second.
const statusReadTimeout = 3 * time.Second
