package domain

import (
	"fmt"
	"time"
)

// MaxIdemPerOrder bounds the idempotency records one order keeps: the
// accept and the submits of one order, each under its own key.
const MaxIdemPerOrder = 64

// Handle runs req through the order's idempotency store and Decide, and
// returns the events: EvOrderPut rows, then the EvIdemPut. Requests aimed at
// one order (accept, submit) keep their stored answers in that order's
// entity, written in the same log record as its rows.
func (s *OrderState) Handle(req Request, env Env) Outcome {
	return s.Idem.Handle(req.Idem, env, MaxIdemPerOrder, "order", func() ([]Event, Reply, *Error) {
		prev := ""
		if s.Order != nil {
			prev = s.Order.EventID
		}
		rows, reply, err := s.Decide(req.Cmd, env)
		return OrderEvents(prev, rows), reply, err
	})
}

// InFlight is IdemStore.InFlight against the committed order state.
func (s *OrderState) InFlight(committed Entity, scope string, now time.Time) bool {
	return s.Idem.InFlight(&committed.(*OrderState).Idem, scope, now)
}

// Apply applies one event of an order record: a row or a stored answer.
func (s *OrderState) Apply(e *Event) {
	switch e.Kind {
	case EvOrderPut:
		s.applyRow(e.Order)
	case EvWebhookEventPut: // born in this record; the event entity and the store hold it
	case EvIdemPut:
		s.Idem.Put(e.Idem)
	default:
		panic(fmt.Sprintf("domain: apply of event kind %s to an order", e.Kind))
	}
}

// Exists reports whether the entity holds anything: an order or a stored
// answer (a refused accept under an Idempotency-Key).
func (s *OrderState) Exists() bool { return s.Order != nil || s.Idem.Len() > 0 }
