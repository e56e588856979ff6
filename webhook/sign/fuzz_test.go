package sign

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fuzzSecret signs the seeds of testdata/fuzz/FuzzVerify; its key is 32
// bytes of 0x09, the key of shared/vectors/webhooks.json.
const fuzzSecret = "whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk="

// fuzzNow is the instant the fuzzed deliveries are checked at, the
// timestamp of the seeds.
const fuzzNow = 1795000000

// FuzzVerify feeds arbitrary header values and bodies to Verify. It must
// never panic, and it may only accept a delivery whose webhook-timestamp is
// the canonical spelling of an instant within tolerance and whose
// webhook-signature holds, as one space-separated entry, exactly the value
// we sign these bytes with.
func FuzzVerify(f *testing.F) {
	key, err := ParseSecret(fuzzSecret)
	if err != nil {
		f.Fatal(err)
	}
	body := []byte(`{"id":"evt_01"}`)
	good := Sign(key, "evt_01", fuzzNow, body)
	f.Add("evt_01", "1795000000", good, body)
	f.Add("evt_01", "1795000000", "v1,AAAA "+good, body)
	f.Add("", "", "", []byte(nil))
	f.Fuzz(func(t *testing.T, id, ts, sig string, body []byte) {
		now := time.Unix(fuzzNow, 0)
		if err := Verify(fuzzSecret, id, ts, sig, body, now, time.Minute); err != nil {
			return
		}
		n, perr := strconv.ParseInt(ts, 10, 64)
		if perr != nil || strconv.FormatInt(n, 10) != ts {
			t.Fatalf("accepted the non-canonical timestamp %q", ts)
		}
		if n < fuzzNow-60 || n > fuzzNow+60 {
			t.Fatalf("accepted the timestamp %d, outside the tolerance", n)
		}
		want := Sign(key, id, n, body)
		if !strings.Contains(" "+sig+" ", " "+want+" ") {
			t.Fatalf("accepted %q, but we sign these bytes as %q", sig, want)
		}
	})
}

// FuzzParseSecret checks that an accepted secret is the one canonical
// spelling of its key, of an allowed length.
func FuzzParseSecret(f *testing.F) {
	f.Add(fuzzSecret)
	f.Add("whsec_")
	f.Add("whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQl=")
	f.Fuzz(func(t *testing.T, s string) {
		key, err := ParseSecret(s)
		if err != nil {
			return
		}
		if len(key) < MinKeyLen || len(key) > MaxKeyLen {
			t.Fatalf("accepted a %d-byte key", len(key))
		}
		if again := SecretPrefix + base64.StdEncoding.EncodeToString(key); again != s {
			t.Fatalf("accepted %q, whose canonical spelling is %q", s, again)
		}
	})
}
