package wal

import (
	"fmt"
	"os"
)

// ScanDir calls fn for every record of the log in dir, in index order,
// read-only and without taking the log's lock, so operators can dump a log
// that a running service is writing. Every frame is checked (decode, index,
// chain) as Verify does; the first problem ends the scan with an error that
// names the index. A torn tail of a live log shows up as such an error
// after the last complete record.
func ScanDir(dir string, fn func(index uint64, payload []byte) error) error {
	segs, err := listSegments(dir)
	if err != nil {
		return fmt.Errorf("wal: scan %s: %w", dir, err)
	}
	var prevCRC uint32
	chained := false
	next := uint64(0)
	for _, s := range segs {
		if chained && s.first != next {
			return fmt.Errorf("wal: scan %s: segment %s starts at index %d, expected %d", dir, s.name, s.first, next)
		}
		data, err := os.ReadFile(s.path)
		if err != nil {
			return fmt.Errorf("wal: scan %s: %w", dir, err)
		}
		index := s.first
		for off := 0; off < len(data); index++ {
			f, n, _, err := nextFrame(data, off, index, prevCRC, chained)
			if err != nil {
				return fmt.Errorf("wal: scan segment %s: %w", s.name, err)
			}
			if err := fn(index, f.Payload); err != nil {
				return err
			}
			prevCRC, chained = f.CRC, true
			off += n
		}
		next = index
	}
	return nil
}
