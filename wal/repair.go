package wal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// RepairReport says what Open cut from the tail of the log before opening
// it. The zero value means nothing was cut.
type RepairReport struct {
	Segment       string // name of the segment file that was cut
	CutAtOffset   int64  // new length of that file: the end of its last good entry
	CutBytes      int64  // number of bytes removed from it
	BrokenFile    string // path of the file that holds the removed bytes
	LastGoodIndex uint64 // last index kept (FirstIndex()-1 if none is left)
}

// tailState is what repair learned about the tail of the log.
type tailState struct {
	lastIndex uint64 // last index in the log; tail.first-1 when it is empty
	lastCRC   uint32 // crc of that frame, which the next frame chains to; 0 if none
}

// repair makes the last segment of dir end on its last good entry, so that
// tidwall can open it and new frames chain onto a verified one.
//
// Only damage that a crash can explain is cut: an entry that does not decode
// (torn write, zero-filled pages, flipped bits) with no valid frame anywhere
// after it in the file. The cut bytes are kept in <segment>.<offset>.broken.
// Anything else (a valid frame after the damage, a checksum-valid frame with
// the wrong index or chain, a damaged previous segment) is refused with an
// error wrapping ErrCorrupt: cutting there would drop records that were
// intact and possibly acknowledged, so a person must decide.
//
// At most one cut is made. If the cut empties the last segment and it is not
// the only one, the file is removed and its predecessor becomes the tail and
// is checked the same way; a second cut there is refused.
func repair(dir string, logf func(string, ...any)) (RepairReport, tailState, error) {
	var rep RepairReport
	segs, err := listSegments(dir)
	if err != nil {
		return rep, tailState{}, err
	}
	for len(segs) > 0 {
		tail := segs[len(segs)-1]
		data, err := os.ReadFile(tail.path)
		if err != nil {
			return rep, tailState{}, err
		}
		var prevCRC uint32
		chained := len(segs) > 1
		if chained {
			if prevCRC, err = segmentAnchor(segs[len(segs)-2], tail.first); err != nil {
				return rep, tailState{}, err
			}
		}
		c := checkSegment(data, tail.first, prevCRC, chained)
		if c.problem != nil {
			if !c.torn {
				return rep, tailState{}, fmt.Errorf("%w: segment %s: %w; not a torn tail, refusing to cut", ErrCorrupt, tail.name, c.problem)
			}
			if rep.Segment != "" {
				return rep, tailState{}, fmt.Errorf("%w: segment %s: %w; already cut segment %s, refusing a second cut", ErrCorrupt, tail.name, c.problem, rep.Segment)
			}
			if rep, err = cutTail(dir, tail, data, c, logf); err != nil {
				return rep, tailState{}, err
			}
			data = data[:c.goodEnd]
		}
		if len(data) == 0 && len(segs) > 1 {
			// An empty tail that is not the only segment: tidwall left it
			// after a cycle, or the cut emptied it. Removing it lets the
			// previous segment be the tail and keeps segment names in step
			// with indexes.
			if err := os.Remove(tail.path); err != nil {
				return rep, tailState{}, err
			}
			if err := syncDir(dir); err != nil {
				return rep, tailState{}, err
			}
			logf("wal: repair: removed empty last segment=%s", tail.name)
			segs = segs[:len(segs)-1]
			continue
		}
		st := tailState{lastIndex: tail.first + c.entries - 1}
		if c.entries > 0 {
			st.lastCRC = c.lastCRC
		}
		return rep, st, nil
	}
	return rep, tailState{}, nil
}

// segmentAnchor returns the crc of the last frame of seg, the segment before
// the tail, after checking that seg's entry count lines up with the first
// index of the tail (next). Only the last frame is decoded; the rest of seg
// is verified when read and by Verify.
func segmentAnchor(seg segmentFile, next uint64) (uint32, error) {
	data, err := os.ReadFile(seg.path)
	if err != nil {
		return 0, err
	}
	count, last, err := lastEntry(data)
	if err != nil {
		return 0, fmt.Errorf("%w: segment %s (before the last): %w", ErrCorrupt, seg.name, err)
	}
	if count == 0 {
		return 0, fmt.Errorf("%w: segment %s is empty but is not the last", ErrCorrupt, seg.name)
	}
	if seg.first+count != next {
		return 0, fmt.Errorf("%w: segment %s holds %d entries, so the next segment should start at %d, not %d",
			ErrCorrupt, seg.name, count, seg.first+count, next)
	}
	index := next - 1
	f, err := DecodeFrame(last)
	if err != nil {
		return 0, fmt.Errorf("%w: segment %s: last index %d: %w", ErrCorrupt, seg.name, index, err)
	}
	if f.Index != index {
		return 0, fmt.Errorf("%w: segment %s: last index %d: frame carries index %d", ErrCorrupt, seg.name, index, f.Index)
	}
	return f.CRC, nil
}

// cutTail saves data[c.goodEnd:] to a .broken file and truncates the segment
// to c.goodEnd. The order (broken file durable, then truncate, then fsync)
// makes a crash at any point safe: the next Open finds the same damage and
// redoes the same cut, overwriting the same .broken file with the same bytes.
func cutTail(dir string, seg segmentFile, data []byte, c segmentCheck, logf func(string, ...any)) (RepairReport, error) {
	cut := data[c.goodEnd:]
	broken, err := brokenPath(dir, seg.name, c.goodEnd, cut)
	if err != nil {
		return RepairReport{}, err
	}
	if err := writeFileSync(broken, cut); err != nil {
		return RepairReport{}, err
	}
	if err := syncDir(dir); err != nil {
		return RepairReport{}, err
	}
	f, err := os.OpenFile(seg.path, os.O_WRONLY, 0)
	if err != nil {
		return RepairReport{}, err
	}
	if err := f.Truncate(c.goodEnd); err != nil {
		f.Close()
		return RepairReport{}, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return RepairReport{}, fmt.Errorf("fsync %s: %w", seg.path, err)
	}
	if err := f.Close(); err != nil {
		return RepairReport{}, err
	}
	if err := syncDir(dir); err != nil {
		return RepairReport{}, err
	}
	rep := RepairReport{
		Segment:       seg.name,
		CutAtOffset:   c.goodEnd,
		CutBytes:      int64(len(cut)),
		BrokenFile:    broken,
		LastGoodIndex: seg.first + c.entries - 1,
	}
	logf("wal: repair: cut torn tail segment=%s offset=%d bytes=%d broken=%s last_good_index=%d reason=%q",
		rep.Segment, rep.CutAtOffset, rep.CutBytes, rep.BrokenFile, rep.LastGoodIndex, c.problem.Error())
	return rep, nil
}

// brokenPath names the file for bytes cut from segment at offset:
// <segment>.<offset>.broken, unless a file of that name holds other bytes
// (an earlier incident that tore at the same offset), which is never
// overwritten: then <segment>.<offset>.<n>.broken for the first free or
// identical n. Identical content is reused so that a repair redone after a
// crash does not pile up copies.
func brokenPath(dir, segment string, offset int64, cut []byte) (string, error) {
	const maxTries = 1000 // explicit bound; reaching it means something is very wrong
	for n := 1; n <= maxTries; n++ {
		name := fmt.Sprintf("%s.%d.broken", segment, offset)
		if n > 1 {
			name = fmt.Sprintf("%s.%d.%d.broken", segment, offset, n)
		}
		path := filepath.Join(dir, name)
		old, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) || (err == nil && bytes.Equal(old, cut)) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("more than %d .broken files for segment %s offset %d", maxTries, segment, offset)
}

// writeFileSync writes data to a new or truncated file and fsyncs it.
func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("fsync %s: %w", path, err)
	}
	return f.Close()
}
