package secret

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireSameKey checks that s opens what a Sealer of testKey seals.
func requireSameKey(t *testing.T, s *Sealer) {
	t.Helper()
	sealed, err := mustSealer(t, testKey()).Seal([]byte("whsec_x"), []byte("wh_A"))
	require.NoError(t, err)
	got, err := s.Open(sealed, []byte("wh_A"))
	require.NoError(t, err)
	require.Equal(t, "whsec_x", string(got))
}

func TestLoadMasterKeyText(t *testing.T) {
	good := testKeyText()
	enc := base64.StdEncoding.EncodeToString
	tests := []struct {
		name string
		text string
		ok   bool
	}{
		{"plain", good, true},
		{"trailing newline", good + "\n", true},
		{"trailing CRLF", good + "\r\n", true},
		{"two newlines", good + "\n\n", false},
		{"leading space", " " + good, false},
		{"trailing space", good + " ", false},
		{"newline inside", good[:20] + "\n" + good[20:], false},
		{"not base64", strings.Repeat("!", 44), false},
		{"unpadded", strings.TrimRight(good, "="), false},
		{"url alphabet", base64.URLEncoding.EncodeToString([]byte(strings.Repeat("\xfb\xff", 16))), false},
		{"non-zero padding bits", good[:42] + "B=", false},
		{"31 bytes", enc(testKey()[:31]), false},
		{"33 bytes", enc(append(testKey(), 0)), false},
		{"16 bytes (AES-128)", enc(testKey()[:16]), false},
		{"hex instead", strings.Repeat("ab", 32), false},
		{"newline only", "\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fromEnv, envErr := LoadMasterKey(tc.text, "")
			fromFile, fileErr := LoadMasterKey("", writeFile(t, tc.text, 0o600))
			if tc.ok {
				require.NoError(t, envErr)
				require.NoError(t, fileErr)
				requireSameKey(t, fromEnv)
				requireSameKey(t, fromFile)
				return
			}
			require.ErrorContains(t, envErr, "secret: SVC_WEBHOOK_MASTER_KEY: ")
			require.ErrorContains(t, fileErr, "secret: master key file ")
			for _, err := range []error{envErr, fileErr} {
				require.NotErrorIs(t, err, ErrNoMasterKey)
				if trimmed := strings.TrimSpace(tc.text); len(trimmed) > 8 {
					require.NotContains(t, err.Error(), trimmed, "an error must not quote the key")
				}
			}
		})
	}
}

func TestLoadMasterKeyNone(t *testing.T) {
	s, err := LoadMasterKey("", "")
	require.ErrorIs(t, err, ErrNoMasterKey)
	require.Nil(t, s)
}

func TestLoadMasterKeyBoth(t *testing.T) {
	p := writeFile(t, testKeyText(), 0o600)
	// Refused even when the two agree: which one wins must never matter.
	_, err := LoadMasterKey(testKeyText(), p)
	require.ErrorContains(t, err, "give only one")
	require.ErrorContains(t, err, p)
	require.NotErrorIs(t, err, ErrNoMasterKey)
	require.NotContains(t, err.Error(), testKeyText())
}

func TestLoadMasterKeyFileMode(t *testing.T) {
	tests := []struct {
		mode os.FileMode
		ok   bool
		show string // in the error
	}{
		{0o600, true, ""},
		{0o644, false, "0644"},
		{0o640, false, "0640"},
		{0o604, false, "0604"},
		{0o660, false, "0660"},
		{0o700, false, "0700"},
		{0o400, false, "0400"},
		{0o666, false, "0666"},
		{0o600 | os.ModeSetuid, false, "04600"},
		{0o600 | os.ModeSetgid, false, "02600"},
		{0o600 | os.ModeSticky, false, "01600"},
	}
	for _, tc := range tests {
		t.Run(tc.mode.String(), func(t *testing.T) {
			p := writeFile(t, testKeyText()+"\n", tc.mode)
			st, err := os.Stat(p)
			require.NoError(t, err)
			ok, show := tc.ok, tc.show
			if got := st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky); got != tc.mode {
				// The file system did not keep every bit asked for (a
				// special bit dropped): judge the mode it stored.
				ok, show = got == keyFileMode, fmt.Sprintf("%#o", octal(got))
			}
			s, err := LoadMasterKey("", p)
			if ok {
				require.NoError(t, err)
				requireSameKey(t, s)
				return
			}
			require.Error(t, err)
			require.Nil(t, s)
			require.ErrorContains(t, err, p, "the message names the file")
			require.ErrorContains(t, err, show, "the message names the mode")
			require.ErrorContains(t, err, "want 0600")
		})
	}
}

func TestLoadMasterKeyFileKinds(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, testKeyText(), 0o600)
	link := filepath.Join(dir, "link.key")
	require.NoError(t, os.Symlink(target, link))
	s, err := LoadMasterKey("", link)
	require.NoError(t, err, "a symlink to a 0600 file is followed (mounted secrets are symlinks)")
	requireSameKey(t, s)

	subdir := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(subdir, 0o600))
	_, err = LoadMasterKey("", subdir)
	require.ErrorContains(t, err, "not a regular file")

	_, err = LoadMasterKey("", filepath.Join(dir, "missing.key"))
	require.ErrorIs(t, err, os.ErrNotExist)
	require.NotErrorIs(t, err, ErrNoMasterKey, "a named file that is missing is an error, not 'not configured'")

	big := writeFile(t, testKeyText()+strings.Repeat("\n", maxKeyFileLen), 0o600)
	_, err = LoadMasterKey("", big)
	require.ErrorContains(t, err, "larger than")

	empty := writeFile(t, "", 0o600)
	_, err = LoadMasterKey("", empty)
	require.ErrorContains(t, err, "decodes to 0 bytes")
	require.False(t, errors.Is(err, ErrNoMasterKey))
}
