package actors

import (
	"crypto/ed25519"
	"sync"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
)

// MaxKeys bounds the key directory. Every API key is held in memory so that
// authentication never waits on disk; the bound is keys, not accounts, and
// each account holds at most domain.MaxKeysPerAccount.
const MaxKeys = 2_000_000

// accountPrefix is the prefix of every account id.
const accountPrefix = "acct_"

// KeyAuth is what authentication learns of a key from the directory.
type KeyAuth struct {
	ID, Account string
	PublicKey   [ed25519.PublicKeySize]byte
	Scopes      domain.Scopes
	Revoked     bool
}

// dirEntry is one key in the directory: only what authentication needs,
// with the account id as its 20 raw bytes. Keyed by the key id's raw
// bytes it is one map slot of about 80 bytes and no allocation of its own,
// which is what a key costs once its account has passivated (DESIGN.md:
// every key in memory, so authentication never waits on disk).
type dirEntry struct {
	pub     [ed25519.PublicKeySize]byte
	account ids.Raw
	scopes  domain.Scopes
	revoked bool
}

// Directory maps key ids to what authentication needs of them. It is
// loaded in full from the snapshot store at start and updated by account
// actors when a key event is durable, before the reply leaves, so a
// revocation takes effect on the very next request.
//
// Ids are held as raw bytes when both the key id and its account id have
// the format ids makes (always, for keys made by this version); any other
// key (hand-made in a test, or from an older data dir) is held by its
// string in other.
type Directory struct {
	keyPrefix string // "svc_<env>_"
	mu        sync.RWMutex
	raw       map[ids.Raw]dirEntry
	other     map[string]KeyAuth
}

func newDirectory(env string) *Directory {
	return &Directory{keyPrefix: "svc_" + env + "_", raw: map[ids.Raw]dirEntry{}, other: map[string]KeyAuth{}}
}

// Get returns the key, false if the directory has none by that id. The
// account id is rendered from its raw bytes on each call (~50 ns and one
// 48-byte string per authenticated request): holding it as a string
// would cost those 48 bytes for every key in memory, active or not.
func (d *Directory) Get(id string) (KeyAuth, bool) {
	r, canonical := ids.Parse(d.keyPrefix, id)
	d.mu.RLock()
	defer d.mu.RUnlock()
	if e, ok := d.raw[r]; ok && canonical {
		return KeyAuth{ID: id, Account: e.account.Format(accountPrefix), PublicKey: e.pub, Scopes: e.scopes, Revoked: e.revoked}, true
	}
	k, ok := d.other[id]
	return k, ok
}

// put installs a committed key row.
func (d *Directory) put(k *domain.APIKey) {
	if len(k.PublicKey) != ed25519.PublicKeySize {
		panic("actors: key " + k.ID + " without a 32-byte public key") // Decide refuses it
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	r, okKey := ids.Parse(d.keyPrefix, k.ID)
	a, okAcct := ids.Parse(accountPrefix, k.Account)
	_, known := d.raw[r]
	if !okKey || !okAcct {
		_, known = d.other[k.ID]
	}
	if !known && len(d.raw)+len(d.other) >= MaxKeys {
		// Decide refuses keys past the per-account bound; reaching the
		// global bound means memory planning failed, which we do not hide.
		panic("actors: key directory is full")
	}
	if okKey && okAcct {
		d.raw[r] = dirEntry{pub: [ed25519.PublicKeySize]byte(k.PublicKey), account: a, scopes: k.Scopes, revoked: k.Revoked}
		return
	}
	d.other[k.ID] = KeyAuth{ID: k.ID, Account: k.Account, PublicKey: [ed25519.PublicKeySize]byte(k.PublicKey), Scopes: k.Scopes, Revoked: k.Revoked}
}

// Len is the number of keys.
func (d *Directory) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return len(d.raw) + len(d.other)
}
