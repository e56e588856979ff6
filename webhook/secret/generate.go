package secret

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
)

// GenerateMasterKeyFile writes a new random master key to path as base64
// text and a newline, mode 0600, the form LoadMasterKey reads (make run
// uses it for the test environment).
//
// It never replaces a file: an existing path fails with an error that
// matches fs.ErrExist (so a caller can treat it as "already there"),
// because a new key would make every secret sealed under the old one
// unreadable. The file and its directory are synced before it returns, so
// a key that sealed something is not lost in a crash. If writing fails the
// file is removed; a crash in between can leave it empty or short, which
// LoadMasterKey refuses loudly, and nothing was sealed under it yet.
func GenerateMasterKeyFile(path string) error {
	key := make([]byte, KeyLen)
	defer clear(key)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("secret: generate master key: %w", err)
	}
	text := make([]byte, 0, base64.StdEncoding.EncodedLen(KeyLen)+1)
	text = append(base64.StdEncoding.AppendEncode(text, key), '\n')
	defer clear(text)

	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, keyFileMode)
	if err != nil {
		return fmt.Errorf("secret: create master key file: %w", err)
	}
	if err := writeKeyFile(f, text); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("secret: write master key file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("secret: close master key file %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("secret: master key file %s: sync directory: %w", path, err)
	}
	return nil
}

// writeKeyFile sets the mode (the umask may have taken the owner's bits off
// the 0600 of OpenFile, and LoadMasterKey wants 0600 exactly), writes and
// syncs.
func writeKeyFile(f *os.File, text []byte) error {
	if err := f.Chmod(keyFileMode); err != nil {
		return err
	}
	if _, err := f.Write(text); err != nil {
		return err
	}
	return f.Sync()
}

// syncDir makes the new directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
