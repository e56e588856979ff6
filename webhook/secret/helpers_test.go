package secret

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// testKey is a fixed master key: 32 bytes 0x00..0x1f.
func testKey() []byte {
	k := make([]byte, KeyLen)
	for i := range k {
		k[i] = byte(i)
	}
	return k
}

// testKeyText is testKey as LoadMasterKey reads it.
func testKeyText() string { return base64.StdEncoding.EncodeToString(testKey()) }

func mustSealer(t *testing.T, key []byte) *Sealer {
	t.Helper()
	s, err := NewSealer(bytes.Clone(key))
	require.NoError(t, err)
	return s
}

// writeFile writes a key file with exactly mode (Chmod, so the umask does
// not interfere).
func writeFile(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "master.key")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	require.NoError(t, os.Chmod(p, mode))
	return p
}
