package main

import (
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

type sleeper interface{ until(t time.Time) }

type goSleep struct{}

func (goSleep) until(t time.Time) {
	if d := time.Until(t); d > 0 {
		time.Sleep(d)
	}
}

type tfd struct {
	f   *os.File
	buf [8]byte
}

var mono0 = time.Now()
var mono0ts unix.Timespec

func newTfd() *tfd {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		panic(err)
	}
	return &tfd{f: os.NewFile(uintptr(fd), "timerfd")}
}

func (s *tfd) until(t time.Time) {
	d := time.Until(t)
	if d <= 0 {
		return
	}
	var now unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &now)
	abs := unix.NsecToTimespec(now.Nano() + int64(d))
	spec := unix.ItimerSpec{Value: abs}
	rc, _ := s.f.SyscallConn()
	if err := unix.TimerfdSettime(int(s.f.Fd()), unix.TFD_TIMER_ABSTIME, &spec, nil); err != nil {
		panic(err)
	}
	_ = rc
	if _, err := s.f.Read(s.buf[:]); err != nil {
		panic(err)
	}
}

type nano struct{}

func (nano) until(t time.Time) {
	if d := time.Until(t); d > 0 {
		ts := unix.NsecToTimespec(int64(d))
		unix.Nanosleep(&ts, nil)
	}
}

func run(name string, mk func() sleeper, rate float64, n int, workers int) {
	var next atomic.Int64
	start := time.Now().Add(20 * time.Millisecond)
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		s := mk()
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				due := start.Add(time.Duration(float64(i) * float64(time.Second) / rate))
				s.until(due)
				lat[i] = time.Since(due)
			}
		}()
	}
	wg.Wait()
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	q := func(p float64) time.Duration { return lat[int(p*float64(n-1))] }
	fmt.Printf("%-8s p50 %v p99 %v p99.9 %v max %v\n", name, q(.5), q(.99), q(.999), lat[n-1])
}

func main() {
	for range 2 {
		run("gosleep", func() sleeper { return goSleep{} }, 1000, 8000, 64)
		run("timerfd", func() sleeper { return newTfd() }, 1000, 8000, 64)
		run("nano", func() sleeper { return nano{} }, 1000, 8000, 64)
	}
}
