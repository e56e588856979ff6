package torture

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// serveAs marks generation gen serving, as start does once it listens.
func serveAs(s *server, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen, s.serving = gen, gen
	close(s.up)
}

// TestAnswerLabels: an answer is pinned to a generation only when no kill
// began between the lease and the answer; a lease is never handed out for
// a generation already marked down.
func TestAnswerLabels(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := &server{up: make(chan struct{})}
	serveAs(s, 3)

	l, err := s.waitUp(ctx)
	require.NoError(t, err)
	require.Equal(t, 3, l.gen)
	require.Equal(t, 3, s.answeredBy(l), "no kill since the lease")

	s.markDown() // a kill begins after the request went out
	require.Equal(t, genUnknown, s.answeredBy(l), "the answer may be the next generation's")

	got := make(chan serveLease, 1)
	go func() {
		l, err := s.waitUp(ctx)
		if err == nil {
			got <- l
		}
	}()
	s.mu.Lock()
	s.gen = 4 // a generation spawned and killed during recovery: never served
	s.mu.Unlock()
	serveAs(s, 5)
	l5 := <-got
	require.Equal(t, 5, l5.gen, "the lease names the generation that serves, not the last spawned before the wait")
	require.Equal(t, 5, s.answeredBy(l5))
	require.Equal(t, genUnknown, s.answeredBy(l), "an old lease stays unpinned")
}
