package cluster

import (
	"context"
	"fmt"

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

// Status asks JetStream for every partition stream's placement. A stream
// that does not answer (its leader being elected) shows no leader.
func (n *Node) Status(ctx context.Context) (Status, error) {
	st := Status{Node: n.NATS.Name()}
	for _, part := range n.Engine.Parts() {
		ps := PartitionStatus{PartStatus: part, Stream: StreamName(part.Part), Replicas: []ReplicaStatus{}}
		s, err := n.JS.Stream(ctx, ps.Stream)
		if err == nil {
			info, err := s.Info(ctx)
			if err == nil && info.Cluster != nil {
				ps.Leader = info.Cluster.Leader
				for _, r := range info.Cluster.Replicas {
					ps.Replicas = append(ps.Replicas, ReplicaStatus{Node: r.Name, Current: r.Current, Offline: r.Offline, Lag: r.Lag})
				}
			}
		}
		if ctx.Err() != nil {
			return Status{}, fmt.Errorf("cluster: status: %w", ctx.Err())
		}
		st.Partitions = append(st.Partitions, ps)
	}
	if s, err := n.JS.Stream(ctx, RelayStream); err == nil {
		if info, err := s.Info(ctx); err == nil && info.Cluster != nil {
			st.Relayer = info.Cluster.Leader
		}
	}
	return st, nil
}
