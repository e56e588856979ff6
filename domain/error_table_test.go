package domain

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestErrorTable: each code has one row, StatusOfCode answers the row's
// status and nothing for another code, and every constructor pairs code
// and status as the table does (CONTRACT.md's table equal to ErrorTable is
// httpd's TestOpenAPIErrorCodes).
func TestErrorTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range ErrorTable {
		require.False(t, seen[r.Code], "%s has two rows", r.Code)
		seen[r.Code] = true
		require.NotEmpty(t, r.Meaning, r.Code)
		status, ok := StatusOfCode(r.Code)
		require.True(t, ok, r.Code)
		require.Equal(t, r.Status, status, r.Code)
	}
	_, ok := StatusOfCode("no_such_code")
	require.False(t, ok)
	_, ok = StatusOfCode("")
	require.False(t, ok)

	for _, e := range []*Error{
		ErrInvalid("x"), ErrUnsupportedAsset("X"), ErrNotFound("order"), ErrInvalidState("x"), ErrUnavailable("x"),
		ErrInProgress(), ErrKeyReused(), ErrNotPermitted(MsgNotPermittedSwap), ErrBadSignature("x"),
		ErrFundingNotVerified("x"), ErrQuoteExpired("q_1"), ErrNoQuote("x"), ErrTransferNotVerified("x"),
		ErrTxAlreadyUsed("x"), ErrPreflight(CodeInsufficientAllowance, "x"), ErrPreflight(CodeInsufficientBalance, "x"),
		ErrPreflight(CodeRelayWouldRevert, "x"), ErrInvalidWebhookURL("x"), ErrWebhookEncryptionUnavailable(),
	} {
		status, ok := StatusOfCode(e.Code)
		require.True(t, ok, "%v", e)
		require.Equal(t, status, e.Status, "%v", e)
	}
}
