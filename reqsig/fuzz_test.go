package reqsig

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"strconv"
	"testing"
)

// FuzzVerify feeds arbitrary header and request bytes to Verify. It must
// never panic, and it may only accept a signature in canonical encoding that
// really is ours over exactly these bytes.
func FuzzVerify(f *testing.F) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	good := Sign(priv, "1700000000", "GET", "/public/v1/account", nil)
	f.Add([]byte("1700000000"), []byte("GET"), []byte("/public/v1/account"), []byte(nil), []byte(good))
	f.Add([]byte(""), []byte(""), []byte(""), []byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, ts, method, target, body, sig []byte) {
		if !Verify(pub, ts, method, target, body, sig) {
			return
		}
		var raw [ed25519.SignatureSize]byte
		if !DecodeSignature(&raw, sig) || base64.StdEncoding.EncodeToString(raw[:]) != string(sig) {
			t.Fatalf("accepted a non-canonical signature %q", sig)
		}
		want := Sign(priv, string(ts), string(method), string(target), body)
		if want != string(sig) {
			t.Fatalf("accepted %q, but we sign these bytes as %q", sig, want)
		}
	})
}

// FuzzParseTimestamp checks ParseTimestamp against strconv plus the rules
// it adds (length, no sign, no leading zero).
func FuzzParseTimestamp(f *testing.F) {
	for _, s := range []string{"1795000000", "0", "01", "+1", "-1", " 1", "999999999999", "1000000000000", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := ParseTimestamp(b)
		want, err := strconv.ParseInt(string(b), 10, 64)
		wantOK := err == nil && len(b) >= 1 && len(b) <= MaxTimestampDigits &&
			b[0] != '+' && b[0] != '-' && (b[0] != '0' || len(b) == 1)
		if ok != wantOK {
			t.Fatalf("ParseTimestamp(%q) ok=%v, want %v", b, ok, wantOK)
		}
		if ok && got != want {
			t.Fatalf("ParseTimestamp(%q) = %d, want %d", b, got, want)
		}
		if ok && !bytes.Equal(strconv.AppendInt(nil, got, 10), b) {
			t.Fatalf("ParseTimestamp(%q) accepted a non-canonical spelling", b)
		}
	})
}
