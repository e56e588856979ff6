package torture

import (
	"context"
	"crypto/sha256"
	"math/rand/v2"
	"net/http"
	"time"
)

// checkReplays sends acknowledged writes again with their Idempotency-Key
// and body, freshly signed: each must come back as the stored answer,
// Idempotency-Replayed: true, the same status and the same bytes.
func (h *harness) checkReplays(ctx context.Context, reqs []*request) {
	for _, r := range reqs {
		if ctx.Err() != nil {
			return
		}
		c := h.workers[r.worker].c
		headers := map[string]string{"Idempotency-Key": r.idemKey}
		give := time.Now().Add(maxTrying)
		for {
			if _, err := h.srv.waitUp(ctx); err != nil {
				return
			}
			actx, cancel := context.WithTimeout(ctx, h.cfg.ClientTimeout)
			resp, err := c.Do(actx, r.method, basePath+r.path, r.body, headers)
			cancel()
			cls, wait := classify(resp, err)
			if cls == attFinal {
				h.compareReplay(r, resp.Status, resp.Body, resp.Header)
				break
			}
			if ctx.Err() != nil || time.Now().After(give) {
				return
			}
			sleep(ctx, wait)
		}
	}
}

func (h *harness) compareReplay(r *request, status int, body []byte, hdr http.Header) {
	h.countCheck(func(c *checkStats) { c.Replays++ })
	switch {
	case hdr.Get("Idempotency-Replayed") != "true":
		h.fail("replay of %s %s (key %s, acked by generation %d): not marked Idempotency-Replayed: %d %.200s",
			r.method, r.path, r.idemKey, r.gen, status, body)
	case status != r.status || sha256.Sum256(body) != r.respHash:
		h.fail("replay of %s %s (key %s, acked by generation %d): %d %.200s, acknowledged as %d %s",
			r.method, r.path, r.idemKey, r.gen, status, body, r.status, r.respHead)
	default:
		h.countCheck(func(c *checkStats) { c.ReplaysIdentical++ })
	}
}

// checkAfterFault runs after every fault, with the load still running:
// a sample of acknowledged writes replays byte for byte, one account's
// lists (in turn) hold every acknowledged record exactly once, and every
// record's states so far are a path of its machine.
func (h *harness) checkAfterFault(ctx context.Context, rng *rand.Rand) {
	h.checkReplays(ctx, h.hist.replaySample(h.cfg.ReplaysPerCheck, rng.IntN))
	n := h.countCheck(func(c *checkStats) { c.AfterFault++ })
	a := h.accounts[n%len(h.accounts)]
	if err := h.checkLists(ctx, a, false); err != nil && ctx.Err() == nil {
		h.anomaly("check", err.Error())
	}
	h.checkPaths()
}
