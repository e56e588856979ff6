package secret

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// MasterKeyEnv is the environment variable that may hold the current
// master key as base64 text (CONTRACT.md).
const MasterKeyEnv = "SVC_WEBHOOK_MASTER_KEY"

// ErrNoMasterKey: neither the environment nor a file gave a master key. It
// is not fatal: the service runs, and its webhook routes answer 503
// webhook_encryption_unavailable.
var ErrNoMasterKey = errors.New("secret: no webhook master key configured (SVC_WEBHOOK_MASTER_KEY or --webhook-master-key-file)")

// maxKeyFileLen bounds the read of the key file; the base64 text of 32
// bytes and a newline take 46.
const maxKeyFileLen = 1024

// keyFileMode is the only mode the key files may have (the current key's
// and the previous keys'), and the one GenerateMasterKeyFile creates.
const keyFileMode fs.FileMode = 0o600

// LoadMasterKey returns the Sealer of the master key given either as env
// (the value of SVC_WEBHOOK_MASTER_KEY; "" when unset) or in file (the
// --webhook-master-key-file path; "" when not given). Both hold the standard
// base64 text of exactly 32 bytes; a trailing newline is allowed. The file
// must be a regular file (a symlink to one is followed) of mode 0600
// exactly. Neither given: ErrNoMasterKey.
//
// Both given is refused rather than one preferred: if the two disagree, the
// one not chosen would open nothing that was sealed under the other, and the
// failure would look like corrupted records long after start. An operator
// who set both is better told at once.
//
// No error quotes the key text. The Sealer has no previous keys;
// LoadKeyring adds them (a master key rotation).
func LoadMasterKey(env, file string) (*Sealer, error) {
	key, err := loadCurrentKey(env, file)
	if err != nil {
		return nil, err
	}
	return sealerOf(key)
}

// loadCurrentKey is LoadMasterKey's key, decoded; the caller clears it.
func loadCurrentKey(env, file string) ([]byte, error) {
	switch {
	case env != "" && file != "":
		return nil, fmt.Errorf("secret: webhook master key given both in %s and in file %s; give only one", MasterKeyEnv, file)
	case env != "":
		key, err := decodeKey(env)
		if err != nil {
			return nil, fmt.Errorf("secret: %s: %w", MasterKeyEnv, err)
		}
		return key, nil
	case file != "":
		text, err := readKeyFile(currentKeyFile, file, maxKeyFileLen)
		if err != nil {
			return nil, err
		}
		key, err := decodeKey(text)
		if err != nil {
			return nil, fmt.Errorf("secret: master key file %s: %w", file, err)
		}
		return key, nil
	default:
		return nil, ErrNoMasterKey
	}
}

// sealerOf makes the Sealer and clears the decoded key, which NewSealer has
// expanded into its own key schedule, so one fewer copy lingers in memory.
func sealerOf(key []byte) (*Sealer, error) {
	defer clear(key)
	return NewSealer(key)
}

// Names of the key files in errors.
const (
	currentKeyFile   = "master key file"
	previousKeysFile = "previous master keys file"
)

// readKeyFile reads a key file (what names it in errors) of at most limit
// bytes after checking, on the opened descriptor (so the checked file is
// the read one), that it is a regular file no one but its owner can read.
func readKeyFile(what, path string, limit int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("secret: %s: %w", what, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("secret: %s: %w", what, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("secret: %s %s is not a regular file (mode %v)", what, path, st.Mode())
	}
	// Setuid, setgid and sticky bits count too: "0600 exactly".
	if mode := st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky); mode != keyFileMode {
		return "", fmt.Errorf("secret: %s %s has mode %#o (%v), want 0600 exactly: read-write for the owner, nothing for group or others (chmod 600 %s)",
			what, path, octal(mode), mode, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return "", fmt.Errorf("secret: %s: %w", what, err)
	}
	if len(b) > limit {
		return "", fmt.Errorf("secret: %s %s is larger than %d bytes", what, path, limit)
	}
	return string(b), nil
}

// octal is mode as chmod spells it, special bits included.
func octal(mode fs.FileMode) uint32 {
	o := uint32(mode.Perm())
	if mode&fs.ModeSetuid != 0 {
		o |= 0o4000
	}
	if mode&fs.ModeSetgid != 0 {
		o |= 0o2000
	}
	if mode&fs.ModeSticky != 0 {
		o |= 0o1000
	}
	return o
}

// decodeKey decodes the base64 text of a 32-byte key, allowing one trailing
// newline (what echo and editors leave) and nothing else around it.
func decodeKey(text string) ([]byte, error) {
	text = strings.TrimSuffix(text, "\n")
	text = strings.TrimSuffix(text, "\r")
	// The decoder skips CR and LF anywhere; refuse them (and other white
	// space) so the accepted text is one line of base64.
	if strings.ContainsAny(text, " \t\r\n\v\f") {
		return nil, errors.New("key text holds white space; want one line of base64")
	}
	key, err := base64.StdEncoding.Strict().DecodeString(text)
	if err != nil {
		return nil, fmt.Errorf("key is not standard base64: %w", err)
	}
	if len(key) != KeyLen {
		clear(key)
		return nil, fmt.Errorf("key decodes to %d bytes, want %d", len(key), KeyLen)
	}
	return key, nil
}
