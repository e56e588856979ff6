package domain

// Per-account limits. Each is a stated bound on memory an account can hold;
// reaching one is a clear refusal, never growth.
const (
	MaxKeysPerAccount     = 1000
	MaxContactsPerAccount = 10000
	// MaxIdemPerAccount bounds live idempotency records (24 h retention).
	// At 120 writes/min a key stores at most 172,800 a day; an account with
	// many busy keys may meet this bound and gets 503 until records expire.
	MaxIdemPerAccount = 500_000
	// MaxStoredReplyBytes bounds the body kept for a replay.
	MaxStoredReplyBytes = 64 << 10
	maxNameRunes        = 100
	maxMemoRunes        = 140
)
