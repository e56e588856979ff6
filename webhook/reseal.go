package webhook

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
)

// Bounds of a reseal (a master key rotation reaching the stored secrets).
const (
	// resealWorkers bounds the endpoints resealed at once: each is one log
	// write, and the reseal shares the log with the API.
	resealWorkers = 4
	// resealTries bounds the reads and writes of one endpoint when a
	// concurrent change (a rotate-secret, another reseal) made the write
	// stale.
	resealTries = 3
)

// ErrNoSealer: the desk has no master key, so there is nothing to reseal
// with (the API answers 503 webhook_encryption_unavailable).
var ErrNoSealer = errors.New("webhook: no master key configured")

// errStale: the endpoint changed between the reseal's read and its write.
var errStale = errors.New("webhook: endpoint changed during its reseal")

// ResealResult is the answer of POST /admin/webhooks/reseal. Endpoints
// deleted before or during the walk are in none of the counts: their
// secrets never sign again, so they are never opened and need no reseal.
type ResealResult struct {
	Resealed       int `json:"resealed"`
	AlreadyCurrent int `json:"already_current"`
	Failed         int `json:"failed"`
}

type resealOutcome int

const (
	resealGone resealOutcome = iota
	resealCurrent
	resealDone
	resealFailed
)

// Reseal walks every endpoint not deleted and, where a secret is not
// sealed under the current master key (format 2, its id), writes it sealed
// under the current key through the endpoint's entity (ResealSecrets),
// resealWorkers at a time. Run after a master key rotation, with the
// previous key still configured. Once SecretsUnderPreviousKeys is 0 the
// previous key opens only the stored answers of create and rotate-secret
// requests made before the rotation (a reseal leaves them as they are:
// they expire after domain.IdemRetention, and until then a replay needs
// the key that sealed them).
//
// It is idempotent: a second run finds everything current, so a run cut
// short (ctx) is finished by running it again (an endpoint whose write
// committed as ctx ended may be counted failed). Failures are logged per
// endpoint, never with key or secret text.
func (d *Desk) Reseal(ctx context.Context) (ResealResult, error) {
	if d.cfg.Sealer == nil {
		return ResealResult{}, ErrNoSealer
	}
	rows := d.endpointRows()
	var counts [resealFailed + 1]atomic.Int64
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(resealWorkers, len(rows)) {
		wg.Go(func() {
			for id := range work {
				counts[d.resealOne(ctx, id)].Add(1)
			}
		})
	}
	for _, ep := range rows {
		work <- ep.ID // a cancelled ctx makes each remaining one fail at once
	}
	close(work)
	wg.Wait()
	res := ResealResult{Resealed: int(counts[resealDone].Load()), AlreadyCurrent: int(counts[resealCurrent].Load()),
		Failed: int(counts[resealFailed].Load())}
	d.cfg.Logger.Info("webhook secrets resealed", "master_key_id", d.cfg.Sealer.CurrentKeyID().String(),
		"resealed", res.Resealed, "already_current", res.AlreadyCurrent, "failed", res.Failed)
	return res, nil
}

// SecretsUnderPreviousKeys counts the endpoints (not deleted) holding a
// secret that is not sealed under the current master key: what a reseal
// still has to do (a gauge; 0 without a master key). It compares each
// secret's 9-byte header with the current key id, opening nothing. The
// desk's lock, which the log's commit path takes, is held only to copy
// the index's row pointers out (endpointRows: about 1 ms per 100,000
// endpoints), not for the walk (about 5 ms more, unlocked), so a scrape
// may compute it.
func (d *Desk) SecretsUnderPreviousKeys() int {
	if d.cfg.Sealer == nil {
		return 0
	}
	n := 0
	for _, ep := range d.endpointRows() {
		if !d.allCurrent(ep) {
			n++
		}
	}
	return n
}

func (d *Desk) allCurrent(ep *domain.Endpoint) bool {
	for _, s := range ep.Secrets {
		if !d.cfg.Sealer.IsCurrent(s.Sealed) {
			return false
		}
	}
	return true
}

// endpointRows are the rows of the endpoints not deleted, as the index
// holds them now (rows are immutable, so they are read without the lock).
func (d *Desk) endpointRows() []*domain.Endpoint {
	d.mu.Lock()
	defer d.mu.Unlock()
	rows := make([]*domain.Endpoint, 0, len(d.endpoints))
	for _, ep := range d.endpoints {
		rows = append(rows, ep)
	}
	return rows
}

// resealOne reseals endpoint id, reading it again when a concurrent
// change made the write stale, at most resealTries times.
func (d *Desk) resealOne(ctx context.Context, id string) resealOutcome {
	for try := 1; ; try++ {
		out, err := d.resealTry(ctx, id)
		if err == nil {
			return out
		}
		if !errors.Is(err, errStale) || try == resealTries {
			d.cfg.Logger.Error("webhook endpoint reseal failed", "endpoint", id, "tries", try, "err", err.Error())
			return resealFailed
		}
	}
}

// resealTry reads the endpoint's committed row and writes its secrets
// sealed under the current key, expecting the values it read.
func (d *Desk) resealTry(ctx context.Context, id string) (resealOutcome, error) {
	if err := ctx.Err(); err != nil { // a run cut short starts nothing more
		return resealFailed, fmt.Errorf("webhook: reseal %s not started: %w", id, err)
	}
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	r, err := d.e.Row(ctx, domain.KindEndpoint, id, "")
	if errors.Is(err, actors.ErrNoEntity) {
		return resealGone, nil
	}
	if err != nil {
		return resealFailed, fmt.Errorf("webhook: read %s for its reseal: %w", id, err)
	}
	ep := r.(*domain.Endpoint)
	if ep.State == domain.EndpointDeleted {
		return resealGone, nil
	}
	cmd, n, err := d.resealCommand(ep)
	if err != nil {
		return resealFailed, err
	}
	if n == 0 {
		return resealCurrent, nil
	}
	out, err := d.e.Exec(ctx, id, domain.Request{Cmd: cmd})
	switch {
	case errors.Is(err, actors.ErrNoEntity):
		return resealGone, nil
	case err != nil:
		return resealFailed, fmt.Errorf("webhook: reseal %s: %w", id, err)
	case out.Err == nil:
		return resealDone, nil
	case out.Err.Status == 404:
		return resealGone, nil
	case out.Err.Code == domain.CodeInvalidState:
		return resealFailed, fmt.Errorf("%w: %s", errStale, out.Err.Message)
	default:
		return resealFailed, fmt.Errorf("webhook: reseal %s: %w", id, out.Err)
	}
}

// resealCommand seals each secret of ep not under the current key anew
// (keeping those that are) and reports how many it resealed.
func (d *Desk) resealCommand(ep *domain.Endpoint) (domain.ResealSecrets, int, error) {
	cmd := domain.ResealSecrets{Old: make([][]byte, len(ep.Secrets)), Sealed: make([][]byte, len(ep.Secrets))}
	n := 0
	for i, s := range ep.Secrets {
		cmd.Old[i], cmd.Sealed[i] = s.Sealed, s.Sealed
		if d.cfg.Sealer.IsCurrent(s.Sealed) {
			continue
		}
		v, err := d.cfg.Sealer.Reseal(s.Sealed, []byte(ep.ID))
		if err != nil {
			return cmd, 0, fmt.Errorf("webhook: reseal secret %d of %s: %w", i+1, ep.ID, err)
		}
		cmd.Sealed[i] = v
		n++
	}
	return cmd, n, nil
}
