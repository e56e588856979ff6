package domain

import (
	"bytes"
	"slices"
)

// ResealSecrets is a master key rotation reaching one endpoint (the
// operator's POST /admin/webhooks/reseal): the same secrets, sealed anew
// under the current master key. Old is the sealed values the host read
// from the committed row, in order; Sealed holds, one for one, what
// replaces each (the same bytes for a value already under the current
// key). Only the sealing changes: the secrets, their order, their
// RetiresAt and every other field (UpdatedAt included: no one changed the
// endpoint) stay as they are.
//
// Decide refuses (409 invalid_state, nothing written) unless the endpoint
// still holds exactly Old, so a rotate-secret that committed after the
// host's read is never overwritten; the host reads again and retries.
type ResealSecrets struct {
	Old    [][]byte
	Sealed [][]byte
}

func (ResealSecrets) Target() Kind { return KindEndpoint }

// reseal decides c against e (live, not deleted).
func (e *Endpoint) reseal(c ResealSecrets) (*Endpoint, Reply, *Error) {
	if len(c.Old) != len(c.Sealed) || slices.ContainsFunc(c.Sealed, func(b []byte) bool { return len(b) == 0 }) {
		panic("domain: reseal without one sealed value for each old one")
	}
	if !e.holdsSealed(c.Old) {
		return nil, Reply{}, ErrInvalidState("webhook endpoint %s no longer holds the sealed secrets the reseal read; read it again", e.ID)
	}
	if slices.EqualFunc(c.Old, c.Sealed, bytes.Equal) {
		return nil, jsonReply(200, ViewEndpoint(e)), nil // nothing to reseal: nothing written
	}
	n := *e
	n.Secrets = make([]SealedSecret, len(e.Secrets))
	for i, s := range e.Secrets {
		n.Secrets[i] = SealedSecret{Sealed: bytes.Clone(c.Sealed[i]), RetiresAt: s.RetiresAt}
	}
	return &n, jsonReply(200, ViewEndpoint(&n)), nil
}

// holdsSealed reports whether the endpoint's secrets are exactly sealed,
// in order.
func (e *Endpoint) holdsSealed(sealed [][]byte) bool {
	return slices.EqualFunc(e.Secrets, sealed, func(s SealedSecret, b []byte) bool { return bytes.Equal(s.Sealed, b) })
}
