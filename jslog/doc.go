// Package jslog is the engine's partition log (partlog.PartitionLog) on
// one NATS JetStream stream, replicated across the cluster's nodes
// (DESIGN.md, "Beyond one machine"; package natsnode runs the servers).
//
// # Messages
//
// One message is one group-commit batch (partlog/groupcommit): its data is the
// batch's entries in wal's frame format (index, prevCRC, CRC32C; see
// wal/doc.go), at consecutive indexes, the first frame chained to the last
// frame of the message before, and the headers Fxd-First-Index and
// Fxd-Count say which indexes it holds (message.go). Sequences and
// indexes both grow, so the message holding an index is found by binary
// search on the headers (scan.go).
//
// # Durability
//
// An entry is acknowledged (Append returns, done runs) only after the
// stream's PubAck for its message: the stream is file storage in
// DefaultPersistMode on servers with SyncAlways (natsnode forces it), so
// the message is fsynced on a quorum of replicas. Open refuses a stream
// without those guarantees (config.go, checkStream).
//
// # The fence
//
// Every message is published with Nats-Expected-Last-Sequence set to the
// stream's last sequence as this writer knows it. If any other writer
// appended since (a new owner of the partition), the stream refuses the
// message: a deposed writer can never append. A refusal, or any publish
// whose outcome is unknown (timeout, lost connection), fails the log:
// Options.OnFatal once, ErrFailed for every later append, and nothing is
// retried blindly, because an unknown outcome may have been stored. The
// next Open reads the truth from the stream.
//
// # Reads
//
// Reads go to the stream's leader (GetMsg without AllowDirect): a direct
// get may be answered by a follower that lags and miss an acknowledged
// entry. A follower (Options.Follow) first looks among the last messages
// its ordered consumer delivered (a consumer delivers only what the
// stream stored, in order), so a warm follower's applier asks the leader
// for nothing. Every read verifies frames, headers and the chain; a break
// is ErrCorrupt, never skipped.
package jslog
