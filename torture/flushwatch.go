package torture

import "strings"

// The 5 s snapshot flush (actors' applier: Pebble Flush, then the log is
// truncated in front of the applied index) is observable from outside as
// a new sstable file in <data-dir>/state: Pebble writes it under its
// final name before it records it in the MANIFEST, and the log is
// truncated after that. A kill the moment the file appears lands inside
// the flush (or its truncation). A compaction also writes sstables; a
// kill then is inside Pebble's own background work, as wanted.

// sstWatch reports new sstable files of one directory.
type sstWatch interface {
	// Created delivers the name of every new *.sst file (dropping names
	// when the reader is behind: one is all a kill needs).
	Created() <-chan string
	Close() error
}

// maxSSTEvents bounds the names a watch holds for a slow reader.
const maxSSTEvents = 16

func isSST(name string) bool { return strings.HasSuffix(name, ".sst") }
