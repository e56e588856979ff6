package loglevel

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFloor: a library's lines pass at the floor (warn) and above, and
// only when the service's handler admits them too (--log-level error drops
// warns); attributes added later keep the floor.
func TestFloor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler slog.Level
		record  slog.Level
		want    bool
	}{
		{"info dropped under an info handler", slog.LevelInfo, slog.LevelInfo, false},
		{"warn kept under an info handler", slog.LevelInfo, slog.LevelWarn, true},
		{"warn dropped under an error handler", slog.LevelError, slog.LevelWarn, false},
		{"error kept under an error handler", slog.LevelError, slog.LevelError, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := Floor(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: tc.handler}), slog.LevelWarn)
			l := slog.New(h.WithAttrs([]slog.Attr{slog.String("lib", "protoactor")}))
			l.Log(context.Background(), tc.record, "m")
			require.Equal(t, tc.want, buf.Len() > 0, buf.String())
			if tc.want {
				require.Contains(t, buf.String(), `"lib":"protoactor"`)
			}
		})
	}
}
