//go:build !linux

package bench

import "time"

// pacer waits for a slot's time; elsewhere than Linux with time.Sleep
// (see pace_linux.go for why Linux uses a timerfd).
type pacer struct{}

func newPacer() *pacer { return &pacer{} }

func (p *pacer) until(t time.Time) {
	if d := time.Until(t); d > 0 {
		time.Sleep(d)
	}
}

func (p *pacer) close() {}
