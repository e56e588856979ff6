package wal

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// fdatasync is fdatasync(2) on f, retried on EINTR (which means the call
// was interrupted before it did anything, not that it failed).
func fdatasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		for {
			if serr = syscall.Fdatasync(int(fd)); serr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: serr}
	}
	return nil
}

// AIO fsync (Options.Sync = SyncAIO).
//
// Linux AIO (io_submit with IOCB_CMD_FDSYNC, 4.18+) runs the same
// vfs_fsync in a kernel worker: the submission returns at once, and the
// fsync's CPU time is charged to the worker, not to this process. A reaper
// goroutine blocks in io_getevents for the completion and hands it to the
// writer on a channel. The durability contract is unchanged: the writer
// still learns the result (0 or -errno) before it publishes or acknowledges
// anything, and a failure is still fatal and never retried.
//
// This was the default while the writer was serial: it waited for the
// completion on an eventfd in the runtime's netpoller, parked without
// holding a thread (about 4 % more durable writes/s over HTTP than calling
// fdatasync on the writer itself; docs/DECISIONS.md). With the pipeline
// the writer no longer blocks on the fsync in either mode, and fdatasync
// on a goroutine of its own measured better (see syncer in fsync.go): the
// submission costs tens of µs on the writer, and a completion in the
// netpoller is seen only when both Ps run out of appenders to run, which
// is why the reaper blocks in the kernel instead.

// Kernel ABI (include/uapi/linux/aio_abi.h).
const iocbCmdFdsync = 3

// iocb is struct iocb on little-endian 64-bit Linux; the fields an fsync
// leaves zero are blank (aio_data, aio_key, aio_rw_flags; aio_reqprio;
// aio_buf, aio_nbytes, aio_offset, aio_reserved2).
type iocb struct {
	_      uint64
	_      uint32
	_      uint32
	opcode uint16
	_      int16
	fildes uint32
	_      uint64
	_      uint64
	_      int64
	_      uint64
	_      uint32 // aio_flags: no eventfd, the reaper waits in io_getevents
	_      uint32
}

// ioEvent is struct io_event; only res (0 or -errno) is read.
type ioEvent struct {
	_, _ uint64
	res  int64
	_    int64
}

// aioSyncer holds one AIO context with room for a single operation: the
// writer never has more than one sync in flight. start submits the
// fdatasync on the writer goroutine, so the device starts at once; a
// reaper goroutine blocks in io_getevents for the completion and hands
// it over on done.
type aioSyncer struct {
	ctx  uintptr
	arm  chan struct{} // one send per submitted sync; closed by close
	done chan error    // 1-buffered: the completed sync's result
	kc   chan struct{} // kicks, shared with the log's goSyncers
	name string        // file of the sync in flight, for errors
}

func newAIOSyncer(kick chan struct{}) (syncer, error) {
	if unsafe.Sizeof(iocb{}) != 64 || unsafe.Sizeof(ioEvent{}) != 32 {
		return nil, fmt.Errorf("aio: unexpected struct sizes on this platform")
	}
	var ctx uintptr
	if _, _, e := syscall.Syscall(syscall.SYS_IO_SETUP, 1, uintptr(unsafe.Pointer(&ctx)), 0); e != 0 {
		return nil, fmt.Errorf("io_setup: %w", e)
	}
	a := &aioSyncer{ctx: ctx, arm: make(chan struct{}, 1), done: make(chan error, 1), kc: kick}
	go a.reaper()
	return a, nil
}

func (a *aioSyncer) mode() string { return "aio" }

// start submits an fdatasync of f. If the kernel refuses the submission
// (nothing was started), it syncs with fdatasync(2) instead and wait
// returns that result; a sync that ran and failed is returned as is.
func (a *aioSyncer) start(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var submitErr syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		cb := iocb{opcode: iocbCmdFdsync, fildes: uint32(fd)}
		cbs := [1]*iocb{&cb}
		// The kernel copies the iocb during io_submit and takes its own
		// reference to the file, so neither needs to outlive the call.
		for {
			_, _, submitErr = syscall.Syscall(syscall.SYS_IO_SUBMIT, a.ctx, 1, uintptr(unsafe.Pointer(&cbs[0])))
			if submitErr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	a.name = f.Name()
	if submitErr != 0 {
		a.done <- fdatasync(f)
		return nil
	}
	a.arm <- struct{}{}
	return nil
}

// reaper collects each submitted sync's completion. It blocks in the
// kernel, holding a thread but no P once the runtime's monitor takes it
// back, and wakes as soon as the fsync completes: waiting in the netpoller
// instead (on an eventfd) left the completion unseen until both Ps ran out
// of appenders to run, often 100 µs or more under load.
func (a *aioSyncer) reaper() {
	for range a.arm {
		a.done <- a.reap()
	}
}

// reap waits for the one completion.
func (a *aioSyncer) reap() error {
	var ev ioEvent
	for {
		got, _, e := syscall.Syscall6(syscall.SYS_IO_GETEVENTS, a.ctx, 1, 1, uintptr(unsafe.Pointer(&ev)), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return fmt.Errorf("aio: io_getevents: %w", e)
		}
		if got != 1 {
			return fmt.Errorf("aio: io_getevents returned %d events, want 1", got)
		}
		break
	}
	if ev.res < 0 {
		return &os.PathError{Op: "fdatasync (aio)", Path: a.name, Err: syscall.Errno(-ev.res)}
	}
	return nil
}

// wait waits for the completion or a kick.
func (a *aioSyncer) wait() (bool, error) {
	select {
	case err := <-a.done:
		return true, err
	case <-a.kc:
		return false, nil
	}
}

// close stops the reaper and destroys the context; nothing is in flight
// (the writer collected every sync it started).
func (a *aioSyncer) close() error {
	close(a.arm)
	if _, _, e := syscall.Syscall(syscall.SYS_IO_DESTROY, a.ctx, 0, 0); e != 0 {
		return fmt.Errorf("io_destroy: %w", e)
	}
	return nil
}
