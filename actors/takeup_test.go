package actors

import (
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTakeUpsFollowOwnership: a desk's index of a part is loaded before
// the part's entities run, its records are resumed once they run (the
// parts taken up together in one call), a resume that fails is tried
// again, and a part given up is let go.
func TestTakeUpsFollowOwnership(t *testing.T) {
	c := handoverConfig(t, "engine_takeups")
	c.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := Open(c)
	require.NoError(t, err)
	defer e.Close()

	var mu sync.Mutex
	var indexed, letGo []int
	var resumed []map[int]bool
	runningAtIndex := false
	failNext := true
	f := e.FollowOwnership(TakeUp{Name: "test desk",
		Index: func(part int) {
			mu.Lock()
			defer mu.Unlock()
			indexed = append(indexed, part)
			runningAtIndex = runningAtIndex || e.OwnsPart(part)
		},
		LetGo: func(part int) { mu.Lock(); defer mu.Unlock(); letGo = append(letGo, part) },
		Resume: func(parts map[int]bool) error {
			mu.Lock()
			defer mu.Unlock()
			for p := range parts {
				if !e.OwnsPart(p) {
					t.Errorf("part %d resumed before it runs", p)
				}
			}
			if failNext {
				failNext = false
				return io.ErrUnexpectedEOF
			}
			resumed = append(resumed, parts)
			return nil
		}})
	require.NoError(t, e.Recover())
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); f.Run(stop) }()
	defer func() { close(stop); <-done }()

	require.NoError(t, e.Own(0))
	require.NoError(t, e.Own(1))
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, r := range resumed {
			n += len(r)
		}
		return n == 2
	}, 10*time.Second, time.Millisecond, "both parts resumed, after the failed round was tried again")
	e.Disown(1)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []int{0, 1}, indexed)
	require.False(t, runningAtIndex, "the index is loaded before the part's entities run")
	require.Equal(t, []int{1}, letGo)
	require.True(t, f.In(map[int]bool{0: true}, partIDs(t, e)[0]))
}

// partIDs makes an account in each owned part and returns their ids by
// part.
func partIDs(t *testing.T, e *Engine) map[int]string {
	out := map[int]string{}
	for range 50 {
		id := createAccount(t, e)
		out[e.PartOf(id)] = id
	}
	return out
}
