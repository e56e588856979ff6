package torture

import (
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestVMRSSOfThisProcess: our own VmRSS is read, in bytes, and is at
// least the heap we hold.
func TestVMRSSOfThisProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmRSS is Linux's")
	}
	hold := make([]byte, 32<<20)
	for i := range hold {
		hold[i] = byte(i)
	}
	rss, err := vmRSS(os.Getpid())
	require.NoError(t, err)
	require.Greater(t, rss, uint64(len(hold)))
	runtime.KeepAlive(hold)
	_, err = vmRSS(-1)
	require.Error(t, err)
}
