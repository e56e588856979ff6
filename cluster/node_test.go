package cluster

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A node opens no stream before its JetStream follows a meta leader: the
// wait ends at the first poll that finds one, and a node that never finds
// one says what it waited for.
func TestAwaitMetaLeader(t *testing.T) {
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	for _, tc := range []struct {
		name         string
		currentAfter int // polls until current; -1 never
		want         string
	}{
		{"current at once", 0, ""},
		{"current after three polls", 3, ""},
		{"never current", -1, "cluster: no JetStream meta leader after 300ms: a new cluster elects one once every node of --peers is up"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			polls := 0
			current := func() bool {
				polls++
				return tc.currentAfter >= 0 && polls > tc.currentAfter
			}
			err := awaitMetaLeader(current, 300*time.Millisecond, quiet)
			if tc.want == "" {
				require.NoError(t, err)
				require.Equal(t, tc.currentAfter+1, polls)
				return
			}
			require.ErrorContains(t, err, tc.want)
			require.Greater(t, polls, 1)
		})
	}
}
