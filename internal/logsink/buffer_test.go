package logsink

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Concurrent writers and a reader: every write lands whole (run with -race).
func TestBufferConcurrent(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				_, _ = b.Write([]byte("line\n"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	require.Equal(t, strings.Repeat("line\n", 800), b.String())
}
