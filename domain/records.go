package domain

import "time"

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
type IdemRecord struct {
	Scope     string // IdemScope(key id, method, path, idempotency key)
	BodyHash  [32]byte
	Status    int
	Body      []byte
	CreatedAt time.Time
}

// IdemScope is the identity of an idempotent request: CONTRACT.md scopes an
// Idempotency-Key to (key_id, method, path). NUL cannot appear in any part
// (keys are printable ASCII, paths are validated), so the join is unambiguous.
func IdemScope(keyID, method, path, key string) string {
	return keyID + "\x00" + method + "\x00" + path + "\x00" + key
}

// IdemRetention is how long an idempotent answer is replayed (SPEC.md: 24 h).
const IdemRetention = 24 * time.Hour
