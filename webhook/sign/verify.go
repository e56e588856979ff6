package sign

import (
	"crypto/hmac"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is the receivers' customary window (the Standard
// Webhooks libraries use five minutes); Verify uses it when given none.
const DefaultTolerance = 5 * time.Minute

// MaxSignatureHeaderLen bounds the webhook-signature header Verify reads,
// so a hostile sender cannot make a receiver compute a comparison for each
// of a million entries. It admits 80 values, far beyond any rotation.
const MaxSignatureHeaderLen = 80 * (signatureLen + 1)

// maxTimestampDigits bounds webhook-timestamp: twelve digits reach the year
// 33658, and keep time.Unix and the tolerance arithmetic far from overflow.
const maxTimestampDigits = 12

// Verify's refusals, for errors.Is; the returned errors wrap them with the
// detail.
var (
	// ErrMalformed: a header is missing or not in the Standard Webhooks form.
	ErrMalformed = errors.New("sign: malformed webhook headers")
	// ErrTimestamp: webhook-timestamp is outside the tolerance (a replay,
	// or a clock far off).
	ErrTimestamp = errors.New("sign: webhook timestamp outside tolerance")
	// ErrNoMatch: no v1 signature matches the secret.
	ErrNoMatch = errors.New("sign: no matching webhook signature")
)

// Verify checks a delivery as a receiver does: secret is the endpoint's
// "whsec_…" secret; id, tsHeader and sigHeader are the webhook-id,
// webhook-timestamp and webhook-signature header values; body is the raw
// request body. The timestamp must be within tolerance of now either way
// (DefaultTolerance if tolerance <= 0), and at least one of the
// space-separated "v1,…" values must be the signature under secret,
// compared in constant time. Values of other versions are skipped, as the
// specification asks, so a future scheme can be sent beside v1.
//
// It never panics on hostile header bytes, and its errors never quote the
// secret or a signature.
func Verify(secret, id, tsHeader, sigHeader string, body []byte, now time.Time, tolerance time.Duration) error {
	key, err := ParseSecret(secret)
	if err != nil {
		return err
	}
	if id == "" {
		return fmt.Errorf("%w: empty webhook-id", ErrMalformed)
	}
	ts, err := parseTimestamp(tsHeader)
	if err != nil {
		return err
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	// time.Unix of at most 12 digits is exact; Sub saturates, never wraps.
	sent := time.Unix(ts, 0)
	if now.Sub(sent) > tolerance {
		return fmt.Errorf("%w: %d is older than %v", ErrTimestamp, ts, tolerance)
	}
	if sent.Sub(now) > tolerance {
		return fmt.Errorf("%w: %d is more than %v ahead", ErrTimestamp, ts, tolerance)
	}
	if sigHeader == "" {
		return fmt.Errorf("%w: empty webhook-signature", ErrMalformed)
	}
	if len(sigHeader) > MaxSignatureHeaderLen {
		return fmt.Errorf("%w: webhook-signature is %d bytes, at most %d", ErrMalformed, len(sigHeader), MaxSignatureHeaderLen)
	}
	var buf [signatureLen]byte
	want := appendSignature(buf[:0], key, id, ts, body)[len("v1,"):]
	sawV1 := false
	for rest := sigHeader; rest != ""; {
		var entry string
		entry, rest, _ = strings.Cut(rest, " ")
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue // empty (doubled space), another version, or junk
		}
		sawV1 = true
		// Comparing the base64 text, not the decoded bytes, accepts only the
		// canonical encoding, as the reference libraries do.
		if hmac.Equal([]byte(sig), want) {
			return nil
		}
	}
	if !sawV1 {
		return fmt.Errorf("%w: no v1 signature in webhook-signature", ErrMalformed)
	}
	return ErrNoMatch
}

// parseTimestamp parses webhook-timestamp: 1 to 12 ASCII digits without
// sign or leading zero. The signed bytes are the decimal spelling of the
// number (what the reference libraries re-format before signing), so a
// spelling other than that one is refused rather than silently re-signed.
func parseTimestamp(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("%w: empty webhook-timestamp", ErrMalformed)
	}
	if len(s) > maxTimestampDigits {
		return 0, fmt.Errorf("%w: webhook-timestamp longer than %d digits", ErrMalformed, maxTimestampDigits)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != s {
		return 0, fmt.Errorf("%w: webhook-timestamp %q is not unix seconds", ErrMalformed, s)
	}
	return n, nil
}
