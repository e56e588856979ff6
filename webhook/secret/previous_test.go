package secret

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireOpensUnder checks that s opens what key seals.
func requireOpensUnder(t *testing.T, s *Sealer, key []byte) {
	t.Helper()
	sealed, err := mustSealer(t, key).Seal([]byte("whsec_x"), []byte("wh_A"))
	require.NoError(t, err)
	got, err := s.Open(sealed, []byte("wh_A"))
	require.NoError(t, err)
	require.Equal(t, "whsec_x", string(got))
}

func TestLoadKeyringPreviousText(t *testing.T) {
	a, b := keyText(keyN(1)), keyText(keyN(2))
	nine := make([]string, MaxPreviousKeys+1)
	nineKeys := make([][]byte, MaxPreviousKeys+1)
	for i := range nine {
		nineKeys[i] = keyN(10 + i)
		nine[i] = keyText(nineKeys[i])
	}
	tests := []struct {
		name     string
		env      string // "": not tested through the env
		file     string // "": not tested through a file
		previous [][]byte
		envErr   string
		fileErr  string
	}{
		{name: "one", env: a, file: a + "\n", previous: [][]byte{keyN(1)}},
		{name: "two", env: a + "," + b, file: a + "\n" + b + "\n", previous: [][]byte{keyN(1), keyN(2)}},
		{name: "white space around", env: " " + a + " ,\t" + b + " ", file: "  " + a + "\t\r\n" + b, previous: [][]byte{keyN(1), keyN(2)}},
		{name: "comments and blank lines", file: "# replaced 2026-01-01\n\n   # indented comment\n" + a + "\r\n\n# next\n" + b + "\n\n", previous: [][]byte{keyN(1), keyN(2)}},
		{name: "nothing but comments", file: "# all resealed\n\n", previous: nil},
		{name: "empty file", file: "", previous: nil},
		{name: "exactly the bound", env: strings.Join(nine[:8], ","), file: strings.Join(nine[:8], "\n"), previous: nineKeys[:8]},
		{name: "too many", env: strings.Join(nine, ","), file: strings.Join(nine, "\n"),
			envErr: "more than 8 previous keys (key 9 is one too many)", fileErr: "more than 8 previous keys (line 9 is one too many)"},
		{name: "stray comma", env: a + ",," + b, envErr: "key 2 is empty"},
		{name: "trailing comma", env: a + ",", envErr: "key 2 is empty"},
		{name: "not base64", env: a + "," + strings.Repeat("!", 44), file: a + "\n" + strings.Repeat("!", 44),
			envErr: "key 2: key is not standard base64", fileErr: "line 2: key is not standard base64"},
		{name: "short key", env: keyText(keyN(1)[:16]), file: "#\n" + keyText(keyN(1)[:16]),
			envErr: "key 1: key decodes to 16 bytes", fileErr: "line 2: key decodes to 16 bytes"},
		{name: "space inside", env: a[:10] + " " + a[10:], file: a[:10] + " " + a[10:], envErr: "key 1: key text holds white space", fileErr: "line 1: key text holds white space"},
		{name: "comment after a key", file: a + " # old", fileErr: "line 1: key text holds white space"},
		{name: "repeated", env: a + "," + b + "," + a, file: a + "\n" + b + "\n" + a,
			envErr: "previous master key 3 (in the order listed) repeats previous master key 1", fileErr: "previous master key 3 (in the order listed) repeats previous master key 1"},
		{name: "the current key", env: b + "," + testKeyText(), file: b + "\n" + testKeyText(),
			envErr: "previous master key 2 (in the order listed) is the current master key", fileErr: "previous master key 2 (in the order listed) is the current master key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check := func(s *Sealer, err error, want, prefix string) {
				t.Helper()
				if want == "" {
					require.NoError(t, err)
					requireSameKey(t, s)
					if tc.previous != nil {
						require.Len(t, s.PreviousKeyIDs(), len(tc.previous))
					}
					for _, k := range tc.previous {
						requireOpensUnder(t, s, k)
					}
					return
				}
				require.ErrorContains(t, err, want)
				require.ErrorContains(t, err, prefix)
				require.NotErrorIs(t, err, ErrNoMasterKey)
				require.Nil(t, s)
				for _, k := range append(append([]string{}, nine...), a, b, testKeyText()) {
					require.NotContains(t, err.Error(), k, "an error must not quote a key")
				}
			}
			if tc.env != "" {
				s, err := LoadKeyring(testKeyText(), "", tc.env, "")
				check(s, err, tc.envErr, "secret: ")
				if tc.envErr != "" && !strings.Contains(tc.envErr, "previous master key") {
					require.ErrorContains(t, err, "secret: SVC_WEBHOOK_PREVIOUS_MASTER_KEYS: ")
				}
			}
			if tc.file != "" || tc.name == "empty file" {
				p := writeFile(t, tc.file, 0o600)
				s, err := LoadKeyring("", writeFile(t, testKeyText(), 0o600), "", p)
				check(s, err, tc.fileErr, "secret: ")
				if tc.fileErr != "" && !strings.Contains(tc.fileErr, "previous master key") {
					require.ErrorContains(t, err, "secret: previous master keys file "+p+": ")
				}
			}
		})
	}
}

func TestLoadKeyringSources(t *testing.T) {
	a := keyText(keyN(1))
	prevFile := writeFile(t, a+"\n", 0o600)
	curFile := writeFile(t, testKeyText()+"\n", 0o600)

	// Every combination of sources, one of each kind.
	for _, tc := range []struct{ curEnv, curFile, prevEnv, prevFile string }{
		{testKeyText(), "", a, ""},
		{testKeyText(), "", "", prevFile},
		{"", curFile, a, ""},
		{"", curFile, "", prevFile},
	} {
		s, err := LoadKeyring(tc.curEnv, tc.curFile, tc.prevEnv, tc.prevFile)
		require.NoError(t, err, "%+v", tc)
		requireSameKey(t, s)
		requireOpensUnder(t, s, keyN(1))
	}

	// No previous keys: LoadMasterKey's Sealer.
	s, err := LoadKeyring(testKeyText(), "", "", "")
	require.NoError(t, err)
	require.Empty(t, s.PreviousKeyIDs())
	requireSameKey(t, s)

	_, err = LoadKeyring("", "", "", "")
	require.ErrorIs(t, err, ErrNoMasterKey)

	_, err = LoadKeyring("", "", a, "")
	require.ErrorContains(t, err, "previous webhook master keys given without a current one")
	require.NotErrorIs(t, err, ErrNoMasterKey, "previous keys alone are a mistake, not 'not configured'")

	_, err = LoadKeyring(testKeyText(), "", a, prevFile)
	require.ErrorContains(t, err, "previous webhook master keys given both in SVC_WEBHOOK_PREVIOUS_MASTER_KEYS and in file "+prevFile+"; give only one")
	require.NotContains(t, err.Error(), a)

	_, err = LoadKeyring(testKeyText(), curFile, a, "")
	require.ErrorContains(t, err, "give only one", "the current key's own rule stands")

	// A bad previous key is reported even when the current one is fine
	// and vice versa.
	_, err = LoadKeyring("!", "", a, "")
	require.ErrorContains(t, err, "secret: SVC_WEBHOOK_MASTER_KEY: ")
}

func TestLoadKeyringPreviousFile(t *testing.T) {
	a := keyText(keyN(1))
	for _, mode := range []os.FileMode{0o644, 0o640, 0o400, 0o700, 0o600 | os.ModeSetgid} {
		t.Run(mode.String(), func(t *testing.T) {
			p := writeFile(t, a+"\n", mode)
			st, err := os.Stat(p)
			require.NoError(t, err)
			got := st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
			_, err = LoadKeyring(testKeyText(), "", "", p)
			if got == keyFileMode { // the file system dropped a special bit
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, "secret: previous master keys file "+p+" has mode "+fmt.Sprintf("%#o", octal(got)))
			require.ErrorContains(t, err, "want 0600 exactly")
		})
	}

	dir := t.TempDir()
	_, err := LoadKeyring(testKeyText(), "", "", filepath.Join(dir, "missing"))
	require.ErrorIs(t, err, os.ErrNotExist)
	require.ErrorContains(t, err, "previous master keys file")

	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o600))
	_, err = LoadKeyring(testKeyText(), "", "", filepath.Join(dir, "sub"))
	require.ErrorContains(t, err, "not a regular file")

	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(writeFile(t, a, 0o600), link))
	s, err := LoadKeyring(testKeyText(), "", "", link)
	require.NoError(t, err, "a symlink to a 0600 file is followed")
	requireOpensUnder(t, s, keyN(1))

	big := writeFile(t, a+"\n"+strings.Repeat("#\n", maxPreviousFileLen), 0o600)
	_, err = LoadKeyring(testKeyText(), "", "", big)
	require.ErrorContains(t, err, "larger than 16384 bytes")

	// A master key file made by GenerateMasterKeyFile is a valid previous
	// keys file of one key: an operator can move the old file over.
	old := filepath.Join(dir, "old.key")
	require.NoError(t, GenerateMasterKeyFile(old))
	s, err = LoadKeyring(testKeyText(), "", "", old)
	require.NoError(t, err)
	require.Len(t, s.PreviousKeyIDs(), 1)
	oldSealer, err := LoadMasterKey("", old)
	require.NoError(t, err)
	require.Equal(t, oldSealer.CurrentKeyID(), s.PreviousKeyIDs()[0])
}
