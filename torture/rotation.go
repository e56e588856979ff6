package torture

import (
	"slices"
	"strconv"
	"time"

	"github.com/fxd-labs/fxd/webhook/sign"
)

// Secret rotation (CONTRACT.md "Webhooks": rotate-secret; for 24 h each
// delivery carries both signatures; a second rotation drops the oldest).
const (
	// rotateGrace is how long after a rotation was acknowledged a delivery
	// may still be signed with the endpoint's secrets as they were before
	// it: the service's sender reads an endpoint's row when an attempt
	// starts, and an attempt may then wait for one of the endpoint's 16
	// posting slots behind up to 48 others of at most 10 s each. Past it,
	// every delivery must carry the new secret's signature.
	rotateGrace = time.Minute
	// rotateGap is the least time between an endpoint's rotation being
	// acknowledged and its next one being sent, so an attempt's view of
	// the secrets is never more than one rotation old.
	rotateGap = rotateGrace + 5*time.Second
	// secretOverlap is how long the previous secret keeps signing.
	secretOverlap = 24 * time.Hour
)

// secretEra is one secret of an endpoint: the create's, or a rotation's.
type secretEra struct {
	secret  string    // "" until the answer is known
	sentAt  time.Time // a rotation's first attempt (zero for the create's)
	knownAt time.Time // when its answer reached the harness
	void    bool      // the rotation was refused: it never signs
}

// knowsSecret reports whether any secret of the path is known.
func (p *hookPath) knowsSecret() bool {
	for _, e := range p.eras {
		if e.secret != "" {
			return true
		}
	}
	return false
}

// verify returns the eras whose known secret signed sb.
func (p *hookPath) verify(sb signedBody) []int {
	var ok []int
	for i, e := range p.eras {
		if e.secret != "" && sign.Verify(e.secret, sb.id, sb.ts, sb.sig, sb.body, time.Now(), sigTolerance) == nil {
			ok = append(ok, i)
		}
	}
	return ok
}

// checkRotation holds a delivery signed at tsHeader (verified by the eras
// in ok) to the last rotation known before it was signed, era k:
//   - signed more than rotateGrace after k was known, it must carry k's
//     signature (a receiver that switched to the new secret accepts it);
//   - signed within 24 h of k, it must carry the previous secret's
//     signature (a receiver that has not switched accepts it), unless a
//     later rotation had been sent by then: that one drops the previous.
//
// A rotation never answered leaves its secret unknown: it is not k, and
// the secrets known still verify (it only exempts the previous one).
func (p *hookPath) checkRotation(tsHeader string, ok []int) (rotated, noNew, noOld bool) {
	ts, err := strconv.ParseInt(tsHeader, 10, 64)
	if err != nil {
		return false, false, false // Verify refused it already
	}
	signed := time.Unix(ts, 0) // the signing instant is in [signed, signed+1s)
	k := -1
	for i, e := range p.eras {
		if e.secret != "" && !e.void && e.knownAt.Before(signed) {
			k = i
		}
	}
	prev := -1
	for i := range k {
		if !p.eras[i].void && p.eras[i].secret != "" {
			prev = i
		}
	}
	if k < 1 || prev < 0 {
		return false, false, false
	}
	era := p.eras[k]
	noNew = signed.After(era.knownAt.Add(rotateGrace)) && !slices.Contains(ok, k)
	oldOwed := signed.Before(era.sentAt.Add(secretOverlap - time.Minute))
	for _, later := range p.eras[k+1:] {
		if !later.void && !later.sentAt.After(signed.Add(time.Second)) {
			oldOwed = false // it may have applied before the signing: the previous is dropped
		}
	}
	noOld = oldOwed && !slices.Contains(ok, prev)
	return true, noNew, noOld
}

// beginRotate notes a rotate-secret about to be sent for path; it returns
// the era's index for endRotate.
func (r *receiver) beginRotate(path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.paths[path]
	if p == nil {
		return -1
	}
	p.eras = append(p.eras, secretEra{sentAt: time.Now()})
	return len(p.eras) - 1
}

// endRotate gives a rotation's new secret ("" with refused: it was
// refused and never signs).
func (r *receiver) endRotate(path string, era int, secret string, refused bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.paths[path]
	if p == nil || era < 0 || era >= len(p.eras) {
		return
	}
	p.eras[era].secret, p.eras[era].void, p.eras[era].knownAt = secret, refused, time.Now()
}
