// Package secret keeps webhook endpoint secrets encrypted at rest
// (CONTRACT.md "Webhooks"): AES-256-GCM under a 32-byte master key that the
// operator gives as base64 text, in env SVC_WEBHOOK_MASTER_KEY or in a 0600
// file (--webhook-master-key-file).
//
// A sealed value is
//
//	version (1 byte, 0x01) | nonce (12 random bytes) | GCM ciphertext and tag
//
// The version byte names the master key that sealed the value, so a key
// rotation can be added later without guessing; it is also authenticated.
// The caller's additional data (the endpoint id) is authenticated too, so a
// sealed secret copied onto another endpoint's record does not open.
//
// Without a master key the service still runs; its webhook routes answer
// 503 webhook_encryption_unavailable (ErrNoMasterKey).
package secret
