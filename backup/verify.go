package backup

import (
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
	"github.com/fxd-labs/fxd/wal"
)

// Report is what Verify found; `fxd backup verify` prints it.
type Report struct {
	OK           bool                 `json:"ok"`
	Dir          string               `json:"dir"`
	CreatedAt    string               `json:"created_at"`
	AppliedIndex uint64               `json:"applied_index"`
	LastIndex    uint64               `json:"last_index"`
	Records      uint64               `json:"records"` // log records in wal/: L-A
	Genesis      string               `json:"genesis"`
	Chain        *connect.ChainBackup `json:"chain,omitempty"`
	Files        int                  `json:"files"`
	Bytes        int64                `json:"bytes"`
	Problem      string               `json:"problem,omitempty"`
}

// Verify checks the backup in dir, read-only (Pebble adds its lock file
// to state/): the manifest; every listed file's size and SHA-256, and no
// file it does not list; the log copy (every frame, the CRC chain, indexes
// A+1..L without a gap, every record decodes); the checkpoint opens at
// applied index A; the genesis binding in the data is the manifest's; the
// chain part (connect.CheckBackup). The report says what it checked; an
// error (also in Report.Problem) says why the backup is not usable.
func Verify(dir string) (*Report, error) {
	rep := &Report{Dir: dir}
	if _, err := verify(dir, rep); err != nil {
		rep.Problem = err.Error()
		return rep, fmt.Errorf("backup: verify %s: %w", dir, err)
	}
	rep.OK = true
	return rep, nil
}

func verify(dir string, rep *Report) (*Manifest, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	rep.CreatedAt, rep.AppliedIndex, rep.LastIndex, rep.Genesis = m.CreatedAt, m.AppliedIndex, m.LastIndex, m.Genesis
	rep.Chain = &m.Chain
	if rep.Bytes, err = checkFiles(dir, m); err != nil {
		return nil, err
	}
	rep.Files = len(m.Files)
	if rep.Records, err = checkLog(filepath.Join(dir, WALDir), m); err != nil {
		return nil, err
	}
	if err := checkState(filepath.Join(dir, StateDir), m); err != nil {
		return nil, err
	}
	binding, err := bindingOf(dir)
	if err != nil {
		return nil, err
	}
	if binding != "" && binding != m.Genesis {
		return nil, fmt.Errorf("the data is bound to chain %s, the manifest says %s", binding, m.Genesis)
	}
	if m.Chain.Genesis != m.Genesis {
		return nil, fmt.Errorf("the chain's genesis %s is not the manifest's %s", m.Chain.Genesis, m.Genesis)
	}
	if err := connect.CheckBackup(filepath.Join(dir, ChainDir), m.Chain); err != nil {
		return nil, err
	}
	return m, nil
}

// checkFiles checks every listed file's size and hash, and that the
// directory holds no other file, and returns the total size.
func checkFiles(dir string, m *Manifest) (int64, error) {
	listed := make(map[string]bool, len(m.Files))
	var total int64
	for _, f := range m.Files {
		listed[f.Path] = true
		size, sum, err := hashFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			return 0, err
		}
		if size != f.Size || sum != f.SHA256 {
			return 0, fmt.Errorf("%s: %d bytes sha256 %s, the manifest says %d bytes sha256 %s", f.Path, size, sum, f.Size, f.SHA256)
		}
		total += size
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !d.IsDir() && !skipped(rel) && !listed[rel] {
			return fmt.Errorf("%s is not in the manifest", rel)
		}
		return nil
	})
	return total, err
}

// checkLog checks the log copy: a clean log of exactly A+1..L whose every
// record decodes.
func checkLog(dir string, m *Manifest) (uint64, error) {
	if m.LastIndex <= m.AppliedIndex {
		return 0, fmt.Errorf("last index %d is not after applied index %d (a backup's log copy is never empty)", m.LastIndex, m.AppliedIndex)
	}
	v, err := wal.Verify(dir)
	if err != nil {
		return 0, err
	}
	switch {
	case v.Problem != "":
		return 0, fmt.Errorf("wal/: index %d: %s", v.ProblemIndex, v.Problem)
	case v.FirstIndex != m.AppliedIndex+1 || v.LastIndex != m.LastIndex || v.Records != m.LastIndex-m.AppliedIndex:
		return 0, fmt.Errorf("wal/ holds %d records %d..%d, the manifest says %d..%d", v.Records, v.FirstIndex, v.LastIndex, m.AppliedIndex+1, m.LastIndex)
	}
	err = wal.ScanDir(dir, func(index uint64, payload []byte) error {
		if _, err := domain.UnmarshalRecord(payload); err != nil {
			return fmt.Errorf("wal/: index %d does not decode: %w", index, err)
		}
		return nil
	})
	return v.Records, err
}

// checkState opens the checkpoint read-only and checks its applied index.
func checkState(dir string, m *Manifest) error {
	cp, err := snapshot.OpenReadOnly(dir)
	if err != nil {
		return err
	}
	defer cp.Close()
	applied, err := cp.AppliedIndex()
	if err != nil {
		return err
	}
	if applied != m.AppliedIndex {
		return fmt.Errorf("state/ is at applied index %d, the manifest says %d", applied, m.AppliedIndex)
	}
	return nil
}
