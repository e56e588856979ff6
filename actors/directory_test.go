package actors

import (
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
	"github.com/stretchr/testify/require"
)

// The directory answers the same for keys held as raw bytes (ids made by
// this version) and keys held by their string (any other id), and a put
// replaces the key in place (revocation).
func TestDirectory(t *testing.T) {
	var g ids.Generator
	now := time.UnixMilli(1_795_000_000_000)
	acct := g.NewAccount("acct_", now)
	pub := ed25519.PublicKey(make([]byte, ed25519.PublicKeySize))
	pub[0], pub[31] = 7, 9
	cases := []struct {
		name, key, account string
		raw                bool
	}{
		{"ids of this version", g.New("svc_test_", now, ids.PartitionOf(acct)), acct, true},
		{"a hand-made key id", "svc_test_k1", acct, false},
		{"a hand-made account id", g.New("svc_test_", now, 0), "acct_legacy", false},
		{"the other environment's prefix", g.New("svc_live_", now, 0), acct, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDirectory("test")
			_, ok := d.Get(c.key)
			require.False(t, ok)
			k := &domain.APIKey{ID: c.key, Account: c.account, PublicKey: pub, Scopes: domain.ScopeRead | domain.ScopePay, CreatedAt: now}
			d.put(k)
			got, ok := d.Get(c.key)
			require.True(t, ok)
			require.Equal(t, KeyAuth{ID: c.key, Account: c.account, PublicKey: [32]byte(pub), Scopes: k.Scopes}, got)
			require.Equal(t, c.raw, len(d.raw) == 1, "held as raw bytes")

			revoked := *k
			revoked.Revoked, revoked.RevokedAt = true, now
			d.put(&revoked)
			got, ok = d.Get(c.key)
			require.True(t, ok)
			require.True(t, got.Revoked)
			require.Equal(t, 1, d.Len(), "a put of a known key replaces it")

			_, ok = d.Get(c.key + "0")
			require.False(t, ok)
		})
	}
}
