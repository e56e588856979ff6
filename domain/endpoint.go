package domain

import (
	"fmt"
	"time"
)

// KindEndpoint is a webhook endpoint (wh_…): where an account's events go,
// and the sealed secret that signs them.
const KindEndpoint Kind = 6

// Endpoint states. A deleted endpoint keeps its row (its deliveries name
// it) but is gone from the API.
const (
	EndpointEnabled  = "enabled"
	EndpointDisabled = "disabled"
	EndpointDeleted  = "deleted"
)

// Bounds of endpoints.
const (
	// MaxEndpointsPerAccount bounds an account's endpoints (as Stripe's).
	MaxEndpointsPerAccount = 16
	// MaxEndpointURLBytes bounds a receiver URL.
	MaxEndpointURLBytes = 2048
	// MaxConsecutiveFailures disables an endpoint (CONTRACT.md).
	MaxConsecutiveFailures = 10
	// SecretOverlap is how long the previous secret still signs after a
	// rotation.
	SecretOverlap = 24 * time.Hour
)

// SealedSecret is a signing secret sealed under the master key (package
// webhook/secret, with the endpoint id as additional data). The plain
// secret is never in a row, an event or a stored answer.
type SealedSecret struct {
	Sealed []byte
	// RetiresAt: zero for the current secret; for the previous one, when
	// it stops signing.
	RetiresAt time.Time
}

// Endpoint is one webhook endpoint row. Immutable once built.
type Endpoint struct {
	ID          string // wh_…
	Account     string
	URL         string
	Events      []string // ["*"] or event types
	Description string
	State       string
	// Secrets: [0] the current one; [1] the previous, while it overlaps.
	Secrets   []SealedSecret
	Failures  int // consecutive failed attempts
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Wants reports whether the endpoint takes events of type typ.
func (e *Endpoint) Wants(typ string) bool {
	for _, t := range e.Events {
		if t == "*" || t == typ {
			return true
		}
	}
	return false
}

// SigningSecrets are the sealed secrets that sign a delivery at now:
// the current one and, during the overlap, the previous one.
func (e *Endpoint) SigningSecrets(now time.Time) [][]byte {
	out := make([][]byte, 0, len(e.Secrets))
	for _, s := range e.Secrets {
		if s.RetiresAt.IsZero() || now.Before(s.RetiresAt) {
			out = append(out, s.Sealed)
		}
	}
	return out
}

// EndpointState is one endpoint entity. The zero value does not exist yet.
type EndpointState struct {
	Endpoint *Endpoint
	Idem     IdemStore
}

// NewEndpointState returns an empty endpoint entity.
func NewEndpointState() *EndpointState { return &EndpointState{} }

// Clone copies the state; rows are shared, they are immutable.
func (s *EndpointState) Clone() Entity {
	return &EndpointState{Endpoint: s.Endpoint, Idem: s.Idem.Clone()}
}

// Exists reports whether the entity holds a row or a stored answer.
func (s *EndpointState) Exists() bool { return s.Endpoint != nil || s.Idem.Len() > 0 }

// InFlight is IdemStore.InFlight against the committed endpoint state.
func (s *EndpointState) InFlight(committed Entity, scope string, now time.Time) bool {
	return s.Idem.InFlight(&committed.(*EndpointState).Idem, scope, now)
}

// Apply applies one event of an endpoint's record.
func (s *EndpointState) Apply(e *Event) {
	switch e.Kind {
	case EvEndpointPut:
		s.applyRow(e.Endpoint)
	case EvIdemPut:
		s.Idem.Put(e.Idem)
	default:
		panic(fmt.Sprintf("domain: apply of event kind %s to a webhook endpoint", e.Kind))
	}
}

func (s *EndpointState) applyRow(n *Endpoint) {
	if n == nil || n.ID == "" || n.Account == "" || len(n.Secrets) == 0 || len(n.Secrets) > 2 {
		panic("domain: apply endpoint_put without id, account or secrets")
	}
	old := s.Endpoint
	switch {
	case old == nil && n.State != EndpointEnabled:
		panic(fmt.Sprintf("domain: apply endpoint_put creates %s in state %s", n.ID, n.State))
	case old != nil && (old.ID != n.ID || old.Account != n.Account):
		panic(fmt.Sprintf("domain: apply endpoint_put of %s: not a successor", n.ID))
	case old != nil && old.State == EndpointDeleted:
		panic(fmt.Sprintf("domain: apply endpoint_put of %s after its deletion", n.ID))
	}
	s.Endpoint = n
}

// Row methods of an endpoint: live (resumed at start) until deleted.
func (e *Endpoint) RowID() string                { return e.ID }
func (e *Endpoint) RowAccount() string           { return e.Account }
func (e *Endpoint) Live() bool                   { return e.State != EndpointDeleted }
func (e *Endpoint) RowEventID() string           { return "" }
func (e *Endpoint) LookupKeys() []string         { return nil }
func (e *Endpoint) Ledger() []LedgerEntry        { return nil }
func (e *Endpoint) MarshalRow(dst []byte) []byte { return MarshalEndpoint(dst, e) }
