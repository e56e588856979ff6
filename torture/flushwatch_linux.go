//go:build linux

package torture

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// inotifyWatch is an sstWatch on Linux's inotify: the event reaches us
// while Pebble is still writing the file.
type inotifyWatch struct {
	f       *os.File
	created chan string
	once    sync.Once
	done    chan struct{}
}

// watchSST watches dir for new sstable files.
func watchSST(dir string) (sstWatch, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("torture: inotify: %w", err)
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_MOVED_TO); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("torture: inotify watch %s: %w", dir, err)
	}
	// Non-blocking, so the runtime poller reads it and Close ends a read.
	w := &inotifyWatch{f: os.NewFile(uintptr(fd), "inotify"), created: make(chan string, maxSSTEvents), done: make(chan struct{})}
	go w.read()
	return w, nil
}

func (w *inotifyWatch) Created() <-chan string { return w.created }

func (w *inotifyWatch) Close() error {
	var err error
	w.once.Do(func() {
		err = w.f.Close()
		<-w.done
	})
	return err
}

// read parses inotify events until the file is closed.
func (w *inotifyWatch) read() {
	defer close(w.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nameStart := off + unix.SizeofInotifyEvent
			nameEnd := min(n, nameStart+int(ev.Len))
			name := string(bytes.TrimRight(buf[nameStart:nameEnd], "\x00"))
			off = nameEnd
			if isSST(name) {
				select {
				case w.created <- name:
				default:
				}
			}
		}
	}
}
