// Package secret keeps webhook endpoint secrets encrypted at rest
// (CONTRACT.md "Webhooks"): AES-256-GCM under a 32-byte master key that the
// operator gives as base64 text, in env SVC_WEBHOOK_MASTER_KEY or in a 0600
// file (--webhook-master-key-file).
//
// The master key can be rotated: a Sealer is a keyring of the current key,
// which seals, and up to MaxPreviousKeys previous keys (env
// SVC_WEBHOOK_PREVIOUS_MASTER_KEYS or --webhook-previous-master-keys-file),
// which only open what was sealed before the rotation, until the webhook
// desk has resealed it under the current key (POST /admin/webhooks/reseal).
//
// A sealed value is, in format 2 (every value Seal writes):
//
//	version (1 byte, 0x02) | key id (8 bytes) | nonce (12 random bytes) | GCM ciphertext and tag
//
// where the key id is the first 8 bytes of SHA-256("fxd webhook master key
// id v1" || key), so Open knows which key to use. Format 1, written before
// rotation existed, is
//
//	version (1 byte, 0x01) | nonce (12 random bytes) | GCM ciphertext and tag
//
// and names no key: Open tries the current key, then each previous one.
// The version byte and key id are authenticated (additional data), and so
// is the caller's additional data (the endpoint id), so a sealed secret
// copied onto another endpoint's record does not open.
//
// Without a master key the service still runs; its webhook routes answer
// 503 webhook_encryption_unavailable (ErrNoMasterKey).
package secret
