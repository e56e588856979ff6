package domain

import (
	"encoding/base64"
	"time"
)

// KYC statuses of an account.
const (
	KYCApproved = "approved"
	KYCPending  = "pending"
	KYCRejected = "rejected"
)

// Account is the profile row of an account.
type Account struct {
	ID        string
	Name      string
	KYC       string
	Swap      bool // permitted to trade FX (launch access)
	Pay       bool // permitted to pay (transfers, payment links)
	Env       string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// APIKey is one Ed25519 key registered for an account. The private key never
// reaches the service.
type APIKey struct {
	ID        string // svc_test_… or svc_live_…
	Account   string
	PublicKey []byte // 32 bytes
	Scopes    Scopes
	Revoked   bool
	CreatedAt time.Time
	RevokedAt time.Time // zero unless revoked
}

// Contact is a saved payout recipient.
type Contact struct {
	ID        string
	Account   string
	Name      string
	Address   string // EIP-55 checksummed
	Currency  string // "" when not pinned to a currency
	Memo      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// IdemRecord is the stored answer to a request made with an Idempotency-Key.
// It lives in the same log record as the events the request caused, so the
// effects and the replay answer are durable together or not at all.
//
// A signature guard (IdemRequest.Until) is stored as a record too, under
// GuardScope, with its Until and without the answer: a second use of the
// signature is refused, not answered again.
type IdemRecord struct {
	Scope     string // IdemScope(key id, method, path, idempotency key)
	BodyHash  [32]byte
	Status    int
	Body      []byte
	CreatedAt time.Time
	Until     time.Time // a guard's end; zero for an Idempotency-Key's answer
}

// Guard reports whether r is a signature guard.
func (r *IdemRecord) Guard() bool { return !r.Until.IsZero() }

// ExpiresAt is when r stops counting: a guard's Until, else the
// retention after its creation.
func (r *IdemRecord) ExpiresAt() time.Time {
	if r.Guard() {
		return r.Until
	}
	return r.CreatedAt.Add(IdemRetention)
}

// live reports whether r still counts at now.
func (r *IdemRecord) live(now time.Time) bool { return now.Before(r.ExpiresAt()) }

// IdemScope is the identity of an idempotent request: CONTRACT.md scopes an
// Idempotency-Key to (key_id, method, path). NUL cannot appear in any part
// (keys are printable ASCII, paths are validated), so the join is unambiguous.
func IdemScope(keyID, method, path, key string) string {
	return keyID + "\x00" + method + "\x00" + path + "\x00" + key
}

// GuardScope is the scope of a signature guard: the key, method and path
// of IdemScope and the signature (unpadded standard base64 of its 64
// bytes, one spelling however the header spelt it), behind a 0x01 byte no
// Idempotency-Key can start with (keys are printable ASCII), so the two
// never meet.
func GuardScope(keyID, method, path string, sig *[64]byte) string {
	return IdemScope(keyID, method, path, "\x01"+base64.RawStdEncoding.EncodeToString(sig[:]))
}

// IdemRetention is how long an idempotent answer is replayed (SPEC.md: 24 h).
const IdemRetention = 24 * time.Hour
