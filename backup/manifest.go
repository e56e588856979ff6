package backup

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/internal/atomicfile"
	"github.com/fxd-labs/fxd/snapshot"
)

// The layout of a backup directory.
const (
	ManifestFile = "manifest.json"
	StateDir     = "state" // Pebble checkpoint
	WALDir       = "wal"   // log records A+1..L
	ChainDir     = "chain" // contracts.json; embedded: genesis.json, blocks.rlp
)

// Format and Version identify the manifest's format; Verify refuses any
// other.
const (
	Format  = "fxd-backup"
	Version = 1
)

// maxManifest bounds the manifest read back (a file entry is ~150 bytes).
const maxManifest = 16 << 20

// Manifest describes one backup. It is written last: a directory without
// one is an unfinished backup.
type Manifest struct {
	Format       string              `json:"format"`
	Version      int                 `json:"version"`
	CreatedAt    string              `json:"created_at"`    // RFC 3339 UTC
	AppliedIndex uint64              `json:"applied_index"` // A: the checkpoint holds log records 1..A
	LastIndex    uint64              `json:"last_index"`    // L: wal/ holds A+1..L
	Genesis      string              `json:"genesis"`       // genesis hash of the chain the data is bound to
	Chain        connect.ChainBackup `json:"chain"`
	Files        []File              `json:"files"` // every file but the manifest, sorted by path
}

// File is one file of a backup.
type File struct {
	Path   string `json:"path"` // slash-separated, relative to the backup directory
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // hex
}

// secret reports whether a file name is one a backup must never carry:
// the admin token and address, and key files (API keys' PEMs, the webhook
// master key, relayer and faucet keys). No file a backup writes has such
// a name; the check guards against one ever slipping in.
func secret(name string) bool {
	base := strings.ToLower(path.Base(name))
	switch {
	case base == "admin.token", base == "admin.addr":
		return true
	case strings.HasSuffix(base, ".pem"), strings.HasSuffix(base, ".key"):
		return true
	}
	return false
}

// skipped reports whether a file of a backup directory is no part of it:
// the manifest itself, and the lock file Pebble adds to state/ whenever
// the checkpoint is opened (Verify opens it read-only).
func skipped(rel string) bool {
	return rel == ManifestFile || rel == StateDir+"/"+snapshot.LockFile
}

// checkPath refuses a manifest path that is not a plain file under one of
// the backup's parts, or that names a secret.
func checkPath(rel string) error {
	clean := path.Clean(rel)
	top, _, _ := strings.Cut(clean, "/")
	switch {
	case clean != rel, path.IsAbs(rel), strings.HasPrefix(clean, "../"), !strings.Contains(clean, "/"):
		return fmt.Errorf("file %q is not a path inside the backup", rel)
	case top != StateDir && top != WALDir && top != ChainDir:
		return fmt.Errorf("file %q is outside state/, wal/ and chain/", rel)
	case secret(rel):
		return fmt.Errorf("file %q looks like a secret (token or key), which a backup never holds", rel)
	}
	return nil
}

// listFiles walks dir and returns every file of the backup, hashed,
// sorted by path. Anything but directories and regular files is refused.
func listFiles(dir string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() || skipped(rel):
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("backup: %s is not a regular file", p)
		}
		if err := checkPath(rel); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		size, sum, err := hashFile(p)
		if err != nil {
			return err
		}
		files = append(files, File{Path: rel, Size: size, SHA256: sum})
		return nil
	})
	return files, err // WalkDir visits in lexical order: sorted
}

// hashFile returns a file's size and hex SHA-256.
func hashFile(p string) (int64, string, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("backup: read %s: %w", p, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// writeManifest writes m as dir's manifest: temp file, fsync, rename,
// fsync of dir, so it appears whole or not at all.
func writeManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o600)
}

// errIncomplete: the directory has no manifest.
var errIncomplete = errors.New("no " + ManifestFile + ": not a backup, or one that did not finish")

// readManifest reads and strictly decodes dir's manifest and checks its
// format, version and paths.
func readManifest(dir string) (*Manifest, error) {
	f, err := os.Open(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, errIncomplete
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxManifest {
		return nil, fmt.Errorf("%s is over %d bytes", ManifestFile, maxManifest)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	if m.Format != Format || m.Version != Version {
		return nil, fmt.Errorf("%s: format %q version %d, this fxd reads %q version %d", ManifestFile, m.Format, m.Version, Format, Version)
	}
	for i, f := range m.Files {
		if err := checkPath(f.Path); err != nil {
			return nil, fmt.Errorf("%s: %w", ManifestFile, err)
		}
		if i > 0 && m.Files[i-1].Path >= f.Path {
			return nil, fmt.Errorf("%s: files not sorted or repeated at %q", ManifestFile, f.Path)
		}
	}
	return &m, nil
}

// Summary is a manifest without its file list: what POST /admin/backups
// answers and `fxd backup create` prints, one small object however many
// files the checkpoint has (manifest.json holds the list).
type Summary struct {
	Dir          string              `json:"dir"`
	CreatedAt    string              `json:"created_at"`
	AppliedIndex uint64              `json:"applied_index"`
	LastIndex    uint64              `json:"last_index"`
	Genesis      string              `json:"genesis"`
	Chain        connect.ChainBackup `json:"chain"`
	Files        int                 `json:"files"`
	Bytes        int64               `json:"bytes"`
}

// Summary summarizes m, the manifest of the backup in dir.
func (m *Manifest) Summary(dir string) Summary {
	s := Summary{Dir: dir, CreatedAt: m.CreatedAt, AppliedIndex: m.AppliedIndex, LastIndex: m.LastIndex,
		Genesis: m.Genesis, Chain: m.Chain, Files: len(m.Files)}
	for _, f := range m.Files {
		s.Bytes += f.Size
	}
	return s
}
