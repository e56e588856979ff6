package httpd

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// TestAccountDefaults: a new account is approved and permitted in the
// test environment (CONTRACT.md), pending and permitted nothing in live.
func TestAccountDefaults(t *testing.T) {
	require.Equal(t, domain.CreateAccount{KYC: domain.KYCApproved, Swap: true, Pay: true}, accountDefaults("test"))
	require.Equal(t, domain.CreateAccount{KYC: domain.KYCPending}, accountDefaults("live"))
}
