// Package wal is the write-ahead log of the payments service: an
// append-only sequence of entries numbered 1, 2, 3, ... stored in a
// github.com/tidwall/wal directory, with our own framing, checksums and tail
// repair on top.
//
// # Durability contract
//
// Append returns an index only after the entry, and every entry before it,
// has been written and synced with fdatasync (see fsync.go), and the
// directory fsynced if the entry started a new segment file. A caller may
// therefore acknowledge a request (send its 2xx) as soon as Append returns.
// Enqueue's done callback carries the same guarantee. LastIndex, Read and
// Scan only ever show durable entries.
//
// Appends are group-committed and pipelined: one writer goroutine writes
// what arrived as one batch with one fsync, and while that fsync runs it
// already frames and writes the next batch, so that the next fsync starts
// as soon as this one completes; only then does it acknowledge this one
// (writer.go, "Pipeline"). A batch is acknowledged only after an fsync
// that was started after its own write returned; one fsync runs at a time,
// and acknowledgements come in index order.
//
// A failed write or fsync is fatal: Options.OnFatal is called once (by
// default the process exits with status 3), every later append fails with
// ErrFailed, and nothing not yet acknowledged ever is, not even a batch
// whose fsync completes after the failure. The fsync is never retried, nor
// is another one started: after a failed fsync Linux may have dropped the
// dirty pages, and a second fsync can succeed without them ("fsyncgate").
// Recovery is a restart, which re-reads what is on disk.
//
// # Frame format
//
// tidwall stores each entry as uvarint(length) followed by the entry bytes
// and nothing else: no checksum. So every entry we write is a frame,
// little-endian, a 24-byte header then the payload:
//
//	offset size field
//	0      2    magic 0xF7 0xD1
//	2      1    version, 1
//	3      1    flags, 0 (reserved)
//	4      8    index: equal to the entry's tidwall index
//	12     4    prevCRC: crc of the previous frame; 0 before index 1
//	16     4    length of the payload, at most MaxPayload (16 MiB)
//	20     4    crc: CRC32C (Castagnoli) of bytes [0,20) then the payload
//	24     len  payload
//
// Each frame verifies on its own (crc over header and payload; the stored
// index must match where it was found). Because prevCRC is covered by crc,
// the crcs also form a chain: frame i's prevCRC must equal frame i-1's crc,
// which catches a frame that is valid but in the wrong place (lost, repeated
// or reordered entries, a segment from another log).
//
// # Repair
//
// tidwall fails to open a log whose last entry is torn, reads zero-filled
// pages as empty entries and returns flipped bits as data. So Open first
// walks the last segment file itself (see RepairReport): a damaged tail that
// a crash explains (no valid frame after the damage) is cut off and saved to
// a .broken file; anything else is refused with an error wrapping
// ErrCorrupt. Earlier segments are verified as they are read (Read, Scan) and
// in full by Verify.
//
// A crash before the last batches were durable can, on some file systems,
// persist later pages of them but not earlier ones. With the pipeline the
// bytes not yet durable span up to two batches (the one being fsynced and
// the one written behind it), never an acknowledged entry. Open then sees a
// valid frame after damage and refuses rather than cut: it cannot tell that
// from damage to acknowledged entries. That case needs a person (with
// Verify's report) to decide whether to cut by hand.
package wal
