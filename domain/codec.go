package domain

import (
	"errors"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// The log and the snapshot store hold records and rows in a hand-written
// protobuf wire encoding (protowire: no generated code, no reflection). Field
// numbers are the format; add new fields with new numbers, never reuse one.
// recordVersion is bumped only for a change old readers must refuse.
const recordVersion = 1

var errCodec = errors.New("domain: bad encoding")

// MarshalRecord appends the encoding of r to dst. Events and their rows
// are encoded in place (appendMessage), so a record costs no allocation
// beyond dst's own growth.
func MarshalRecord(dst []byte, r *Record) []byte {
	dst = protowire.AppendTag(dst, 1, protowire.VarintType)
	dst = protowire.AppendVarint(dst, recordVersion)
	dst = appendString(dst, 2, r.Entity)
	for i := range r.Events {
		dst = appendMessage(dst, 3, false, func(b []byte) []byte { return MarshalEvent(b, &r.Events[i]) })
	}
	return dst
}

// appendMessage appends field num holding the bytes that body appends (a
// nested message), without building them in a buffer of their own: it
// reserves one length byte, lets body append after it, and shifts the body
// right in the rare case its length needs a longer varint. With omitEmpty,
// a body that appends nothing leaves no field at all.
func appendMessage(dst []byte, num protowire.Number, omitEmpty bool, body func([]byte) []byte) []byte {
	start := len(dst)
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	at := len(dst)
	dst = append(dst, 0)
	dst = body(dst)
	n := len(dst) - at - 1
	if n == 0 && omitEmpty {
		return dst[:start]
	}
	size := protowire.SizeVarint(uint64(n))
	if size > 1 {
		var pad [9]byte
		dst = append(dst, pad[:size-1]...)
		copy(dst[at+size:], dst[at+1:at+1+n])
	}
	protowire.AppendVarint(dst[at:at], uint64(n))
	return dst
}

// UnmarshalRecord decodes a record; it never panics on bad input.
func UnmarshalRecord(b []byte) (Record, error) {
	var r Record
	var version uint64
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			version = v.u
		case 2:
			r.Entity = string(v.b)
		case 3:
			if len(r.Events) >= MaxEventsPerRecord {
				return fmt.Errorf("more than %d events", MaxEventsPerRecord)
			}
			e, err := UnmarshalEvent(v.b)
			if err != nil {
				return err
			}
			r.Events = append(r.Events, e)
		}
		return nil
	})
	if err != nil {
		return Record{}, err
	}
	if version != recordVersion {
		return Record{}, fmt.Errorf("%w: record version %d, want %d", errCodec, version, recordVersion)
	}
	return r, nil
}

// MarshalEvent appends the encoding of e to dst.
func MarshalEvent(dst []byte, e *Event) []byte {
	dst = protowire.AppendTag(dst, 1, protowire.VarintType)
	dst = protowire.AppendVarint(dst, uint64(e.Kind))
	var row func([]byte) []byte
	switch e.Kind {
	case EvAccountPut:
		row = func(b []byte) []byte { return MarshalAccount(b, e.Account) }
	case EvKeyPut:
		row = func(b []byte) []byte { return MarshalKey(b, e.Key) }
	case EvContactPut:
		row = func(b []byte) []byte { return MarshalContact(b, e.Contact) }
	case EvIdemPut:
		row = func(b []byte) []byte { return MarshalIdem(b, e.Idem) }
	case EvWalletPut:
		row = func(b []byte) []byte { return MarshalWallet(b, e.Wallet) }
	case EvChallengePut:
		row = func(b []byte) []byte { return MarshalChallenge(b, e.Challenge) }
	case EvOrderPut:
		row = func(b []byte) []byte { return MarshalOrder(b, e.Order) }
	case EvTransferPut:
		row = func(b []byte) []byte { return MarshalTransfer(b, e.Transfer) }
	case EvClaimPut:
		row = func(b []byte) []byte { return MarshalClaim(b, e.Claim) }
	case EvLinkPut:
		row = func(b []byte) []byte { return MarshalLink(b, e.Link) }
	case EvEndpointPut:
		row = func(b []byte) []byte { return MarshalEndpoint(b, e.Endpoint) }
	case EvWebhookEventPut:
		row = func(b []byte) []byte { return MarshalWebhookEvent(b, e.WebhookEvent) }
	case EvContactDeleted, EvWalletDeleted, EvChallengeDeleted, EvMetaPut:
	default:
		panic(fmt.Sprintf("domain: marshal of unknown event kind %d", e.Kind))
	}
	if row != nil {
		dst = appendMessage(dst, 2, true, row)
	}
	dst = appendString(dst, 3, e.ID)
	return appendString(dst, 4, e.Value)
}

// UnmarshalEvent decodes one event and checks that it carries its row.
func UnmarshalEvent(b []byte) (Event, error) {
	var e Event
	var row []byte
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			if v.u > math.MaxUint8 { // EventKind(v.u) would alias it to a known kind
				return fmt.Errorf("unknown event kind %d", v.u)
			}
			e.Kind = EventKind(v.u)
		case 2:
			row = v.b
		case 3:
			e.ID = string(v.b)
		case 4:
			e.Value = string(v.b)
		}
		return nil
	})
	if err != nil {
		return Event{}, err
	}
	switch e.Kind {
	case EvAccountPut:
		e.Account, err = UnmarshalAccount(row)
	case EvKeyPut:
		e.Key, err = UnmarshalKey(row)
	case EvContactPut:
		e.Contact, err = UnmarshalContact(row)
	case EvIdemPut:
		e.Idem, err = UnmarshalIdem(row)
	case EvWalletPut:
		e.Wallet, err = UnmarshalWallet(row)
	case EvChallengePut:
		e.Challenge, err = UnmarshalChallenge(row)
	case EvOrderPut:
		e.Order, err = UnmarshalOrder(row)
	case EvTransferPut:
		e.Transfer, err = UnmarshalTransfer(row)
	case EvClaimPut:
		e.Claim, err = UnmarshalClaim(row)
	case EvLinkPut:
		e.Link, err = UnmarshalLink(row)
	case EvEndpointPut:
		e.Endpoint, err = UnmarshalEndpoint(row)
	case EvWebhookEventPut:
		e.WebhookEvent, err = UnmarshalWebhookEvent(row)
	case EvContactDeleted, EvWalletDeleted, EvChallengeDeleted, EvMetaPut:
		if e.ID == "" {
			err = fmt.Errorf("%w: %s without id", errCodec, e.Kind)
		}
	default:
		err = fmt.Errorf("%w: unknown event kind %d", errCodec, e.Kind)
	}
	if err != nil {
		return Event{}, err
	}
	return e, nil
}

// MarshalAccount encodes an account row.
func MarshalAccount(dst []byte, a *Account) []byte {
	dst = appendString(dst, 1, a.ID)
	dst = appendString(dst, 2, a.Name)
	dst = appendString(dst, 3, a.KYC)
	dst = appendBool(dst, 4, a.Swap)
	dst = appendBool(dst, 5, a.Pay)
	dst = appendString(dst, 6, a.Env)
	dst = appendTime(dst, 7, a.CreatedAt)
	return appendTime(dst, 8, a.UpdatedAt)
}

// UnmarshalAccount decodes an account row.
func UnmarshalAccount(b []byte) (*Account, error) {
	a := &Account{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			a.ID = string(v.b)
		case 2:
			a.Name = string(v.b)
		case 3:
			a.KYC = string(v.b)
		case 4:
			a.Swap = v.u != 0
		case 5:
			a.Pay = v.u != 0
		case 6:
			a.Env = string(v.b)
		case 7:
			a.CreatedAt = v.time()
		case 8:
			a.UpdatedAt = v.time()
		}
		return nil
	})
	return a, requireID(err, a.ID, "account")
}

// MarshalKey encodes an API key row.
func MarshalKey(dst []byte, k *APIKey) []byte {
	dst = appendString(dst, 1, k.ID)
	dst = appendString(dst, 2, k.Account)
	dst = appendBytes(dst, 3, k.PublicKey)
	dst = appendUint(dst, 4, uint64(k.Scopes))
	dst = appendBool(dst, 5, k.Revoked)
	dst = appendTime(dst, 6, k.CreatedAt)
	return appendTime(dst, 7, k.RevokedAt)
}

// UnmarshalKey decodes an API key row.
func UnmarshalKey(b []byte) (*APIKey, error) {
	k := &APIKey{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			k.ID = string(v.b)
		case 2:
			k.Account = string(v.b)
		case 3:
			k.PublicKey = append([]byte(nil), v.b...)
		case 4:
			k.Scopes = Scopes(v.u)
		case 5:
			k.Revoked = v.u != 0
		case 6:
			k.CreatedAt = v.time()
		case 7:
			k.RevokedAt = v.time()
		}
		return nil
	})
	if err == nil && len(k.PublicKey) != 32 {
		err = fmt.Errorf("%w: key %s public key has %d bytes", errCodec, k.ID, len(k.PublicKey))
	}
	return k, requireID(err, k.ID, "key")
}

// MarshalContact encodes a contact row.
func MarshalContact(dst []byte, c *Contact) []byte {
	dst = appendString(dst, 1, c.ID)
	dst = appendString(dst, 2, c.Account)
	dst = appendString(dst, 3, c.Name)
	dst = appendString(dst, 4, c.Address)
	dst = appendString(dst, 5, c.Currency)
	dst = appendString(dst, 6, c.Memo)
	dst = appendTime(dst, 7, c.CreatedAt)
	return appendTime(dst, 8, c.UpdatedAt)
}

// UnmarshalContact decodes a contact row.
func UnmarshalContact(b []byte) (*Contact, error) {
	c := &Contact{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			c.ID = string(v.b)
		case 2:
			c.Account = string(v.b)
		case 3:
			c.Name = string(v.b)
		case 4:
			c.Address = string(v.b)
		case 5:
			c.Currency = string(v.b)
		case 6:
			c.Memo = string(v.b)
		case 7:
			c.CreatedAt = v.time()
		case 8:
			c.UpdatedAt = v.time()
		}
		return nil
	})
	return c, requireID(err, c.ID, "contact")
}

// MarshalIdem encodes an idempotency record.
func MarshalIdem(dst []byte, r *IdemRecord) []byte {
	dst = appendString(dst, 1, r.Scope)
	dst = appendBytes(dst, 2, r.BodyHash[:])
	dst = appendUint(dst, 3, uint64(r.Status))
	dst = appendBytes(dst, 4, r.Body)
	dst = appendTime(dst, 5, r.CreatedAt)
	return appendTime(dst, 6, r.Until) // zero (absent) for an answer
}

// UnmarshalIdem decodes an idempotency record.
func UnmarshalIdem(b []byte) (*IdemRecord, error) {
	r := &IdemRecord{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			r.Scope = string(v.b)
		case 2:
			if len(v.b) != 32 {
				return fmt.Errorf("body hash has %d bytes", len(v.b))
			}
			copy(r.BodyHash[:], v.b)
		case 3:
			r.Status = int(v.u)
		case 4:
			r.Body = append([]byte(nil), v.b...)
		case 5:
			r.CreatedAt = v.time()
		case 6:
			r.Until = v.time()
		}
		return nil
	})
	return r, requireID(err, r.Scope, "idempotency record")
}

// MarshalWallet encodes a wallet row.
func MarshalWallet(dst []byte, w *Wallet) []byte {
	dst = appendString(dst, 1, w.Address)
	dst = appendString(dst, 2, w.Account)
	dst = appendBool(dst, 3, w.Primary)
	dst = appendString(dst, 4, w.Label)
	dst = appendTime(dst, 5, w.CreatedAt)
	return appendTime(dst, 6, w.UpdatedAt)
}

// UnmarshalWallet decodes a wallet row.
func UnmarshalWallet(b []byte) (*Wallet, error) {
	w := &Wallet{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			w.Address = string(v.b)
		case 2:
			w.Account = string(v.b)
		case 3:
			w.Primary = v.u != 0
		case 4:
			w.Label = string(v.b)
		case 5:
			w.CreatedAt = v.time()
		case 6:
			w.UpdatedAt = v.time()
		}
		return nil
	})
	return w, requireID(err, w.Address, "wallet")
}

// MarshalChallenge encodes a SIWE challenge row.
func MarshalChallenge(dst []byte, c *Challenge) []byte {
	dst = appendString(dst, 1, c.Nonce)
	dst = appendString(dst, 2, c.Address)
	dst = appendString(dst, 3, c.Message)
	dst = appendTime(dst, 4, c.CreatedAt)
	return appendTime(dst, 5, c.ExpiresAt)
}

// UnmarshalChallenge decodes a SIWE challenge row.
func UnmarshalChallenge(b []byte) (*Challenge, error) {
	c := &Challenge{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			c.Nonce = string(v.b)
		case 2:
			c.Address = string(v.b)
		case 3:
			c.Message = string(v.b)
		case 4:
			c.CreatedAt = v.time()
		case 5:
			c.ExpiresAt = v.time()
		}
		return nil
	})
	return c, requireID(err, c.Nonce, "challenge")
}

func requireID(err error, id, what string) error {
	if err == nil && id == "" {
		return fmt.Errorf("%w: %s without id", errCodec, what)
	}
	return err
}

// value is one decoded field: varints in u, length-delimited bytes in b.
type value struct {
	u uint64
	b []byte
}

func (v value) time() time.Time { return time.Unix(0, protowire.DecodeZigZag(v.u)).UTC() }

// walk calls fn for every field of b. Unknown field numbers are passed to fn
// (which ignores them), so newer writers stay readable; wire types other than
// varint and bytes are refused because we never write them.
func walk(b []byte, fn func(protowire.Number, value) error) error {
	if len(b) > MaxRowBytes*MaxEventsPerRecord {
		return fmt.Errorf("%w: %d bytes", errCodec, len(b))
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("%w: %v", errCodec, protowire.ParseError(n))
		}
		b = b[n:]
		var v value
		switch typ {
		case protowire.VarintType:
			v.u, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			v.b, n = protowire.ConsumeBytes(b)
		default:
			return fmt.Errorf("%w: field %d has wire type %d", errCodec, num, typ)
		}
		if n < 0 {
			return fmt.Errorf("%w: field %d: %v", errCodec, num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(num, v); err != nil {
			return fmt.Errorf("%w: field %d: %v", errCodec, num, err)
		}
	}
	return nil
}

func appendString(dst []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return dst
	}
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	return protowire.AppendString(dst, s)
}

func appendBytes(dst []byte, num protowire.Number, b []byte) []byte {
	if len(b) == 0 {
		return dst
	}
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	return protowire.AppendBytes(dst, b)
}

func appendUint(dst []byte, num protowire.Number, u uint64) []byte {
	if u == 0 {
		return dst
	}
	dst = protowire.AppendTag(dst, num, protowire.VarintType)
	return protowire.AppendVarint(dst, u)
}

func appendBool(dst []byte, num protowire.Number, b bool) []byte {
	if !b {
		return dst
	}
	return appendUint(dst, num, 1)
}

// appendTime stores unix nanoseconds (zigzag); the zero time is omitted and
// reads back as the zero time.
func appendTime(dst []byte, num protowire.Number, t time.Time) []byte {
	if t.IsZero() {
		return dst
	}
	dst = protowire.AppendTag(dst, num, protowire.VarintType)
	return protowire.AppendVarint(dst, protowire.EncodeZigZag(t.UnixNano()))
}
