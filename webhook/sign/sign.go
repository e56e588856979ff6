package sign

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxKeys bounds the signatures of one delivery: the current key and, for
// the 24 hours after a rotation, the previous one (a second rotation drops
// the oldest, CONTRACT.md "Webhooks").
const MaxKeys = 2

// signatureLen is the length of one "v1,<base64 of 32 bytes>" value.
const signatureLen = len("v1,") + 44

// Sign returns the webhook-signature value of one key: "v1," and the
// standard base64 of HMAC-SHA256(key, id + "." + ts + "." + body). The
// timestamp is signed in its decimal spelling, as webhook-timestamp sends it.
func Sign(key []byte, id string, ts int64, body []byte) string {
	var buf [signatureLen]byte
	return string(appendSignature(buf[:0], key, id, ts, body))
}

// Header returns the webhook-signature header for keys, newest first: one
// "v1,…" value per key, separated by single spaces. It refuses no key (a
// delivery nobody can verify) and more than MaxKeys (a rotation bug that
// would otherwise grow every delivery).
func Header(keys [][]byte, id string, ts int64, body []byte) (string, error) {
	if len(keys) == 0 {
		return "", errors.New("sign: header: no key")
	}
	if len(keys) > MaxKeys {
		return "", fmt.Errorf("sign: header: %d keys, at most %d", len(keys), MaxKeys)
	}
	var b strings.Builder
	b.Grow(len(keys) * (signatureLen + 1))
	var buf [signatureLen]byte
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.Write(appendSignature(buf[:0], k, id, ts, body))
	}
	return b.String(), nil
}

// appendSignature appends the "v1,…" value to dst. The signed content is
// fed to the MAC piece by piece, so the body is never copied.
func appendSignature(dst, key []byte, id string, ts int64, body []byte) []byte {
	var tsBuf [20]byte
	dst = append(dst, "v1,"...)
	return base64.StdEncoding.AppendEncode(dst, mac(key, []byte(id), strconv.AppendInt(tsBuf[:0], ts, 10), body))
}

// mac is HMAC-SHA256(key, id + "." + ts + "." + body).
func mac(key, id, ts, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(id)
	h.Write([]byte{'.'})
	h.Write(ts)
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}
