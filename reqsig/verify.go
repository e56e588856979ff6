package reqsig

import (
	"crypto/ed25519"
	"sync"
)

// canonicalStackSize bounds the canonical strings built on the stack. It
// covers a 12-digit timestamp, any method, a 400-byte target and the body
// hash; longer targets take a pooled buffer instead.
const canonicalStackSize = 512

// maxPooledCanonical is the largest buffer returned to the pool, so one
// huge request target cannot pin a huge buffer for the life of the process.
const maxPooledCanonical = 16 << 10

// bufPool holds canonical-string buffers for targets too long for the stack.
var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 2*canonicalStackSize)
	return &b
}}

// Verify reports whether sigB64 is a valid SVC-SIGNATURE for the request
// under pub. Every input is untrusted header/request bytes: Verify never
// panics and returns false for a malformed key, a non-canonical or
// wrong-length signature encoding, or a mismatch.
//
// It allocates nothing itself for targets up to ~400 bytes (the canonical
// string is built on the stack) and uses a sync.Pool beyond that.
func Verify(pub ed25519.PublicKey, timestamp, method, target, body, sigB64 []byte) bool {
	var sig [ed25519.SignatureSize]byte
	if !DecodeSignature(&sig, sigB64) {
		return false
	}
	return VerifyDecoded(pub, timestamp, method, target, body, &sig)
}

// VerifyDecoded is Verify for a signature already decoded with
// DecodeSignature; the server decodes once and uses the bytes for both the
// check and the replay cache.
func VerifyDecoded(pub ed25519.PublicKey, timestamp, method, target, body []byte, sig *[ed25519.SignatureSize]byte) bool {
	if len(pub) != ed25519.PublicKeySize {
		return false
	}
	need := CanonicalLen(timestamp, method, target)
	if need <= canonicalStackSize {
		var stack [canonicalStackSize]byte
		msg := AppendCanonical(stack[:0], timestamp, method, target, body)
		return ed25519.Verify(pub, msg, sig[:])
	}
	bp := bufPool.Get().(*[]byte)
	msg := AppendCanonical((*bp)[:0], timestamp, method, target, body)
	ok := ed25519.Verify(pub, msg, sig[:])
	if cap(msg) <= maxPooledCanonical {
		*bp = msg[:0]
		bufPool.Put(bp)
	}
	return ok
}
