package reqsig

// MaxTimestampDigits bounds SVC-TIMESTAMP. Twelve digits reach the year
// 33658, so no honest clock needs more, and the bound keeps the parse free
// of overflow.
const MaxTimestampDigits = 12

// ParseTimestamp parses an SVC-TIMESTAMP value: 1 to 12 ASCII digits, no
// sign, space or other byte, and no leading zero (except "0" itself).
//
// It is strict because the signed bytes are the header bytes: refusing
// alternative spellings ("+17…", " 17…", "017…") keeps one spelling per
// instant, so a timestamp cannot be re-encoded to dodge anything keyed on it.
func ParseTimestamp(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > MaxTimestampDigits {
		return 0, false
	}
	if b[0] == '0' && len(b) > 1 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
