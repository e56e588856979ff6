package snapshot

import (
	"encoding/binary"
	"fmt"
	"time"
)

var keyApplied = []byte("m/applied")

// appliedKey is the key of log part's applied index. Part 0, a single
// node's one log, keeps the original key, so stores written before parts
// existed read the same.
func appliedKey(part int) []byte {
	if part == 0 {
		return keyApplied
	}
	return fmt.Appendf([]byte("m/applied/"), "%02d", part)
}

func metaKey(k string) []byte { return []byte("m/meta/" + k) }

func accountPrefix(acct string) []byte { return []byte("a/" + acct + "/") }
func profileKey(acct string) []byte    { return []byte("a/" + acct + "/p") }
func accountKeyKey(acct, id string) []byte {
	return []byte("a/" + acct + "/k/" + id)
}
func contactKey(acct, id string) []byte  { return []byte("a/" + acct + "/c/" + id) }
func idemKey(acct, scope string) []byte  { return []byte("a/" + acct + "/i/" + scope) }
func walletKey(acct, addr string) []byte { return []byte("a/" + acct + "/w/" + addr) }
func challengeKey(acct, nonce string) []byte {
	return []byte("a/" + acct + "/h/" + nonce)
}
func directoryKey(id string) []byte { return []byte("k/" + id) }

var directoryPrefix = []byte("k/")
var expiryPrefix = []byte("x/")

// expiryKey orders idempotency records by creation time so a sweep reads
// only what has expired.
func expiryKey(created time.Time, acct, scope string) []byte {
	b := make([]byte, 0, 2+8+1+len(acct)+1+len(scope))
	b = append(b, expiryPrefix...)
	b = binary.BigEndian.AppendUint64(b, uint64(created.UnixNano()))
	b = append(b, '/')
	b = append(b, acct...)
	b = append(b, '/')
	return append(b, scope...)
}

// parseExpiryKey undoes expiryKey.
func parseExpiryKey(k []byte) (created time.Time, acct, scope string, ok bool) {
	if len(k) < 2+8+1 || k[10] != '/' {
		return time.Time{}, "", "", false
	}
	created = time.Unix(0, int64(binary.BigEndian.Uint64(k[2:10]))).UTC()
	rest := k[11:]
	for i, c := range rest {
		if c == '/' {
			return created, string(rest[:i]), string(rest[i+1:]), true
		}
	}
	return time.Time{}, "", "", false
}

// prefixEnd is the smallest key greater than every key with the prefix.
func prefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}
