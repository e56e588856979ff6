package secret

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// keyN is a fixed master key other than testKey, one per n.
func keyN(n int) []byte {
	k := sha256.Sum256(fmt.Appendf(nil, "secret package test key %d", n))
	return k[:]
}

func keyText(key []byte) string { return base64.StdEncoding.EncodeToString(key) }

func mustKeyring(t *testing.T, current []byte, previous ...[]byte) *Sealer {
	t.Helper()
	s, err := NewKeyring(current, previous...)
	require.NoError(t, err)
	return s
}

// goldenV1 was sealed by the sealer before key rotation (format 1, no key
// id) under testKey: plaintext goldenPlain, additional data goldenAD. It
// pins that values already in logs and stores still open.
const (
	goldenV1    = "011e79767ee1b21c3f50d76e63cd280393684fb5cbf896ed774d03b24eb2a84e8cdd91591b1bfb5bc5a66211108b0f0234f86a4badc4088b4e3e5f0308538f726c13ce4147b612ed8d24b957ff76b6"
	goldenPlain = "whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk="
	goldenAD    = "wh_01M80AG7DGGN82BKWCMHEJCKG8"
)

func golden(t *testing.T) []byte {
	t.Helper()
	b, err := hex.DecodeString(goldenV1)
	require.NoError(t, err)
	return b
}

// TestKeyID: the id is the first 8 bytes of SHA-256 of the label and the
// key, and prints as hex.
func TestKeyID(t *testing.T) {
	sum := sha256.Sum256(append([]byte("fxd webhook master key id v1"), testKey()...))
	s := mustSealer(t, testKey())
	require.Equal(t, KeyID(sum[:8]), s.CurrentKeyID())
	require.Equal(t, hex.EncodeToString(sum[:8]), s.CurrentKeyID().String())
	j, err := json.Marshal(map[string]any{"current": s.CurrentKeyID(), "previous": []KeyID{s.CurrentKeyID()}})
	require.NoError(t, err)
	require.JSONEq(t, `{"current":"`+s.CurrentKeyID().String()+`","previous":["`+s.CurrentKeyID().String()+`"]}`, string(j))
	require.NotEqual(t, s.CurrentKeyID(), mustSealer(t, keyN(1)).CurrentKeyID())
	require.Empty(t, s.PreviousKeyIDs())
	r := mustKeyring(t, keyN(1), testKey(), keyN(2))
	require.Equal(t, []KeyID{s.CurrentKeyID(), mustSealer(t, keyN(2)).CurrentKeyID()}, r.PreviousKeyIDs())
}

// TestFormat1StillOpens: a value the old sealer wrote opens under a
// keyring whose current key, or any previous key, sealed it, and under no
// other; a reseal turns it into format 2 under the current key.
func TestFormat1StillOpens(t *testing.T) {
	v1 := golden(t)
	tests := []struct {
		name   string
		sealer *Sealer
		ok     bool
	}{
		{"current key", mustSealer(t, testKey()), true},
		{"current key, with previous ones", mustKeyring(t, testKey(), keyN(1), keyN(2)), true},
		{"first previous key", mustKeyring(t, keyN(1), testKey()), true},
		{"last previous key", mustKeyring(t, keyN(1), keyN(2), keyN(3), testKey()), true},
		{"not configured", mustKeyring(t, keyN(1), keyN(2)), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.False(t, tc.sealer.IsCurrent(v1), "format 1 is never current")
			got, err := tc.sealer.Open(v1, []byte(goldenAD))
			if !tc.ok {
				require.ErrorIs(t, err, ErrOpen)
				require.ErrorContains(t, err, "format 1")
				_, err = tc.sealer.Reseal(v1, []byte(goldenAD))
				require.ErrorIs(t, err, ErrOpen)
				return
			}
			require.NoError(t, err)
			require.Equal(t, goldenPlain, string(got))
			_, err = tc.sealer.Open(v1, []byte(goldenAD+"x"))
			require.ErrorIs(t, err, ErrOpen, "still bound to the endpoint")

			resealed, err := tc.sealer.Reseal(v1, []byte(goldenAD))
			require.NoError(t, err)
			require.True(t, tc.sealer.IsCurrent(resealed))
			got, err = tc.sealer.Open(resealed, []byte(goldenAD))
			require.NoError(t, err)
			require.Equal(t, goldenPlain, string(got))
		})
	}
}

// TestKeyringRotation walks a rotation A → B: B with previous A opens what
// A sealed; a reseal makes it B's; B alone then opens it, and refuses A's
// value naming A's id (never the key).
func TestKeyringRotation(t *testing.T) {
	a, b := keyN(1), keyN(2)
	ad := []byte("wh_A")
	underA, err := mustSealer(t, a).Seal([]byte("whsec_x"), ad)
	require.NoError(t, err)

	ring := mustKeyring(t, b, a)
	require.False(t, ring.IsCurrent(underA))
	got, err := ring.Open(underA, ad)
	require.NoError(t, err)
	require.Equal(t, "whsec_x", string(got))
	_, err = ring.Open(underA, []byte("wh_B"))
	require.ErrorIs(t, err, ErrOpen, "another endpoint's value does not open under the previous key either")

	fresh, err := ring.Seal([]byte("whsec_y"), ad)
	require.NoError(t, err)
	require.True(t, ring.IsCurrent(fresh), "seal uses the current key")
	require.Equal(t, mustSealer(t, b).CurrentKeyID(), KeyID(fresh[1:9]))

	resealed, err := ring.Reseal(underA, ad)
	require.NoError(t, err)
	require.True(t, ring.IsCurrent(resealed))
	require.NotEqual(t, underA, resealed)

	onlyB := mustSealer(t, b)
	for _, v := range [][]byte{resealed, fresh} {
		_, err := onlyB.Open(v, ad)
		require.NoError(t, err)
	}
	_, err = onlyB.Open(underA, ad)
	require.ErrorIs(t, err, ErrOpen)
	idA := mustSealer(t, a).CurrentKeyID().String()
	require.ErrorContains(t, err, "master key id "+idA, "the error names the missing key's id")
	for _, k := range [][]byte{a, b} {
		requireNoKeyOf(t, k, "open error", err.Error())
	}

	// A value under the previous key is not current for the ring; one
	// under the current key is not current for a ring that moved on.
	require.False(t, mustKeyring(t, keyN(3), b).IsCurrent(resealed))
}

// TestIsCurrent looks at the header only.
func TestIsCurrent(t *testing.T) {
	s := mustKeyring(t, testKey(), keyN(1))
	cur, err := s.Seal(nil, nil)
	require.NoError(t, err)
	prev, err := mustSealer(t, keyN(1)).Seal(nil, nil)
	require.NoError(t, err)
	tests := []struct {
		name   string
		sealed []byte
		want   bool
	}{
		{"current", cur, true},
		{"previous", prev, false},
		{"format 1 under the current key", golden(t), false},
		{"nil", nil, false},
		{"header only", cur[:1+KeyIDLen], false},
		{"one byte short", cur[:len(cur)-1], false},
		{"version 3", append([]byte{3}, cur[1:]...), false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, s.IsCurrent(tc.sealed), tc.name)
	}
}

func TestNewKeyringRefuses(t *testing.T) {
	nine := make([][]byte, MaxPreviousKeys+1)
	for i := range nine {
		nine[i] = keyN(10 + i)
	}
	tests := []struct {
		name     string
		current  []byte
		previous [][]byte
		want     string
	}{
		{"previous equals current", testKey(), [][]byte{keyN(1), testKey()}, "previous master key 2 (in the order listed) is the current master key (id " + mustSealer(t, testKey()).CurrentKeyID().String() + ")"},
		{"previous twice", testKey(), [][]byte{keyN(1), keyN(2), keyN(1)}, "previous master key 3 (in the order listed) repeats previous master key 1"},
		{"too many", testKey(), nine, "9 previous master keys, at most 8"},
		{"short current", testKey()[:16], nil, "master key: 16 bytes, want 32"},
		{"short previous", testKey(), [][]byte{keyN(1), keyN(2)[:31]}, "previous master key 2: 31 bytes, want 32"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewKeyring(tc.current, tc.previous...)
			require.ErrorContains(t, err, tc.want)
			require.Nil(t, s)
			for _, k := range append([][]byte{tc.current}, tc.previous...) {
				if len(k) == KeyLen {
					requireNoKeyOf(t, k, tc.name, err.Error())
				}
			}
		})
	}
	s, err := NewKeyring(testKey(), nine[:MaxPreviousKeys]...)
	require.NoError(t, err, "exactly the bound is allowed")
	require.Len(t, s.PreviousKeyIDs(), MaxPreviousKeys)
}

// TestKeyringOpensByID: with several previous keys, each value opens
// under the key its id names, in any order.
func TestKeyringOpensByID(t *testing.T) {
	keys := [][]byte{keyN(1), keyN(2), keyN(3)}
	ring := mustKeyring(t, keyN(4), keys...)
	for i, k := range keys {
		ad := fmt.Appendf(nil, "wh_%d", i)
		v, err := mustSealer(t, k).Seal(ad, ad)
		require.NoError(t, err)
		got, err := ring.Open(v, ad)
		require.NoError(t, err)
		require.True(t, bytes.Equal(ad, got))
	}
}

// TestKeyringPrintsNothingSecret: a keyring prints as a Sealer does, and
// no key of it shows.
func TestKeyringPrintsNothingSecret(t *testing.T) {
	ring := mustKeyring(t, keyN(1), keyN(2), testKey())
	type config struct {
		Exported   *Sealer
		unexported Sealer
	}
	c := config{ring, *ring}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x"} {
		require.Equal(t, sealerText, fmt.Sprintf(verb, ring))
		out := fmt.Sprintf(verb, c)
		for _, k := range [][]byte{keyN(1), keyN(2), testKey()} {
			requireNoKeyOf(t, k, verb, out)
		}
	}
}
