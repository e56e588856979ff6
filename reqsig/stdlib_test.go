package reqsig

import (
	"crypto/ed25519"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"
)

// The edge cases where Ed25519 verifiers disagree (small-order keys and R,
// non-canonical encodings, S ≥ L): verifySig must give crypto/ed25519's
// answer on each, since clients are told "standard Ed25519" and may have
// been tested against either.
func edgeCases(t testing.TB) []struct {
	name          string
	pub, msg, sig []byte
} {
	t.Helper()
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	msg := []byte("1700000000\nGET\n/public/v1/account\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
	good := ed25519.Sign(priv, msg)
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		require.NoError(t, err)
		return b
	}
	identity := h("0100000000000000000000000000000000000000000000000000000000000000")
	// y = p + 1, a non-canonical spelling of the identity's y = 1.
	identityNonCanonical := h("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
	zeroS := make([]byte, 32)
	// S + L: the same scalar, not reduced.
	sPlusL := append([]byte(nil), good...)
	l := h("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	var carry uint16
	for i := 0; i < 32; i++ {
		v := uint16(sPlusL[32+i]) + uint16(l[i]) + carry
		sPlusL[32+i], carry = byte(v), v>>8
	}
	flipped := append([]byte(nil), good...)
	flipped[5] ^= 0x40
	cat := func(a, b []byte) []byte { return append(append([]byte(nil), a...), b...) }
	return []struct {
		name          string
		pub, msg, sig []byte
	}{
		{"valid", pub, msg, good},
		{"other message", pub, msg[1:], good},
		{"flipped R", pub, msg, flipped},
		{"S + L", pub, msg, sPlusL},
		{"identity key, identity R, S = 0", identity, msg, cat(identity, zeroS)},
		{"non-canonical identity key", identityNonCanonical, msg, cat(identity, zeroS)},
		{"non-canonical identity R", identity, msg, cat(identityNonCanonical, zeroS)},
		{"all-zero key", make([]byte, 32), msg, good},
		{"all-ones key", h("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), msg, good},
	}
}

func TestVerifyMatchesStdlib(t *testing.T) {
	accepted := 0
	for _, tc := range edgeCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			var sig [ed25519.SignatureSize]byte
			copy(sig[:], tc.sig)
			want := ed25519.Verify(tc.pub, tc.msg, tc.sig)
			require.Equal(t, want, verifySig(tc.pub, tc.msg, &sig), "key not memoized yet")
			require.Equal(t, want, verifySig(tc.pub, tc.msg, &sig), "key from the memo")
			if want {
				accepted++
			}
		})
	}
	// The table must exercise both answers, or it proves nothing.
	require.GreaterOrEqual(t, accepted, 2)
}

// FuzzVerifyMatchesStdlib holds verifySig to crypto/ed25519 on arbitrary
// keys, messages and signatures, starting from the edge cases above.
func FuzzVerifyMatchesStdlib(f *testing.F) {
	for _, tc := range edgeCases(f) {
		f.Add(tc.pub, tc.msg, tc.sig)
	}
	f.Fuzz(func(t *testing.T, pub, msg, sigBytes []byte) {
		if len(pub) != ed25519.PublicKeySize || len(sigBytes) != ed25519.SignatureSize {
			return
		}
		var sig [ed25519.SignatureSize]byte
		copy(sig[:], sigBytes)
		if got, want := verifySig(pub, msg, &sig), ed25519.Verify(pub, msg, sigBytes); got != want {
			t.Fatalf("verifySig = %v, crypto/ed25519 = %v for pub %x sig %x", got, want, pub, sigBytes)
		}
	})
}

// The memo of expanded keys stays within MaxExpandedKeys however many keys
// sign, and a key it dropped verifies as before.
func TestExpandedKeysBounded(t *testing.T) {
	msg := []byte("1700000000\nGET\n/public/v1/account\n")
	first := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	var sig [ed25519.SignatureSize]byte
	copy(sig[:], ed25519.Sign(first, msg))
	require.True(t, verifySig(first.Public().(ed25519.PublicKey), msg, &sig))
	seed := make([]byte, ed25519.SeedSize)
	for i := range MaxExpandedKeys + 2*expandedShards*16 {
		binary.BigEndian.PutUint32(seed, uint32(i+1))
		pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
		require.NotNil(t, expandedKey(pub))
		require.LessOrEqual(t, expandedCount(), MaxExpandedKeys)
	}
	require.Greater(t, expandedCount(), MaxExpandedKeys*3/4, "the shards fill")
	require.True(t, verifySig(first.Public().(ed25519.PublicKey), msg, &sig), "after its entry may have been dropped")
	copy(sig[:], ed25519.Sign(first, msg[1:]))
	require.False(t, verifySig(first.Public().(ed25519.PublicKey), msg, &sig))
}
