package pay

import (
	"hash/maphash"
	"sync"
)

// claimStripes is how many locks claimLocks spreads transfers over: a
// fixed table (no per-transfer allocation, nothing to sweep). Two
// transfers on one stripe only wait for each other's claim, which is one
// chain look-up (at most chainTimeout) and two log writes.
const claimStripes = 256

// claimLocks serializes, per transfer, the claim of a tx log and the
// transfer's write that uses it (a submit's and the watcher's confirm):
// the claim entity and the transfer are two entities, so without it two
// submits racing with two different txs could both claim and only one
// confirm, leaving the other tx claimed by a transfer it never confirmed
// (409 tx_already_used for everyone else, ever).
type claimLocks struct {
	seed    maphash.Seed
	stripes [claimStripes]sync.Mutex
}

func newClaimLocks() *claimLocks { return &claimLocks{seed: maphash.MakeSeed()} }

// lock takes the stripe of transfer id and returns its unlock.
func (c *claimLocks) lock(id string) func() {
	m := &c.stripes[maphash.String(c.seed, id)%claimStripes]
	m.Lock()
	return m.Unlock
}
