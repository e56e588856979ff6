package httpd

import (
	crand "crypto/rand"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/valyala/fasthttp"
)

// Request ids.
//
// Every answer, of either listener, carries "Request-Id: req_" followed by
// 26 characters of the ids package's alphabet (Crockford base32) holding
// 128 random bits: an id names one answer, and nobody can guess another
// answer's id from it. The server's log lines about a request name the
// same id (request_id), so a caller quoting it finds the line.
//
// The bits come from ChaCha8 generators (math/rand/v2: cryptographically
// strong) each seeded from crypto/rand, kept in a sync.Pool, which is per
// P: an id costs two 64-bit draws, no lock and no allocation. The ids
// package's generator is made for records (time-sortable, a partition, a
// global lock and a crypto/rand read per id, a string per id); an answer
// needs none of that, and it is on every request.

// RequestIDHeader is the answer header naming the request.
const RequestIDHeader = "Request-Id"

const (
	requestIDPrefix = "req_"
	// requestIDChars is 128 bits in base32: 26 characters (the first
	// carries 3 bits, the rest 5).
	requestIDChars = 26
	requestIDLen   = len(requestIDPrefix) + requestIDChars
	// requestIDAlphabet is the ids package's alphabet.
	requestIDAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
)

var requestIDHeaderKey = []byte(RequestIDHeader)

// idSources are the pooled generators. A pool may drop them at a GC; a
// new one is seeded afresh, so no two generators share a stream.
var idSources = sync.Pool{New: func() any {
	var seed [32]byte
	_, _ = crand.Read(seed[:]) // never fails: crypto/rand crashes the program instead
	return rand.NewChaCha8(seed)
}}

// appendRequestID appends a fresh request id to b: 128 random bits as 26
// characters, 5 bits each but the first (3 bits); each 64-bit draw fills
// 12 characters from its low 60 bits, its top 4 bits join the other's in
// the first two.
func appendRequestID(b []byte) []byte {
	src := idSources.Get().(*rand.ChaCha8)
	hi, lo := src.Uint64(), src.Uint64()
	idSources.Put(src)
	b = append(b, requestIDPrefix...)
	n := len(b)
	b = slices.Grow(b, requestIDChars)[:n+requestIDChars]
	out := b[n:]
	top := hi>>60<<4 | lo>>60
	out[0], out[1] = requestIDAlphabet[top>>5], requestIDAlphabet[top&31]
	for i := range 12 {
		out[2+i] = requestIDAlphabet[hi>>(5*i)&31]
		out[14+i] = requestIDAlphabet[lo>>(5*i)&31]
	}
	return b
}

// newRequestID is a fresh request id as a string (the admin listener's).
func newRequestID() string {
	return string(appendRequestID(make([]byte, 0, requestIDLen)))
}

// setRequestID gives a fasthttp answer a fresh Request-Id. The header
// copies the value into its own reused buffer, so this allocates nothing.
func setRequestID(h *fasthttp.ResponseHeader) {
	var buf [requestIDLen]byte
	h.SetCanonical(requestIDHeaderKey, appendRequestID(buf[:0]))
}

// answerRequestID is the Request-Id set on a fasthttp answer ("" if none),
// copied: for log lines, off the hot path.
func answerRequestID(ctx *fasthttp.RequestCtx) string {
	return string(ctx.Response.Header.PeekCanonical(requestIDHeaderKey))
}
