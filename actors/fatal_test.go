package actors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// recordedExit is a fatalExit logging to a buffer and recording its exit
// codes instead of exiting.
func recordedExit() (*fatalExit, *bytes.Buffer, *[]int) {
	var buf bytes.Buffer
	var codes []int
	f := &fatalExit{logger: slog.New(slog.NewJSONHandler(&buf, nil)), exit: func(c int) { codes = append(codes, c) }}
	return f, &buf, &codes
}

// jsonLines decodes every line of buf.
func jsonLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		if line == "" {
			continue
		}
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &v), "line %q", line)
		out = append(out, v)
	}
	return out
}

func TestStorageFailureLine(t *testing.T) {
	cwd, err := os.Getwd()
	require.NoError(t, err)
	seg := "/data/wal/00000000000000000001"
	for _, tc := range []struct {
		name string
		err  error
		want map[string]any // fields besides level, msg, time and err
	}{
		{"log write, wrapped as the log wraps it",
			fmt.Errorf("write indexes 7..9: %w", &os.PathError{Op: "write", Path: seg, Err: syscall.ENOSPC}),
			map[string]any{"cause": "no space left on device", "op": "write", "file": seg}},
		{"log fdatasync",
			fmt.Errorf("fsync indexes 7..9: %w", &fs.PathError{Op: "fdatasync", Path: seg, Err: syscall.EIO}),
			map[string]any{"cause": "input/output error", "op": "fdatasync", "file": seg}},
		{"relative path made absolute",
			&os.PathError{Op: "open", Path: "data/state/000004.sst", Err: syscall.ENOSPC},
			map[string]any{"cause": "no space left on device", "op": "open", "file": filepath.Join(cwd, "data/state/000004.sst")}},
		{"syscall error",
			fmt.Errorf("store: %w", os.NewSyscallError("fallocate", syscall.ENOSPC)),
			map[string]any{"cause": "no space left on device", "op": "fallocate"}},
		{"bare errno", fmt.Errorf("snapshot: flush: %w", syscall.EDQUOT),
			map[string]any{"cause": "disk quota exceeded"}},
		{"no os error", errors.New("actors: log index 5: bad record"),
			map[string]any{"cause": "actors: log index 5: bad record"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, buf, codes := recordedExit()
			f.fail(tc.err)
			lines := jsonLines(t, buf)
			require.Len(t, lines, 1)
			line := lines[0]
			require.Equal(t, "ERROR", line["level"])
			require.Equal(t, msgStorageFailure, line["msg"])
			require.Equal(t, tc.err.Error(), line["err"])
			for _, k := range []string{"time", "level", "msg", "err"} {
				delete(line, k)
			}
			require.Equal(t, tc.want, line)
			require.Equal(t, []int{exitStorage}, *codes)
		})
	}
}

// Pebble's own file errors come through its vfs (the os package's, with
// cockroachdb/errors wrapping on top): the line still finds the path.
func TestStorageFailureLinePebbleError(t *testing.T) {
	dir := t.TempDir()
	_, err := vfs.Default.Open(filepath.Join(dir, "missing.sst"))
	require.Error(t, err)
	f, buf, _ := recordedExit()
	f.fail(fmt.Errorf("snapshot: load acct_x: %w", err))
	line := jsonLines(t, buf)[0]
	require.Equal(t, "open", line["op"])
	require.Equal(t, filepath.Join(dir, "missing.sst"), line["file"])
	require.Equal(t, "no such file or directory", line["cause"])
}

// Failures racing each other (the log writer and the applier on one full
// disk) make one line and one exit; the others wait for that exit.
func TestStorageFailureOnce(t *testing.T) {
	f, buf, codes := recordedExit()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.fail(fmt.Errorf("failure %d: %w", i, syscall.ENOSPC))
		}()
	}
	wg.Wait()
	require.Len(t, jsonLines(t, buf), 1)
	require.Equal(t, []int{exitStorage}, *codes)
}

// The log's own "wal: fatal" line is dropped (OnFatal's is the line);
// its other notable events reach the service's log at WARN.
func TestWALLogf(t *testing.T) {
	var buf bytes.Buffer
	logf := walLogf(slog.New(slog.NewJSONHandler(&buf, nil)))
	logf("wal: fatal dir=%s err=%q", "/d/wal", "write: no space left on device")
	logf("wal: truncated front index=%d removed_segments=%d first_index=%d", 10, 1, 11)
	lines := jsonLines(t, &buf)
	require.Len(t, lines, 1)
	require.Equal(t, "WARN", lines[0]["level"])
	require.Equal(t, "wal: truncated front index=10 removed_segments=1 first_index=11", lines[0]["msg"])
}
