package wal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// This file knows tidwall/wal v1.2.1's on-disk layout, which repair and
// Verify must read without tidwall (tidwall refuses to open a torn tail):
//
//   - a segment file is named by its first index as 20 decimal digits, and
//     holds consecutive entries starting at that index;
//   - a binary entry is uvarint(len(data)) followed by data (our frame);
//   - tidwall's own truncation leaves *.START / *.END files, which this
//     package never creates (see Log.TruncateFront), so seeing one means
//     someone else touched the directory.

// segmentNameLen is the length of a segment file name.
const segmentNameLen = 20

// maxEntrySize bounds the data of one tidwall entry: a frame with the largest
// payload. A longer length prefix cannot be ours.
const maxEntrySize = HeaderSize + MaxPayload

// segmentFile is one segment file of a log directory.
type segmentFile struct {
	name  string // 20-digit file name
	path  string
	first uint64 // index of the segment's first entry
}

// segmentName returns the file name of the segment whose first index is i,
// as tidwall names it.
func segmentName(i uint64) string {
	return fmt.Sprintf("%020d", i)
}

// listSegments returns the segment files of dir in index order, choosing
// exactly the files tidwall's load would. It fails if tidwall truncation
// leftovers are present.
func listSegments(dir string) ([]segmentFile, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var segs []segmentFile
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || len(name) < segmentNameLen {
			continue
		}
		first, err := strconv.ParseUint(name[:segmentNameLen], 10, 64)
		if err != nil || first == 0 {
			continue
		}
		if strings.HasSuffix(name, ".START") || strings.HasSuffix(name, ".END") {
			return nil, fmt.Errorf("unexpected tidwall truncation file %s (this package never creates one)", name)
		}
		if len(name) != segmentNameLen {
			continue // ours (.broken) or foreign; tidwall ignores it too
		}
		segs = append(segs, segmentFile{name: name, path: filepath.Join(dir, name), first: first})
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].first < segs[j].first })
	return segs, nil
}

// errEntry reports a tidwall entry whose length prefix is unusable.
var errEntry = errors.New("bad entry length prefix")

// nextEntry parses the tidwall binary entry at the start of b and returns its
// data and total size (prefix included).
func nextEntry(b []byte) (data []byte, n int, err error) {
	size, k := binary.Uvarint(b)
	switch {
	case k == 0:
		return nil, 0, fmt.Errorf("%w: %w: uvarint cut off", ErrShort, errEntry)
	case k < 0:
		return nil, 0, fmt.Errorf("%w: uvarint overflows", errEntry)
	case size > maxEntrySize:
		return nil, 0, fmt.Errorf("%w: length %d exceeds %d", errEntry, size, maxEntrySize)
	case size > uint64(len(b)-k):
		return nil, 0, fmt.Errorf("%w: entry of %d bytes, only %d left in file", ErrShort, size, len(b)-k)
	}
	return b[k : k+int(size)], k + int(size), nil
}

// entrySize is the on-disk size of a tidwall entry holding dataLen bytes.
func entrySize(dataLen int) int {
	var tmp [binary.MaxVarintLen64]byte
	return binary.PutUvarint(tmp[:], uint64(dataLen)) + dataLen
}

// segmentCheck is the result of walking one segment file.
type segmentCheck struct {
	entries  uint64 // valid, chained entries before the first problem
	goodEnd  int64  // byte offset just past the last valid entry
	lastCRC  uint32 // crc of the last valid frame; meaningful if entries > 0
	problem  error  // first problem; nil if the whole file is valid
	badIndex uint64 // index the problem entry has or should have
	badOff   int64  // byte offset of the problem entry
	// torn: the problem entry does not decode (torn write, zero fill, bit
	// flip) and no valid frame follows it anywhere in the file, so cutting
	// at goodEnd loses nothing that was ever intact after the damage.
	torn bool
}

// nextFrame reads the stored entry at data[off:] as the frame of index and
// checks it: it decodes, carries index, and chains to prevCRC when chained
// (index 1 always has prevCRC 0). Every reader of segment files checks
// frames with it (checkSegment, ScanDir, CopyRange). undecodable says the
// entry did not decode at all, which is what a torn write looks like; a
// frame that decodes in the wrong place is misplaced data.
func nextFrame(data []byte, off int, index uint64, prevCRC uint32, chained bool) (f Frame, n int, undecodable bool, err error) {
	entry, n, err := nextEntry(data[off:])
	if err == nil {
		f, err = DecodeFrame(entry)
	}
	switch {
	case err != nil:
		return f, 0, true, fmt.Errorf("index %d at offset %d: %w", index, off, err)
	case f.Index != index:
		return f, 0, false, fmt.Errorf("index %d at offset %d: frame carries index %d", index, off, f.Index)
	case index == 1 && f.PrevCRC != 0:
		return f, 0, false, fmt.Errorf("index 1 at offset %d: first frame has prevCRC %#08x, want 0", off, f.PrevCRC)
	case chained && f.PrevCRC != prevCRC:
		return f, 0, false, fmt.Errorf("index %d at offset %d: chain broken: prevCRC %#08x, previous frame crc %#08x", index, off, f.PrevCRC, prevCRC)
	}
	return f, n, false, nil
}

// checkSegment walks data, the contents of the segment whose first index is
// first, and verifies every frame: it decodes, carries the expected index,
// and chains to the previous one. chained says whether prevCRC (the crc of
// the frame before this segment) is known; without it only the rule that
// index 1 has prevCRC 0 applies to the first frame.
//
// A frame that decodes but has the wrong index or breaks the chain is never
// torn: a crash cannot produce a checksum-valid frame in the wrong place, so
// that is misplaced data and a person must look at it.
func checkSegment(data []byte, first uint64, prevCRC uint32, chained bool) segmentCheck {
	var c segmentCheck
	off := 0
	for index := first; off < len(data); index++ {
		c.badIndex, c.badOff = index, int64(off)
		f, n, undecodable, err := nextFrame(data, off, index, prevCRC, chained)
		if err != nil {
			c.problem = err
			c.torn = undecodable && findValidFrame(data[off:]) < 0
			return c
		}
		prevCRC, chained = f.CRC, true
		off += n
		c.entries++
		c.goodEnd = int64(off)
		c.lastCRC = f.CRC
	}
	c.badIndex, c.badOff = 0, 0
	return c
}

// findValidFrame returns the offset of the first checksum-valid frame that
// starts anywhere in b, or -1. It looks for the magic at every offset, so it
// also finds a frame whose tidwall length prefix was damaged. The cost is one
// CRC per magic match; 0xF7 never occurs in UTF-8 text, so matches inside
// ordinary payloads are rare.
func findValidFrame(b []byte) int {
	magic := []byte{magic0, magic1}
	for i := 0; ; i++ {
		j := bytes.Index(b[i:], magic)
		if j < 0 {
			return -1
		}
		i += j
		if size, ok := frameSizeAt(b[i:]); ok && size <= len(b)-i {
			if _, err := DecodeFrame(b[i : i+size]); err == nil {
				return i
			}
		}
	}
}

// lastEntry walks the tidwall entries of data and returns how many there are
// and the data of the last one, without decoding frames.
func lastEntry(data []byte) (count uint64, last []byte, err error) {
	for off := 0; off < len(data); count++ {
		entry, n, err := nextEntry(data[off:])
		if err != nil {
			return count, nil, fmt.Errorf("entry %d at offset %d: %w", count, off, err)
		}
		last = entry
		off += n
	}
	return count, last, nil
}

// syncDir fsyncs a directory so that file creations, renames and removals in
// it survive a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	if err := d.Sync(); err != nil {
		d.Close()
		return fmt.Errorf("fsync dir %s: %w", dir, err)
	}
	return d.Close()
}
