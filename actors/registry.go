package actors

import (
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fxd-labs/fxd/internal/mapshrink"
)

// MaxActiveAccounts bounds how many account actors are in memory at once.
// Idle actors passivate (Config.PassivateAfter), so this is the bound on
// the working set, not on the number of accounts.
const MaxActiveAccounts = 200_000

const registryShards = 64

// entry is one active account actor. inflight counts messages sent to the
// actor and not yet taken from its mailbox; it changes only under the shard
// lock (increment) or atomically by the actor (decrement), and passivation
// removes the entry only when it is zero under the lock, so no message is
// ever sent to an actor that has decided to stop.
type entry struct {
	pid      *actor.PID
	inflight int64 // guarded by the shard lock for increments
	// touched is the engine's epoch at the actor's last message
	// (passivate.go).
	touched atomic.Int64
	// info is an account actor's published read-only view (AccountInfo),
	// replaced whole on every committed profile or wallet change, so the
	// quote path reads it without a message to the actor.
	info atomic.Pointer[AccountInfo]
}

type shard struct {
	mu   sync.Mutex
	m    map[string]*entry
	peak mapshrink.Peak // a burst of activations is given back once passivated
}

// registry is the sharded map of active accounts.
type registry struct {
	seed   maphash.Seed
	shards [registryShards]shard
	mu     sync.Mutex
	count  int
}

func newRegistry() *registry {
	r := &registry{seed: maphash.MakeSeed()}
	for i := range r.shards {
		r.shards[i].m = map[string]*entry{}
	}
	return r
}

func (r *registry) shard(id string) *shard {
	return &r.shards[maphash.String(r.seed, id)%registryShards]
}

// active returns the number of active actors.
func (r *registry) active() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count
}

func (r *registry) add(n int) {
	r.mu.Lock()
	r.count += n
	r.mu.Unlock()
}
