package bench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The profile summary's buckets: reqsig verifies with curve25519-voi, whose
// symbols were "other" (40 % of a write profile) until it was named here.
func TestCategory(t *testing.T) {
	cases := []struct{ kind, sym, want string }{
		{"[k]", "_raw_spin_unlock_irqrestore", "kernel (network, scheduling, fsync)"},
		{"[.]", "github.com/oasisprotocol/curve25519-voi/curve.vecMul_AVX2.abi0", "Ed25519 verify"},
		{"[.]", "github.com/oasisprotocol/curve25519-voi/internal/field.fePow2k.abi0", "Ed25519 verify"},
		{"[.]", "crypto/sha512.blockAVX2", "Ed25519 verify"},
		{"[.]", "github.com/valyala/fasthttp.(*RequestHeader).parseHeaders", "fasthttp"},
		{"[.]", "github.com/fxd-labs/fxd/httpd.(*Server).handle", "fxd code"},
		{"[.]", "runtime.mallocgc", "Go runtime: allocation and GC"},
		{"[.]", "runtime.memmove", "Go runtime: scheduler, locks, memmove, other"},
		{"[.]", "0x7f3a", "unsymbolized"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, category(c.kind, c.sym), c.sym)
	}
}
