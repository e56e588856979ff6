package wal

import (
	"fmt"
	"os"
	"path/filepath"
)

// CopyReport says what CopyRange wrote.
type CopyReport struct {
	First    uint64 `json:"first_index"` // first index copied
	Last     uint64 `json:"last_index"`  // last index copied
	Records  uint64 `json:"records"`
	Segments int    `json:"segments"` // segment files written
	Bytes    int64  `json:"bytes"`    // bytes written
}

// CopyRange writes the entries from..to of the log into dst, a directory
// that must not exist yet, as a log of its own: the stored frames byte for
// byte, in segment files named by their first index as tidwall names
// them, split where the log's own segments split (the first one starts at
// from). Verify and ScanDir accept dst, and Open continues it at to+1,
// chained to to's frame. Only the link from from to from-1 is not in dst
// (a log whose first segment does not start at 1 never checks it).
//
// It reads the segment files directly, without tidwall and without the
// log's locks, so appends go on meanwhile: entries up to LastIndex() are
// durable and never rewritten, and a batch being written behind them is
// never reached (the copy stops at to). Every copied frame is verified
// (decode, index, chain) as it is read, so a copy is never torn and never
// carries damage. to must be at most LastIndex() and from at least
// FirstIndex(); segments in front are not held (TruncateFront may remove
// one while it is read, which fails the copy): the caller keeps
// truncation away from from (actors pins the log during a backup).
// Every file written, and dst itself, is fsynced before it returns.
func (l *Log) CopyRange(dst string, from, to uint64) (CopyReport, error) {
	switch first, last := l.first.Load(), l.last.Load(); {
	case from == 0 || from > to:
		return CopyReport{}, fmt.Errorf("wal: copy %d..%d: %w: empty or reversed range", from, to, ErrOutOfRange)
	case from < first || to > last:
		return CopyReport{}, fmt.Errorf("wal: copy %d..%d: %w: log holds %d..%d", from, to, ErrOutOfRange, first, last)
	}
	rep, err := copyRange(l.dir, dst, from, to)
	if err != nil {
		return rep, fmt.Errorf("wal: copy %d..%d to %s: %w", from, to, dst, err)
	}
	return rep, nil
}

// copyRange copies entries from..to of the log in src into dst.
func copyRange(src, dst string, from, to uint64) (CopyReport, error) {
	rep := CopyReport{First: from, Last: to}
	segs, err := listSegments(src)
	if err != nil {
		return rep, err
	}
	start := -1 // the segment holding from: the last one starting at or before it
	for i, s := range segs {
		if s.first <= from {
			start = i
		}
	}
	if start < 0 {
		return rep, fmt.Errorf("%w: no segment holds index %d", ErrOutOfRange, from)
	}
	if err := os.Mkdir(dst, 0o750); err != nil {
		return rep, err
	}
	var prevCRC uint32
	next := from // the next index to copy
	for i := start; i < len(segs) && next <= to; i++ {
		end := to // last index this segment must provide
		if i+1 < len(segs) && segs[i+1].first-1 < end {
			end = segs[i+1].first - 1
		}
		out, crc, err := segmentRange(segs[i], next, end, prevCRC, next > from)
		if err != nil {
			return rep, err
		}
		if err := writeFileSync(filepath.Join(dst, segmentName(next)), out); err != nil {
			return rep, err
		}
		rep.Segments++
		rep.Bytes += int64(len(out))
		rep.Records += end + 1 - next
		prevCRC, next = crc, end+1
	}
	if next <= to {
		return rep, fmt.Errorf("%w: segments end at index %d, before %d", ErrCorrupt, next-1, to)
	}
	if err := syncDir(dst); err != nil {
		return rep, err
	}
	return rep, syncDir(filepath.Dir(filepath.Clean(dst)))
}

// segmentRange returns the stored entries from..end of segment s (prefix
// and frame, as tidwall wrote them) and the crc of end's frame. Entries
// before from are skipped unverified; the copied ones are verified, and
// chained to prevCRC when chained.
func segmentRange(s segmentFile, from, end uint64, prevCRC uint32, chained bool) ([]byte, uint32, error) {
	data, err := os.ReadFile(s.path)
	if err != nil {
		return nil, 0, err
	}
	off, index := 0, s.first
	for ; index < from; index++ {
		_, n, err := nextEntry(data[off:])
		if err != nil {
			return nil, 0, fmt.Errorf("%w: segment %s: index %d at offset %d: %w", ErrCorrupt, s.name, index, off, err)
		}
		off += n
	}
	begin := off
	for ; index <= end; index++ {
		if off == len(data) {
			return nil, 0, fmt.Errorf("%w: segment %s ends at index %d, expected %d", ErrCorrupt, s.name, index-1, end)
		}
		f, n, _, err := nextFrame(data, off, index, prevCRC, chained)
		if err != nil {
			return nil, 0, fmt.Errorf("%w: segment %s: %w", ErrCorrupt, s.name, err)
		}
		prevCRC, chained = f.CRC, true
		off += n
	}
	return data[begin:off], prevCRC, nil
}
