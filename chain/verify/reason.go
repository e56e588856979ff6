package verify

import (
	"encoding/hex"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/rpc"
)

// maxReasonRunes bounds Reason: the domain refuses an order failure reason
// longer than 200 characters, and a refused report would leave the order
// stuck awaiting a result that never lands.
const maxReasonRunes = 200

// Data pulls the revert data out of an error chain: a *Revert from
// Simulate, or the rpc.DataError go-ethereum's client returns when eth_call
// or eth_estimateGas reverts (its ErrorData is the data as a hex string).
// ok is false when err carries no revert data; ok with empty data is a
// revert without data.
func Data(err error) ([]byte, bool) {
	var r *Revert
	if errors.As(err, &r) {
		return r.Data, true
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	switch d := de.ErrorData().(type) {
	case string:
		return decodeHex(d)
	case map[string]any:
		// Some nodes nest the data in an object: {"data": "0x..."}.
		if s, ok := d["data"].(string); ok {
			return decodeHex(s)
		}
	}
	return nil, false
}

// decodeHex reads revert data; text that is not hex (a node's message in
// the data field) is not revert data.
func decodeHex(s string) ([]byte, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Reason is what a user reads when the chain refused something: prefix, then
// the revert's name when err carries revert data, else err's text. It is at
// most 200 characters, valid UTF-8, without control or bidi characters, as
// the domain requires of a failure reason.
func Reason(prefix string, err error) string {
	msg := prefix
	if data, ok := Data(err); ok {
		msg += ": " + Decode(data)
	} else if err != nil {
		msg += ": " + err.Error()
	}
	return CutReason(clean(msg))
}

// clean replaces what the domain refuses in a reason (invalid UTF-8, control
// and bidi characters, which node error texts may hold) with spaces.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) || isBidi(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, " "))
}

func isBidi(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// CutReason bounds s to the 200 runes the domain keeps of a failure
// reason, marking a cut with an ellipsis.
func CutReason(s string) string { return cut(s, maxReasonRunes) }

// cut bounds s to n runes, marking a cut with an ellipsis.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n-1]) + "…"
}
