package reqsig

// Header names of an authenticated request. HTTP header names are
// case-insensitive; these are the spellings of SPEC.md.
const (
	// HeaderKey carries the key_id of the signing key.
	HeaderKey = "SVC-API-KEY"
	// HeaderTimestamp carries the unix time in seconds that was signed.
	HeaderTimestamp = "SVC-TIMESTAMP"
	// HeaderSignature carries the base64 Ed25519 signature.
	HeaderSignature = "SVC-SIGNATURE"
)
