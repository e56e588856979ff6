package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A MANIFEST write that fails on a full disk reaches Logger.Fatalf as
// Pebble formats it ("%s" of an error wrapping the path error, not %w): fatal gets it,
// with the path error reachable; anything else still panics.
func TestQuietLoggerFatalf(t *testing.T) {
	pe := &os.PathError{Op: "write", Path: "/d/state/MANIFEST-000001", Err: syscall.ENOSPC}
	var got []error
	l := quietLogger{fatal: func(err error) { got = append(got, err) }}
	require.Panics(t, func() { l.Fatalf("%s", fmt.Errorf("MANIFEST write failed: %w", pe)) }, "fatal returns only in tests")
	require.Len(t, got, 1)
	var back *fs.PathError
	require.True(t, errors.As(got[0], &back))
	require.Equal(t, pe.Path, back.Path)
	require.Contains(t, got[0].Error(), "pebble: MANIFEST write failed")

	got = nil
	require.PanicsWithValue(t, "pebble: mergingIter: lower bound violation: a < b", func() {
		l.Fatalf("mergingIter: lower bound violation: %s < %s", "a", "b")
	})
	require.Empty(t, got, "an invariant violation is not a storage failure")
	require.Panics(t, func() { quietLogger{}.Fatalf("%s", pe) }, "without fatal, a panic as before")
}

func TestBackgroundError(t *testing.T) {
	var got []error
	var lines bytes.Buffer
	bg := backgroundError(quietLogger{fatal: func(err error) { got = append(got, err) },
		log: slog.New(slog.NewJSONHandler(&lines, nil))})
	bg(fmt.Errorf("flush: %w", &os.PathError{Op: "write", Path: "/d/state/000004.sst", Err: syscall.ENOSPC}))
	require.Len(t, got, 1)
	require.ErrorIs(t, got[0], syscall.ENOSPC)
	require.Zero(t, lines.Len(), "a storage error is fatal's, not a log line")
	bg(errors.New("pebble: something else"))
	require.Len(t, got, 1, "other background errors are only logged")
	var line map[string]any
	require.NoError(t, json.Unmarshal(lines.Bytes(), &line), "one JSON line in the service's log: %s", lines.String())
	require.Equal(t, "ERROR", line["level"])
	require.Equal(t, "pebble: background error: pebble: something else", line["msg"])
}
