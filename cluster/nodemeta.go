package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/internal/atomicfile"
)

// NodeMeta is a cluster node's own service facts (actors.MetaStore), one
// file each under <data-dir>/node: what belongs to this node and to no
// partition, as the progress of the chain watcher the node runs and the
// chain the node is bound to. A single node keeps the same facts in its
// log. Each write replaces its file atomically and is fsynced.
type NodeMeta struct{ dir string }

var _ actors.MetaStore = (*NodeMeta)(nil)

// maxNodeMeta bounds one fact's value.
const maxNodeMeta = 4 << 10

// OpenNodeMeta opens (creating) the node's fact files in dataDir/node.
func OpenNodeMeta(dataDir string) (*NodeMeta, error) {
	dir := filepath.Join(dataDir, "node")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cluster: node facts: %w", err)
	}
	return &NodeMeta{dir: dir}, nil
}

// Meta reads the fact key, "" when it was never recorded.
func (m *NodeMeta) Meta(key string) (string, error) {
	p, err := m.path(key)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("cluster: node fact %s: %w", key, err)
	}
	return string(b), nil
}

// PutMeta records the fact key durably.
func (m *NodeMeta) PutMeta(key, value string) error {
	p, err := m.path(key)
	if err != nil {
		return err
	}
	if len(value) > maxNodeMeta {
		return fmt.Errorf("cluster: node fact %s: %d bytes (at most %d)", key, len(value), maxNodeMeta)
	}
	if err := atomicfile.Write(p, []byte(value), 0o600); err != nil {
		return fmt.Errorf("cluster: node fact %s: %w", key, err)
	}
	return nil
}

// path is key's file; keys are the service's own names (a-z, _).
func (m *NodeMeta) path(key string) (string, error) {
	if key == "" || strings.Trim(key, "abcdefghijklmnopqrstuvwxyz_") != "" {
		return "", fmt.Errorf("cluster: node fact name %q", key)
	}
	return filepath.Join(m.dir, key), nil
}
