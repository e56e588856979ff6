package domain

import (
	"fmt"
	"maps"
)

// MaxIdemPerOrder bounds the idempotency records one order keeps: the
// accept and the submits of one order, each under its own key.
const MaxIdemPerOrder = 64

// OrderRequest is an order command plus its optional idempotency identity.
// Requests aimed at one order (accept, submit) keep their stored answers in
// that order's entity, written in the same log record as its rows.
type OrderRequest struct {
	Cmd  OrderCommand
	Idem *IdemRequest
}

// Handle runs req through idempotency (as AccountState.Handle does) and
// Decide, and returns the events: EvOrderPut rows, then the EvIdemPut.
func (s *OrderState) Handle(req OrderRequest, env Env) Outcome {
	var live *IdemRecord
	full := false
	if req.Idem != nil {
		live = s.liveIdem(req.Idem.Scope, env)
		full = s.liveIdemCount(env) >= MaxIdemPerOrder
	}
	return handleIdem(req.Idem, live, full, MaxIdemPerOrder, env, func() ([]Event, Reply, *Error) {
		rows, reply, err := s.Decide(req.Cmd, env)
		return OrderEvents(rows), reply, err
	})
}

// InFlightOrder is InFlight for an order entity.
func InFlightOrder(spec, committed *OrderState, scope string, env Env) bool {
	return spec.liveIdem(scope, env) != nil && committed.liveIdem(scope, env) == nil
}

func (s *OrderState) liveIdem(scope string, env Env) *IdemRecord {
	r := s.Idem[scope]
	if r == nil || env.Now.Sub(r.CreatedAt) >= IdemRetention {
		return nil
	}
	return r
}

func (s *OrderState) liveIdemCount(env Env) int {
	n := 0
	for _, r := range s.Idem {
		if env.Now.Sub(r.CreatedAt) < IdemRetention {
			n++
		}
	}
	return n
}

// ApplyEvent applies one event of an order record: a row or a stored
// answer. A stored answer drops the records that expired before it, so
// the map stays bounded by what one retention period can hold.
func (s *OrderState) ApplyEvent(e *Event) {
	switch e.Kind {
	case EvOrderPut:
		s.Apply(e.Order)
	case EvIdemPut:
		if s.Idem == nil {
			s.Idem = map[string]*IdemRecord{}
		}
		for k, r := range s.Idem {
			if e.Idem.CreatedAt.Sub(r.CreatedAt) >= IdemRetention {
				delete(s.Idem, k)
			}
		}
		s.Idem[e.Idem.Scope] = e.Idem
	default:
		panic(fmt.Sprintf("domain: apply of event kind %s to an order", e.Kind))
	}
}

// LoadIdem adds stored answers read from the snapshot store.
func (s *OrderState) LoadIdem(records []*IdemRecord) {
	if s.Idem == nil {
		s.Idem = map[string]*IdemRecord{}
	}
	for _, r := range records {
		s.Idem[r.Scope] = r
	}
}

// Exists reports whether the entity holds anything: an order or a stored
// answer (a refused accept under an Idempotency-Key).
func (s *OrderState) Exists() bool { return s.Order != nil || len(s.Idem) > 0 }

// clone copies the idempotency map; rows are immutable and shared.
func (s *OrderState) cloneIdem() map[string]*IdemRecord { return maps.Clone(s.Idem) }
