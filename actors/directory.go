package actors

import (
	"sync"

	"github.com/fxd-labs/fxd/domain"
)

// MaxKeys bounds the key directory. Every API key is held in memory so that
// authentication never waits on disk; the bound is keys, not accounts, and
// each account holds at most domain.MaxKeysPerAccount.
const MaxKeys = 2_000_000

// Directory maps key ids to the current key row for authentication. It is
// loaded in full from the snapshot store at start and updated by account
// actors when a key event is durable, before the reply leaves, so a
// revocation takes effect on the very next request.
type Directory struct {
	mu sync.RWMutex
	m  map[string]*domain.APIKey
}

func newDirectory() *Directory { return &Directory{m: map[string]*domain.APIKey{}} }

// Get returns the key row, or nil.
func (d *Directory) Get(id string) *domain.APIKey {
	d.mu.RLock()
	k := d.m[id]
	d.mu.RUnlock()
	return k
}

// put installs a committed key row.
func (d *Directory) put(k *domain.APIKey) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.m[k.ID]; !ok && len(d.m) >= MaxKeys {
		// Decide refuses keys past the per-account bound; reaching the
		// global bound means memory planning failed, which we do not hide.
		panic("actors: key directory is full")
	}
	d.m[k.ID] = k
}

// Len is the number of keys.
func (d *Directory) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return len(d.m)
}
