package reqsig

import (
	"crypto/ed25519"
	"sync"

	voied "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// verifyOptions makes curve25519-voi accept exactly what crypto/ed25519
// accepts (cofactorless equation, byte-compared R, small-order and
// non-canonical A allowed, S < L required). We verify with voi rather than
// the standard library because it is the one cost every signed request
// pays: on the bench machine (AMD EPYC, AVX2) a verify took 44 µs with
// crypto/ed25519 and 31 µs with voi (BenchmarkVerify, 2026-11-28), and
// Ed25519 was 39% of a write's and 68% of a quote's server CPU. Signing
// stays with the standard library. TestVerifyMatchesStdlib and
// FuzzVerifyMatchesStdlib hold the two to the same answers.
var verifyOptions = &voied.Options{Verify: voied.VerifyOptionsStdLib}

// verifySig is the one Ed25519 check of a request signature, under the
// expanded form of pub (expanded.go).
func verifySig(pub ed25519.PublicKey, msg []byte, sig *[ed25519.SignatureSize]byte) bool {
	x := expandedKey(pub)
	return x != nil && voied.VerifyExpandedWithOptions(x, msg, sig[:], verifyOptions)
}

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
		return verifySig(pub, msg, sig)
	}
	bp := bufPool.Get().(*[]byte)
	msg := AppendCanonical((*bp)[:0], timestamp, method, target, body)
	ok := verifySig(pub, msg, sig)
	if cap(msg) <= maxPooledCanonical {
		*bp = msg[:0]
		bufPool.Put(bp)
	}
	return ok
}
