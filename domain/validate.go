package domain

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
)

// checkText accepts 1..max runes (0..max when optional) of valid UTF-8
// without control characters: one line, as a name or label is shown.
func checkText(field, s string, max int, optional bool) *Error {
	return checkRunes(field, s, max, optional, false)
}

// checkNote accepts 0..max runes of free text (a memo, a description):
// as checkText, but tab, CR and LF are allowed, so a note may have lines
// and columns. Whoever renders it must quote it; the CSV export does
// (RFC 4180, and a leading tab or CR is neutralized as = + - @ are).
func checkNote(field, s string, max int) *Error {
	return checkRunes(field, s, max, true, true)
}

func checkRunes(field, s string, max int, optional, breaks bool) *Error {
	if !utf8.ValidString(s) {
		return ErrInvalid("%s is not valid UTF-8", field)
	}
	n := utf8.RuneCountInString(s)
	if strings.TrimSpace(s) == "" && !optional {
		return ErrInvalid("%s is required", field)
	}
	if n > max {
		return ErrInvalid("%s is longer than %d characters", field, max)
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(breaks && (r == '\t' || r == '\n' || r == '\r')) {
			return ErrInvalid("%s contains a control character", field)
		}
		if isBidiControl(r) {
			return ErrInvalid("%s contains a bidirectional override character", field)
		}
	}
	return nil
}

// NormalizeAddress accepts a 0x-prefixed 20-byte hex address and returns it
// EIP-55 checksummed ("0X" is refused, as by the OpenAPI pattern and
// ethers' getAddress). All-lower or all-upper hex carries no checksum; mixed
// case must be a correct checksum, so a typo in a checksummed address is
// caught instead of paying a stranger.
func NormalizeAddress(field, s string) (string, *Error) {
	if len(s) != 42 || s[0] != '0' || s[1] != 'x' || !common.IsHexAddress(s) {
		return "", ErrInvalid("%s must be a 0x-prefixed 20-byte hex address", field)
	}
	sum := common.HexToAddress(s).Hex()
	body := s[2:]
	hasLower, hasUpper := false, false
	for _, r := range body {
		hasLower = hasLower || (r >= 'a' && r <= 'f')
		hasUpper = hasUpper || (r >= 'A' && r <= 'F')
	}
	if hasLower && hasUpper && body != sum[2:] {
		return "", ErrInvalid("%s has a bad EIP-55 checksum", field)
	}
	return sum, nil
}

// NormalizeRecipient is NormalizeAddress for an address money is sent
// to, which must not be the zero address: an ERC-20 transfer there is
// refused by the token (OpenZeppelin's ERC20InvalidReceiver) or, by older
// tokens, burned. Refusing it at create spares the payer a signed
// transaction that reverts or loses the money.
func NormalizeRecipient(field, s string) (string, *Error) {
	addr, err := NormalizeAddress(field, s)
	if err != nil {
		return "", err
	}
	if common.HexToAddress(addr) == (common.Address{}) {
		return "", ErrInvalid("%s must not be the zero address", field)
	}
	return addr, nil
}

// isBidiControl matches the embedding, override and isolate characters
// that can make a name display as something else (Trojan Source).
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// isHex0x reports whether s is 0x and the hex (either case) of exactly
// one of sizes bytes: a hash's or a signature's form.
func isHex0x(s string, sizes ...int) bool {
	hex, ok := strings.CutPrefix(s, "0x")
	if !ok || len(hex)%2 != 0 || !slices.Contains(sizes, len(hex)/2) {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
