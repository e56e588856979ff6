package domain

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
)

// The commands of an endpoint entity (Target KindEndpoint). The host (the
// webhook desk) screens URLs, makes and seals secrets and checks the
// account's endpoint count; Decide checks the transition and builds the row.

// CreateEndpoint is POST /webhooks. Refusal is the host's answer (400
// invalid_webhook_url, the endpoint limit), stored under the key.
type CreateEndpoint struct {
	ID, Account, URL string
	Events           []string // nil: ["*"]
	Description      string
	Sealed           []byte
	Refusal          *Error
}

// UpdateEndpoint is PATCH /webhooks/{id}: nil fields keep their value. A
// URL is screened by the host first (Refusal).
type UpdateEndpoint struct {
	Account     string
	URL         *string
	Events      *[]string
	Description *string
	State       *string
	Refusal     *Error
}

// DeleteEndpoint is DELETE /webhooks/{id}.
type DeleteEndpoint struct{ Account string }

// RotateSecret is POST /webhooks/{id}/rotate-secret: Sealed becomes the
// current secret; the current one signs on for SecretOverlap.
type RotateSecret struct {
	Account string
	Sealed  []byte
}

// RecordOutcome counts one attempt's outcome toward the endpoint's
// consecutive failures: MaxConsecutiveFailures of them disable it.
type RecordOutcome struct{ OK bool }

func (CreateEndpoint) Target() Kind { return KindEndpoint }
func (UpdateEndpoint) Target() Kind { return KindEndpoint }
func (DeleteEndpoint) Target() Kind { return KindEndpoint }
func (RotateSecret) Target() Kind   { return KindEndpoint }
func (RecordOutcome) Target() Kind  { return KindEndpoint }

// Handle runs req through the endpoint's idempotency store and Decide.
func (s *EndpointState) Handle(req Request, env Env) Outcome {
	return handleOne(&s.Idem, req, env, "webhook endpoint", s.Decide, func(e *Endpoint) Event { return Event{Kind: EvEndpointPut, Endpoint: e} })
}

// handleOne is Handle for a kind whose Decide writes at most one row.
func handleOne[R any](idem *IdemStore, req Request, env Env, what string, decide func(Command, Env) (*R, Reply, *Error), wrap func(*R) Event) Outcome {
	return idem.Handle(req.Idem, env, MaxIdemPerOrder, what, func() ([]Event, Reply, *Error) {
		row, reply, err := decide(req.Cmd, env)
		if row == nil {
			return nil, reply, err
		}
		return []Event{wrap(row)}, reply, err
	})
}

// Decide validates cmd against the endpoint and returns the new row (nil
// for none) and the reply.
func (s *EndpointState) Decide(cmd Command, env Env) (*Endpoint, Reply, *Error) {
	if c, ok := cmd.(CreateEndpoint); ok {
		return s.create(c, env)
	}
	e := s.Endpoint
	if e == nil || e.State == EndpointDeleted {
		return nil, Reply{}, ErrNotFound("webhook endpoint")
	}
	n := *e
	n.UpdatedAt = env.Now
	switch c := cmd.(type) {
	case UpdateEndpoint:
		if e.Account != c.Account {
			return nil, Reply{}, ErrNotFound("webhook endpoint")
		}
		if err := c.apply(&n); err != nil {
			return nil, Reply{}, err
		}
		return &n, jsonReply(200, ViewEndpoint(&n)), nil
	case DeleteEndpoint:
		if e.Account != c.Account {
			return nil, Reply{}, ErrNotFound("webhook endpoint")
		}
		n.State = EndpointDeleted
		return &n, jsonReply(200, DeletedView{ID: e.ID, Deleted: true}), nil
	case RotateSecret:
		if e.Account != c.Account {
			return nil, Reply{}, ErrNotFound("webhook endpoint")
		}
		if len(c.Sealed) == 0 {
			panic("domain: rotate without a sealed secret")
		}
		prev := e.Secrets[0]
		prev.RetiresAt = env.Now.Add(SecretOverlap)
		n.Secrets = []SealedSecret{{Sealed: c.Sealed}, prev} // a second rotation drops the oldest
		return &n, jsonReply(200, SecretView{ID: e.ID, Secret: SealedToken(c.Sealed)}), nil
	case RecordOutcome:
		return e.recordOutcome(c.OK, env)
	case ResealSecrets:
		return e.reseal(c)
	}
	panic(fmt.Sprintf("domain: decide of unknown endpoint command %T", cmd))
}

func (s *EndpointState) create(c CreateEndpoint, env Env) (*Endpoint, Reply, *Error) {
	if s.Endpoint != nil {
		return nil, Reply{}, ErrInvalidState("webhook endpoint %s exists", s.Endpoint.ID)
	}
	if c.Refusal != nil {
		return nil, Reply{}, c.Refusal
	}
	if !strings.HasPrefix(c.ID, KindEndpoint.Prefix()) || c.Account == "" || len(c.Sealed) == 0 {
		panic("domain: create endpoint without id, account or secret")
	}
	events, err := NormalizeEventFilter(c.Events)
	if err == nil {
		err = checkEndpointText(c.URL, c.Description)
	}
	if err != nil {
		return nil, Reply{}, err
	}
	e := &Endpoint{ID: c.ID, Account: c.Account, URL: c.URL, Events: events, Description: c.Description, State: EndpointEnabled,
		Secrets: []SealedSecret{{Sealed: c.Sealed}}, CreatedAt: env.Now, UpdatedAt: env.Now}
	return e, jsonReply(201, ViewEndpointCreated(e, SealedToken(c.Sealed))), nil
}

// apply edits n as the PATCH asks; re-enabling resets the failures.
func (c UpdateEndpoint) apply(n *Endpoint) *Error {
	if c.Refusal != nil {
		return c.Refusal
	}
	if c.URL != nil {
		n.URL = *c.URL
	}
	if c.Description != nil {
		n.Description = *c.Description
	}
	if c.Events != nil {
		events, err := NormalizeEventFilter(*c.Events)
		if err != nil {
			return err
		}
		n.Events = events
	}
	if c.State != nil {
		switch *c.State {
		case EndpointEnabled:
			if n.State != EndpointEnabled {
				n.Failures = 0
			}
		case EndpointDisabled:
		default:
			return ErrInvalid("state must be %q or %q", EndpointEnabled, EndpointDisabled)
		}
		n.State = *c.State
	}
	return checkEndpointText(n.URL, n.Description)
}

// recordOutcome counts a failure (disabling at the limit) or resets the
// count; an outcome that changes nothing writes nothing.
func (e *Endpoint) recordOutcome(ok bool, env Env) (*Endpoint, Reply, *Error) {
	n := *e
	n.UpdatedAt = env.Now
	if ok {
		if e.Failures == 0 {
			return nil, jsonReply(200, ViewEndpoint(e)), nil
		}
		n.Failures = 0
	} else {
		n.Failures++
		if n.Failures >= MaxConsecutiveFailures && n.State == EndpointEnabled {
			n.State = EndpointDisabled
		}
	}
	return &n, jsonReply(200, ViewEndpoint(&n)), nil
}

// NormalizeEventFilter checks an endpoint's events: nil is ["*"]; "*"
// anywhere is ["*"]; otherwise known types, each once, in the given order.
func NormalizeEventFilter(events []string) ([]string, *Error) {
	if events == nil {
		return []string{"*"}, nil
	}
	if len(events) == 0 {
		return nil, ErrInvalid(`events must name at least one event type, or be ["*"]`)
	}
	if len(events) > len(EventTypes)+1 {
		return nil, ErrInvalid("events lists more than the %d event types", len(EventTypes))
	}
	out := make([]string, 0, len(events))
	all := false
	for _, t := range events {
		switch {
		case t == "*":
			all = true
		case !KnownEventType(t):
			return nil, ErrInvalid("unknown event type %q (want one of %s, or *)", t, strings.Join(EventTypes, ", "))
		case !slices.Contains(out, t):
			out = append(out, t)
		}
	}
	if all {
		return []string{"*"}, nil
	}
	return out, nil
}

func checkEndpointText(url, description string) *Error {
	if url == "" || len(url) > MaxEndpointURLBytes {
		return ErrInvalid("url is required, at most %d bytes", MaxEndpointURLBytes)
	}
	return checkNote("description", description, maxDescriptionRunes)
}

// sealedTokenPrefix marks a sealed secret inside a stored answer.
const sealedTokenPrefix = "sealed:"

// SealedToken is how a stored answer holds a secret: sealed. The host
// opens it on the way out (every answer, first and replayed), so the log
// never holds the plain secret.
func SealedToken(sealed []byte) string {
	return sealedTokenPrefix + base64.RawURLEncoding.EncodeToString(sealed)
}

// ParseSealedToken is SealedToken's inverse.
func ParseSealedToken(token string) ([]byte, bool) {
	rest, ok := strings.CutPrefix(token, sealedTokenPrefix)
	if !ok {
		return nil, false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	return b, err == nil && len(b) > 0
}
