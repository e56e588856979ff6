// Package backup makes, checks and restores backups of a running fxd.
//
// A backup is a directory that carries everything a new data dir needs to
// start, and nothing secret:
//
//	manifest.json        written last, atomically: no manifest, no backup
//	state/               Pebble checkpoint of the snapshot store at applied index A
//	wal/                 the log's records A+1..L, as a log of their own
//	chain/contracts.json the contract addresses
//	chain/genesis.json   embedded chain: its genesis spec
//	chain/blocks.rlp     embedded chain: blocks 1..H, RLP, taken after L
//
// Create runs inside the server (the admin listener's POST /admin/backups):
// the engine checkpoints the store, appends one record of its own and
// copies the log from A+1 to the last durable index L, with compaction
// held off those records meanwhile (actors.Engine.BackupState); then the
// embedded chain exports its blocks up to its head H. The export comes
// after the log copy, so every block a logged record refers to (a mined
// relay, a watched block) is at or below H. Every write acknowledged
// before Create was called is at or below L.
//
// Verify checks a backup without any service: the manifest, every file's
// size and SHA-256, the log copy (frames, CRC chain, indexes A+1..L, every
// record decodes), the checkpoint (opens read-only at index A), the
// genesis binding, and the chain export (one chain from the genesis to H).
//
// Restore verifies, then builds the new data dir beside its final place
// and renames it there when complete: the checkpoint as state/, the log
// copy as wal/, the chain rebuilt by executing the export (and its
// contracts.json), and recovery run once over them, so `fxd serve
// --data-dir NEW` starts at once. It never writes the admin token,
// admin.addr, the webhook master key or any key file: the restored server
// makes a new admin token, and the operator brings the master key.
package backup
