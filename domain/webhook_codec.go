package domain

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// MarshalEndpoint encodes an endpoint row; field numbers are the format.
func MarshalEndpoint(dst []byte, e *Endpoint) []byte {
	dst = appendString(dst, 1, e.ID)
	dst = appendString(dst, 2, e.Account)
	dst = appendString(dst, 3, e.URL)
	for _, t := range e.Events {
		dst = appendString(dst, 4, t)
	}
	dst = appendString(dst, 5, e.Description)
	dst = appendString(dst, 6, e.State)
	for i := range e.Secrets {
		s := &e.Secrets[i]
		dst = appendMessage(dst, 7, false, func(b []byte) []byte {
			b = appendBytes(b, 1, s.Sealed)
			return appendTime(b, 2, s.RetiresAt)
		})
	}
	dst = appendUint(dst, 8, uint64(e.Failures))
	dst = appendTime(dst, 9, e.CreatedAt)
	return appendTime(dst, 10, e.UpdatedAt)
}

// UnmarshalEndpoint decodes an endpoint row; it never panics on bad input.
func UnmarshalEndpoint(b []byte) (*Endpoint, error) {
	e := &Endpoint{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			e.ID = string(v.b)
		case 2:
			e.Account = string(v.b)
		case 3:
			e.URL = string(v.b)
		case 4:
			if len(e.Events) > len(EventTypes) {
				return fmt.Errorf("more than %d event types", len(EventTypes)+1)
			}
			e.Events = append(e.Events, string(v.b))
		case 5:
			e.Description = string(v.b)
		case 6:
			e.State = string(v.b)
		case 7:
			if len(e.Secrets) >= 2 {
				return fmt.Errorf("more than 2 secrets")
			}
			var s SealedSecret
			err := walk(v.b, func(num protowire.Number, v value) error {
				switch num {
				case 1:
					s.Sealed = append([]byte(nil), v.b...)
				case 2:
					s.RetiresAt = v.time()
				}
				return nil
			})
			e.Secrets = append(e.Secrets, s)
			return err
		case 8:
			if v.u > MaxConsecutiveFailures*1000 {
				return fmt.Errorf("failure count %d", v.u)
			}
			e.Failures = int(v.u)
		case 9:
			e.CreatedAt = v.time()
		case 10:
			e.UpdatedAt = v.time()
		}
		return nil
	})
	if err == nil && (e.State != EndpointEnabled && e.State != EndpointDisabled && e.State != EndpointDeleted || len(e.Secrets) == 0) {
		err = fmt.Errorf("%w: endpoint %s has state %q and %d secrets", errCodec, e.ID, e.State, len(e.Secrets))
	}
	if err = requireID(err, e.ID, "webhook endpoint"); err != nil {
		return nil, err
	}
	return e, nil
}

// MarshalWebhookEvent encodes an event row; field numbers are the format.
func MarshalWebhookEvent(dst []byte, w *WebhookEvent) []byte {
	dst = appendString(dst, 1, w.ID)
	dst = appendString(dst, 2, w.Account)
	dst = appendString(dst, 3, w.Type)
	dst = appendTime(dst, 4, w.CreatedAt)
	dst = appendBytes(dst, 5, w.Body)
	dst = appendString(dst, 6, w.Source)
	dst = appendBool(dst, 7, w.FannedOut)
	for i := range w.Deliveries {
		dst = appendMessage(dst, 8, false, func(b []byte) []byte { return marshalDelivery(b, &w.Deliveries[i]) })
	}
	return appendTime(dst, 9, w.UpdatedAt)
}

// UnmarshalWebhookEvent decodes an event row; it never panics on bad input.
func UnmarshalWebhookEvent(b []byte) (*WebhookEvent, error) {
	w := &WebhookEvent{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			w.ID = string(v.b)
		case 2:
			w.Account = string(v.b)
		case 3:
			w.Type = string(v.b)
		case 4:
			w.CreatedAt = v.time()
		case 5:
			w.Body = append([]byte(nil), v.b...)
		case 6:
			w.Source = string(v.b)
		case 7:
			w.FannedOut = v.u != 0
		case 8:
			if len(w.Deliveries) >= MaxDeliveriesPerEvent {
				return fmt.Errorf("more than %d deliveries", MaxDeliveriesPerEvent)
			}
			d, err := unmarshalDelivery(v.b)
			w.Deliveries = append(w.Deliveries, d)
			return err
		case 9:
			w.UpdatedAt = v.time()
		}
		return nil
	})
	if err == nil && (w.Account == "" || len(w.Body) == 0 || !KnownEventType(w.Type)) {
		err = fmt.Errorf("%w: event %s without account, body or known type", errCodec, w.ID)
	}
	if err = requireID(err, w.ID, "event"); err != nil {
		return nil, err
	}
	return w, nil
}

func marshalDelivery(dst []byte, d *Delivery) []byte {
	dst = appendString(dst, 1, d.ID)
	dst = appendString(dst, 2, d.Endpoint)
	dst = appendString(dst, 3, d.State)
	dst = appendTime(dst, 4, d.NextAt)
	for i := range d.Attempts {
		a := &d.Attempts[i]
		dst = appendMessage(dst, 5, false, func(b []byte) []byte {
			b = appendUint(b, 1, uint64(a.N))
			b = appendUint(b, 2, uint64(a.StatusCode))
			b = appendString(b, 3, a.Error)
			b = appendUint(b, 4, uint64(a.DurationMs))
			return appendTime(b, 5, a.At)
		})
	}
	return dst
}

func unmarshalDelivery(b []byte) (Delivery, error) {
	var d Delivery
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			d.ID = string(v.b)
		case 2:
			d.Endpoint = string(v.b)
		case 3:
			d.State = string(v.b)
		case 4:
			d.NextAt = v.time()
		case 5:
			if len(d.Attempts) >= MaxAttemptsPerDelivery {
				return fmt.Errorf("more than %d attempts", MaxAttemptsPerDelivery)
			}
			a, err := unmarshalAttempt(v.b)
			d.Attempts = append(d.Attempts, a)
			return err
		}
		return nil
	})
	if err == nil && (d.ID == "" || d.Endpoint == "" || d.State != DeliveryPending && d.State != DeliveryDelivered && d.State != DeliveryFailed) {
		err = fmt.Errorf("%w: delivery %q without endpoint or with state %q", errCodec, d.ID, d.State)
	}
	return d, err
}

func unmarshalAttempt(b []byte) (Attempt, error) {
	var a Attempt
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			a.N = int(min(v.u, MaxAttemptsPerDelivery))
		case 2:
			a.StatusCode = int(min(v.u, 999))
		case 3:
			a.Error = string(v.b)
		case 4:
			a.DurationMs = int64(min(v.u, 1<<40))
		case 5:
			a.At = v.time()
		}
		return nil
	})
	return a, err
}
