package secret

import (
	"bytes"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSealRoundTrip(t *testing.T) {
	s := mustSealer(t, testKey())
	ad := []byte("wh_01M80AG7DGGN82BKWCMHEJCKG8")
	tests := []struct {
		name      string
		plaintext []byte
		ad        []byte
	}{
		{"endpoint secret", []byte("whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk="), ad},
		{"empty plaintext", nil, ad},
		{"no additional data", []byte("x"), nil},
		{"large", bytes.Repeat([]byte{0xa5}, 64<<10), ad},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := s.Seal(tc.plaintext, tc.ad)
			require.NoError(t, err)
			b, err := s.Seal(tc.plaintext, tc.ad)
			require.NoError(t, err)
			require.NotEqual(t, a, b, "each seal draws a fresh nonce")
			require.Len(t, a, overhead2+len(tc.plaintext))
			require.Equal(t, version2, a[0], "every seal writes format 2")
			require.Equal(t, s.CurrentKeyID(), KeyID(a[1:1+KeyIDLen]), "and names its key")
			require.True(t, s.IsCurrent(a))
			if len(tc.plaintext) >= 8 { // a shorter one may occur in random bytes by chance
				require.False(t, bytes.Contains(a, tc.plaintext), "the plaintext is not in the sealed value")
			}
			for _, sealed := range [][]byte{a, b} {
				got, err := s.Open(sealed, tc.ad)
				require.NoError(t, err)
				require.Equal(t, string(tc.plaintext), string(got))
			}
			// Another Sealer of the same key opens it: nothing but the key
			// is needed, e.g. after a restart.
			got, err := mustSealer(t, testKey()).Open(a, tc.ad)
			require.NoError(t, err)
			require.Equal(t, string(tc.plaintext), string(got))
		})
	}
}

func TestOpenRefuses(t *testing.T) {
	s := mustSealer(t, testKey())
	plaintext := []byte("whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=")
	ad := []byte("wh_A")
	sealed, err := s.Seal(plaintext, ad)
	require.NoError(t, err)

	otherKey := testKey()
	otherKey[31] ^= 1
	with := func(i int, b byte) []byte {
		c := bytes.Clone(sealed)
		c[i] = b
		return c
	}
	tests := []struct {
		name   string
		sealer *Sealer
		sealed []byte
		ad     []byte
	}{
		{"wrong key", mustSealer(t, otherKey), sealed, ad},
		{"other endpoint", s, sealed, []byte("wh_B")},
		{"additional data extended", s, sealed, []byte("wh_A ")},
		{"no additional data", s, sealed, nil},
		{"empty", s, nil, ad},
		{"version only", s, sealed[:1], ad},
		{"one byte short", s, sealed[:len(sealed)-1], ad},
		{"no tag", s, sealed[:len(sealed)-16], ad},
		{"appended byte", s, append(bytes.Clone(sealed), 0), ad},
		{"version 0", s, with(0, 0), ad},
		{"relabelled format 1", s, with(0, 1), ad},
		{"version 3", s, with(0, 3), ad},
		{"other key id", s, with(1, sealed[1]^0x80), ad},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.sealer.Open(tc.sealed, tc.ad)
			require.ErrorIs(t, err, ErrOpen)
			require.Nil(t, got)
			require.NotContains(t, err.Error(), string(plaintext))
		})
	}

	t.Run("every truncation", func(t *testing.T) {
		for n := range len(sealed) {
			_, err := s.Open(sealed[:n], ad)
			require.ErrorIs(t, err, ErrOpen, "length %d", n)
		}
	})
	t.Run("every bit flip", func(t *testing.T) {
		for i := range len(sealed) * 8 {
			c := bytes.Clone(sealed)
			c[i/8] ^= 1 << (i % 8)
			_, err := s.Open(c, ad)
			require.ErrorIs(t, err, ErrOpen, "bit %d", i)
		}
	})
}

func TestNewSealerKeyLength(t *testing.T) {
	for _, n := range []int{0, 16, 24, 31, 33, 64} {
		_, err := NewSealer(make([]byte, n))
		require.ErrorContains(t, err, "want 32", "length %d", n)
	}
}

// TestSealerConcurrent runs under -race in make test: one Sealer serves
// every request.
func TestSealerConcurrent(t *testing.T) {
	s := mustSealer(t, testKey())
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			ad := []byte{byte(g)}
			for range 100 {
				sealed, err := s.Seal(ad, ad)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := s.Open(sealed, ad)
				if err != nil || !bytes.Equal(got, ad) {
					t.Errorf("open: %v %x", err, got)
					return
				}
			}
		})
	}
	wg.Wait()
}
