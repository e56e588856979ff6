package wal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/faultinject"
)

func TestParseFaults(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		want    faultSpec
		wantErr string
	}{
		{name: "none", env: nil, want: faultSpec{}},
		{name: "other faults only", env: map[string]string{"chain-stall-file": "/tmp/x"}, want: faultSpec{}},
		{name: "write", env: map[string]string{FaultWriteENOSPC: "5"}, want: faultSpec{writeAfter: 5}},
		{name: "fsync enospc", env: map[string]string{FaultFsyncENOSPC: "3"}, want: faultSpec{syncAfter: 3, syncErr: syscall.ENOSPC}},
		{name: "fsync eio", env: map[string]string{FaultFsyncEIO: "7"}, want: faultSpec{syncAfter: 7, syncErr: syscall.EIO}},
		{name: "write and fsync", env: map[string]string{FaultWriteENOSPC: "9", FaultFsyncEIO: "2"},
			want: faultSpec{writeAfter: 9, syncAfter: 2, syncErr: syscall.EIO}},
		{name: "two fsync faults", env: map[string]string{FaultFsyncENOSPC: "1", FaultFsyncEIO: "2"}, wantErr: "at most one fsync fault"},
		{name: "zero", env: map[string]string{FaultWriteENOSPC: "0"}, wantErr: FaultWriteENOSPC},
		{name: "empty", env: map[string]string{FaultFsyncEIO: ""}, wantErr: FaultFsyncEIO},
		{name: "negative", env: map[string]string{FaultFsyncENOSPC: "-1"}, wantErr: FaultFsyncENOSPC},
		{name: "not a number", env: map[string]string{FaultWriteENOSPC: "ten"}, wantErr: FaultWriteENOSPC},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseFaults(func(name string) (string, bool) {
				v, ok := tc.env[name]
				return v, ok
			})
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// In a build without the faultinject tag no fault is ever read, whatever
// FXD_FAULTS says; with the tag (go test -tags faultinject) Open reads it
// (faultinject reads the variable once per process: no other test of
// this package reads it first).
func TestFaultsFromEnv(t *testing.T) {
	t.Setenv(faultinject.Env, FaultWriteENOSPC+"=12")
	s, err := faultsFromEnv()
	require.NoError(t, err)
	if faultinject.Enabled {
		require.Equal(t, faultSpec{writeAfter: 12}, s)
	} else {
		require.True(t, s.none(), "a normal build has no fault points: %+v", s)
	}
}

// faultCase is one injected fault as the table tests see it.
type faultCase struct {
	name  string
	spec  func(n uint64) faultSpec
	op    string
	errno syscall.Errno
}

var faultCases = []faultCase{
	{"write enospc", func(n uint64) faultSpec { return faultSpec{writeAfter: n} }, "write", syscall.ENOSPC},
	{"fsync enospc", func(n uint64) faultSpec { return faultSpec{syncAfter: n, syncErr: syscall.ENOSPC} }, "fdatasync", syscall.ENOSPC},
	{"fsync eio", func(n uint64) faultSpec { return faultSpec{syncAfter: n, syncErr: syscall.EIO} }, "fdatasync", syscall.EIO},
}

// fatalRecorder collects OnFatal's calls.
type fatalRecorder struct {
	mu   sync.Mutex
	errs []error
}

func (f *fatalRecorder) onFatal(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, err)
}

func (f *fatalRecorder) only(t *testing.T) error {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	require.Len(t, f.errs, 1, "OnFatal runs exactly once")
	return f.errs[0]
}

// requireFaultError: err is the injected failure, a *os.PathError with
// the operation and errno, naming a segment file of dir that exists.
func requireFaultError(t *testing.T, err error, fc faultCase, dir string) *os.PathError {
	t.Helper()
	require.ErrorIs(t, err, fc.errno)
	var pe *os.PathError
	require.True(t, errors.As(err, &pe), "not a path error: %v", err)
	require.Equal(t, fc.op, pe.Op)
	require.Equal(t, filepath.Clean(dir), filepath.Dir(pe.Path), "names a file of the log directory")
	require.Len(t, filepath.Base(pe.Path), segmentNameLen, "names a segment file: %s", pe.Path)
	_, statErr := os.Stat(pe.Path)
	require.NoError(t, statErr, "names a real file")
	return pe
}

// Appends one by one (one append per batch): the first N-1 since the
// fault was installed are durable, the N-th fails with the injected
// error, naming the file, and OnFatal sees that error once; a restart
// without the fault finds every acknowledged entry and chains on.
func TestInjectedFaultSequential(t *testing.T) {
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, Options{})
			appendN(t, l, 3) // appends before the Open that counts
			require.NoError(t, l.Close())

			var fatal fatalRecorder
			l, _, err := Open(dir, testOptions(t, Options{OnFatal: fatal.onFatal}))
			require.NoError(t, err)
			const n = 5
			l.injectFaults(fc.spec(n))
			appendN(t, l, n-1)
			_, err = l.Append(payloadFor(3 + n))
			require.ErrorIs(t, err, ErrFailed)
			requireFaultError(t, err, fc, dir)
			pe := requireFaultError(t, fatal.only(t), fc, dir)
			require.Equal(t, filepath.Join(dir, segmentName(1)), pe.Path, "the one segment")
			require.Equal(t, uint64(3+n-1), l.LastIndex(), "nothing from the failed batch on is durable")
			_, err = l.Append([]byte("after"))
			require.ErrorIs(t, err, ErrFailed)
			require.ErrorIs(t, l.Close(), ErrFailed)
			fatal.only(t)

			l, _, err = Open(dir, testOptions(t, Options{}))
			require.NoError(t, err)
			require.GreaterOrEqual(t, l.LastIndex(), uint64(3+n-1))
			for i := uint64(1); i <= 3+n-1; i++ {
				got, err := l.Read(i)
				require.NoError(t, err)
				require.Equal(t, payloadFor(i), got)
			}
			require.NoError(t, l.Scan(1, func(uint64, []byte) error { return nil }))
			appendN(t, l, 2)
			require.NoError(t, l.Close())
		})
	}
}

// With small segments, the failure names the tail segment the failed
// batch was written to, not the first file of the log.
func TestInjectedFaultNamesTailSegment(t *testing.T) {
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			dir := t.TempDir()
			var fatal fatalRecorder
			l, _, err := Open(dir, testOptions(t, Options{SegmentSize: 1024, OnFatal: fatal.onFatal}))
			require.NoError(t, err)
			const n = 40 // about 40 bytes an entry: a few segments before it
			l.injectFaults(fc.spec(n))
			appendN(t, l, n-1)
			_, err = l.Append(payloadFor(n))
			require.ErrorIs(t, err, ErrFailed)
			pe := requireFaultError(t, fatal.only(t), fc, dir)
			segs, err := listSegments(dir)
			require.NoError(t, err)
			require.Greater(t, len(segs), 1, "the test needs more than one segment")
			require.Equal(t, segs[len(segs)-1].path, pe.Path, "names the tail segment")
			require.LessOrEqual(t, segs[len(segs)-1].first, uint64(n+1), "which the failed batch reached")
			require.ErrorIs(t, l.Close(), ErrFailed)
		})
	}
}

// Under concurrent appends (group commit), the whole batch holding the
// N-th append fails: every append acknowledged lies before it, and
// nothing at or after N is ever acknowledged.
func TestInjectedFaultConcurrent(t *testing.T) {
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			dir := t.TempDir()
			var fatal fatalRecorder
			l, _, err := Open(dir, testOptions(t, Options{OnFatal: fatal.onFatal}))
			require.NoError(t, err)
			// Each appender appends until it fails: none can get past the
			// N-th append, so every one ends on the failure however the
			// scheduler runs them (a fixed count let early starters finish
			// before the fault under -race).
			const n, appenders = 150, 32
			l.injectFaults(fc.spec(n))
			var mu sync.Mutex
			var acked []uint64
			var failed []error
			var wg sync.WaitGroup
			for g := range appenders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range n + 1 {
						idx, err := l.Append(fmt.Appendf(nil, "g%d-%d", g, i))
						mu.Lock()
						if err != nil {
							failed = append(failed, err)
						} else {
							acked = append(acked, idx)
						}
						mu.Unlock()
						if err != nil {
							return
						}
					}
				}()
			}
			wg.Wait()
			require.Len(t, failed, appenders, "every appender ends on the failure")
			for _, err := range failed {
				require.ErrorIs(t, err, ErrFailed)
				require.ErrorIs(t, err, fc.errno)
			}
			requireFaultError(t, fatal.only(t), fc, dir)
			last := l.LastIndex()
			require.Less(t, last, uint64(n), "the N-th append is never acknowledged")
			require.Len(t, acked, int(last), "every durable entry was acknowledged once, nothing else")
			for _, idx := range acked {
				require.LessOrEqual(t, idx, last)
			}
			require.ErrorIs(t, l.Close(), ErrFailed)
		})
	}
}
