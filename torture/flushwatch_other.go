//go:build !linux

package torture

import (
	"os"
	"sync"
	"time"
)

// pollWatch is an sstWatch that lists the directory every few
// milliseconds (no inotify here): coarser, so a kill may land just after
// the flush instead of inside it.
type pollWatch struct {
	created chan string
	stop    chan struct{}
	once    sync.Once
}

const pollEvery = 5 * time.Millisecond

func watchSST(dir string) (sstWatch, error) {
	known := map[string]bool{}
	if err := listSST(dir, known); err != nil {
		return nil, err
	}
	w := &pollWatch{created: make(chan string, maxSSTEvents), stop: make(chan struct{})}
	go func() {
		t := time.NewTicker(pollEvery)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
				fresh := map[string]bool{}
				_ = listSST(dir, fresh)
				for name := range fresh {
					if !known[name] {
						known[name] = true
						select {
						case w.created <- name:
						default:
						}
					}
				}
			}
		}
	}()
	return w, nil
}

func listSST(dir string, into map[string]bool) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if isSST(e.Name()) {
			into[e.Name()] = true
		}
	}
	return nil
}

func (w *pollWatch) Created() <-chan string { return w.created }

func (w *pollWatch) Close() error {
	w.once.Do(func() { close(w.stop) })
	return nil
}
