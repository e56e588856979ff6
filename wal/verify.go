package wal

import (
	"fmt"
	"os"
)

// VerifyReport is the result of Verify.
type VerifyReport struct {
	FirstIndex uint64 // first index of the first segment
	LastIndex  uint64 // last index of the valid prefix (FirstIndex-1 if none)
	Records    uint64 // valid records before the first problem
	Bytes      int64  // total size of all segment files
	Segments   int    // number of segment files
	// Problem describes the first problem found, "" if none. Verify stops
	// checking records there.
	Problem      string
	ProblemIndex uint64 // index of the entry (or missing entry) at Problem
	// TailTorn says the problem is a torn tail that Open would cut (see
	// RepairReport) rather than refuse.
	TailTorn bool
}

// Verify checks every segment of the log in dir, read-only: every frame
// decodes and carries its index, every frame chains to the one before it
// (across segments too), and segment names follow each other without gaps.
// It never modifies files. The error is for failing to read; what is wrong
// with the log is in the report. Run against a log that is being written,
// it may report the last batch as a torn tail.
func Verify(dir string) (VerifyReport, error) {
	var rep VerifyReport
	segs, err := listSegments(dir)
	if err != nil {
		return rep, fmt.Errorf("wal: verify %s: %w", dir, err)
	}
	rep.Segments = len(segs)
	if len(segs) == 0 {
		return rep, nil
	}
	rep.FirstIndex = segs[0].first
	rep.LastIndex = segs[0].first - 1
	next := segs[0].first // index the next segment must start at
	var prevCRC uint32
	chained := false
	problemSeg := -1
	sizes := make([]int64, len(segs))
	for i, s := range segs {
		data, err := os.ReadFile(s.path)
		if err != nil {
			return rep, fmt.Errorf("wal: verify %s: %w", dir, err)
		}
		sizes[i] = int64(len(data))
		rep.Bytes += int64(len(data))
		if problemSeg >= 0 {
			continue // keep counting bytes only
		}
		if s.first != next {
			rep.Problem = fmt.Sprintf("segment %s starts at index %d, expected %d", s.name, s.first, next)
			rep.ProblemIndex = next
			problemSeg = i
			continue
		}
		c := checkSegment(data, s.first, prevCRC, chained)
		rep.Records += c.entries
		next = s.first + c.entries
		if c.entries > 0 {
			rep.LastIndex = next - 1
			prevCRC, chained = c.lastCRC, true
		}
		if c.problem != nil {
			rep.Problem = fmt.Sprintf("segment %s: %v", s.name, c.problem)
			rep.ProblemIndex = c.badIndex
			rep.TailTorn = c.torn
			problemSeg = i
		}
	}
	// Open cuts a torn segment only when it is the tail, after removing any
	// empty segments that follow it.
	if problemSeg >= 0 {
		for _, size := range sizes[problemSeg+1:] {
			if size != 0 {
				rep.TailTorn = false
			}
		}
	}
	return rep, nil
}
