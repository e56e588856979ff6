//go:build linux

package bench

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// pacer waits for a slot's time with a timerfd in the runtime's poller:
// the wait holds no P and wakes within tens of microseconds. time.Sleep
// is up to ~1 ms late here, as the runtime rounds an idle wait to whole
// milliseconds (epoll_wait's timeout), which would show as latency in an
// open-loop load measured from the scheduled time.
type pacer struct {
	fd  int
	f   *os.File // the poller's handle on fd; never call f.Fd() (it makes fd blocking)
	buf [8]byte
}

func newPacer() *pacer {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return &pacer{fd: -1}
	}
	return &pacer{fd: fd, f: os.NewFile(uintptr(fd), "timerfd")}
}

// until returns at t (at once if t has passed).
func (p *pacer) until(t time.Time) {
	d := time.Until(t)
	if d <= 0 {
		return
	}
	if p.f == nil {
		time.Sleep(d)
		return
	}
	var now unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &now) != nil {
		time.Sleep(d)
		return
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(now.Nano() + int64(d))}
	if unix.TimerfdSettime(p.fd, unix.TFD_TIMER_ABSTIME, &spec, nil) != nil {
		time.Sleep(d)
		return
	}
	if _, err := p.f.Read(p.buf[:]); err != nil {
		time.Sleep(time.Until(t))
	}
}

func (p *pacer) close() {
	if p.f != nil {
		_ = p.f.Close()
	}
}
