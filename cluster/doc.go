// Package cluster places the partitions on the nodes of a cluster
// (DESIGN.md, "Beyond one machine": Ownership).
//
// A partition is owned by the node that leads its stream (one jslog stream
// per partition, replicated on three nodes): JetStream's raft elects it,
// and the fence on every append (jslog) makes a deposed leader harmless.
// This package only watches and nudges that election:
//
//   - Leaders (leaders.go) tells each node which partitions it leads now,
//     from its own embedded server's raft state (no network round trip),
//     and reports every gain and loss in order, so the node can answer a
//     partition's requests (forward.Responder) and run its records only
//     while it leads it.
//   - Balance (balance.go) spreads leadership evenly: the JetStream meta
//     leader asks the streams of a node leading more than its share to
//     step down in favour of the replica leading fewest, one stream at a
//     time (plan is the pure part, table-tested).
package cluster
