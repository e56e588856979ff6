package secret

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGenerateMasterKeyFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "master.key")
	require.NoError(t, GenerateMasterKeyFile(p))

	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), st.Mode())
	text, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Len(t, text, 45, "44 base64 characters and a newline")
	require.Equal(t, byte('\n'), text[44])

	s, err := LoadMasterKey("", p)
	require.NoError(t, err)
	sealed, err := s.Seal([]byte("whsec_x"), []byte("wh_A"))
	require.NoError(t, err)

	// Never overwritten: a new key would strand every value sealed under
	// the old one.
	err = GenerateMasterKeyFile(p)
	require.ErrorIs(t, err, fs.ErrExist)
	again, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, text, again)
	s, err = LoadMasterKey("", p)
	require.NoError(t, err)
	got, err := s.Open(sealed, []byte("wh_A"))
	require.NoError(t, err)
	require.Equal(t, "whsec_x", string(got))

	// A symlink, even a dangling one, is not replaced either.
	link := filepath.Join(dir, "link.key")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), link))
	require.ErrorIs(t, GenerateMasterKeyFile(link), fs.ErrExist)
	_, err = os.Lstat(filepath.Join(dir, "nowhere"))
	require.ErrorIs(t, err, fs.ErrNotExist)

	// Each file holds a new key.
	q := filepath.Join(dir, "other.key")
	require.NoError(t, GenerateMasterKeyFile(q))
	other, err := os.ReadFile(q)
	require.NoError(t, err)
	require.NotEqual(t, text, other)

	require.Error(t, GenerateMasterKeyFile(filepath.Join(dir, "missing", "master.key")))
}
