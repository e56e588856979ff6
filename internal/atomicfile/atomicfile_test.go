package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteReplacesAndKeepsMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	require.NoError(t, Write(p, []byte("one"), 0o600))
	require.NoError(t, Write(p, []byte("two"), 0o600))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "two", string(b))
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	_, err = os.Stat(p + ".tmp")
	require.True(t, os.IsNotExist(err), "no temp file is left behind")
	require.Error(t, Write(filepath.Join(t.TempDir(), "missing", "f"), nil, 0o600))
}
