// Package repo finds files of this repository and of the shared/ folder
// beside it (the interface documents and the reference vectors), for tests.
package repo

import (
	"errors"
	"os"
	"path/filepath"
)

// Root walks up from the working directory to the directory holding go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repo: go.mod not found above the working directory")
		}
		dir = parent
	}
}

// TB is the part of testing.TB that Must* uses.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// MustRoot is Root for tests: it fails the test instead of returning an error.
func MustRoot(t TB) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return root
}

// MustShared reads <root>/../shared/<name> (e.g. "vectors/auth.json"). A
// missing file fails the test: the reference values are not optional.
func MustShared(t TB, name string) []byte {
	t.Helper()
	path := filepath.Join(MustRoot(t), "..", "shared", name)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reference file %s: %v (shared/ must sit beside the checkout)", path, err)
	}
	return b
}
