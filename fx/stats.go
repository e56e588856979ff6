package fx

import (
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/watch"
)

// Relayer is the gas-only relayer the desk sends with (nil without one),
// for /metrics.
func (d *Desk) Relayer() relay.Sender { return d.cfg.Relayer }

// Watcher is the chain watcher the desk was started on, nil before
// Start, for /metrics.
func (d *Desk) Watcher() *watch.Watcher { return d.watcher.Load() }
