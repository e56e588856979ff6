// Package siwe builds, parses and verifies Sign-In with Ethereum messages
// (EIP-4361), the way a wallet proves it controls an address before the
// service links it to an account.
//
// The service only ever accepts a message it issued itself (the nonce
// names the challenge, and the text must match it byte for byte), so the
// parser is strict: it accepts exactly the grammar of EIP-4361 for the
// fields we use and refuses anything else, rather than being liberal in
// what it accepts.
package siwe

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fxd-labs/fxd/internal/rfc3339"
)

// Message is one EIP-4361 message.
type Message struct {
	Domain         string // RFC 3986 authority that asks for the signature
	Address        string // EIP-55 checksummed
	Statement      string // optional, one line
	URI            string
	Version        string // "1"
	ChainID        uint64
	Nonce          string // at least 8 alphanumeric characters
	IssuedAt       time.Time
	ExpirationTime time.Time // optional (zero = none)
}

// MaxMessageBytes bounds a message we parse.
const MaxMessageBytes = 4096

const header = " wants you to sign in with your Ethereum account:"

// String renders the message exactly as EIP-4361 lays it out.
func (m Message) String() string {
	var b strings.Builder
	b.WriteString(m.Domain + header + "\n")
	b.WriteString(m.Address + "\n\n")
	if m.Statement != "" {
		b.WriteString(m.Statement + "\n")
	}
	b.WriteString("\n")
	b.WriteString("URI: " + m.URI + "\n")
	b.WriteString("Version: " + m.Version + "\n")
	b.WriteString("Chain ID: " + strconv.FormatUint(m.ChainID, 10) + "\n")
	b.WriteString("Nonce: " + m.Nonce + "\n")
	b.WriteString("Issued At: " + m.IssuedAt.UTC().Format(time.RFC3339))
	if !m.ExpirationTime.IsZero() {
		b.WriteString("\nExpiration Time: " + m.ExpirationTime.UTC().Format(time.RFC3339))
	}
	return b.String()
}

// ErrMalformed is returned for text that is not an EIP-4361 message.
var ErrMalformed = errors.New("siwe: malformed message")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Parse reads a message. It refuses unknown or out-of-order fields.
func Parse(s string) (Message, error) {
	var m Message
	if len(s) > MaxMessageBytes {
		return m, malformed("longer than %d bytes", MaxMessageBytes)
	}
	lines := strings.Split(s, "\n")
	if len(lines) < 9 {
		return m, malformed("too few lines")
	}
	var ok bool
	if m.Domain, ok = strings.CutSuffix(lines[0], header); !ok || m.Domain == "" || strings.ContainsAny(m.Domain, " /") {
		return m, malformed("first line must be \"<domain>%s\"", header)
	}
	m.Address = lines[1]
	if !common.IsHexAddress(m.Address) || len(m.Address) != 42 || common.HexToAddress(m.Address).Hex() != m.Address {
		return m, malformed("address must be EIP-55 checksummed")
	}
	if lines[2] != "" {
		return m, malformed("line 3 must be empty")
	}
	i := 3
	if lines[i] != "" { // a statement, then an empty line
		m.Statement = lines[i]
		i++
		if i >= len(lines) || lines[i] != "" {
			return m, malformed("statement must be one line followed by an empty line")
		}
	}
	i++
	fields := []struct {
		name     string
		optional bool
		set      func(string) error
	}{
		{"URI", false, func(v string) error { m.URI = v; return nil }},
		{"Version", false, func(v string) error {
			if v != "1" {
				return malformed("version must be 1")
			}
			m.Version = v
			return nil
		}},
		{"Chain ID", false, func(v string) error {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil || strconv.FormatUint(n, 10) != v {
				return malformed("bad chain id")
			}
			m.ChainID = n
			return nil
		}},
		{"Nonce", false, func(v string) error {
			if len(v) < 8 || len(v) > 64 || strings.IndexFunc(v, notAlnum) >= 0 {
				return malformed("nonce must be 8..64 alphanumeric characters")
			}
			m.Nonce = v
			return nil
		}},
		{"Issued At", false, func(v string) (err error) { m.IssuedAt, err = parseTime(v); return }},
		{"Expiration Time", true, func(v string) (err error) { m.ExpirationTime, err = parseTime(v); return }},
	}
	for _, f := range fields {
		if i >= len(lines) {
			if f.optional {
				continue
			}
			return m, malformed("missing %s", f.name)
		}
		v, ok := strings.CutPrefix(lines[i], f.name+": ")
		if !ok {
			if f.optional {
				continue
			}
			return m, malformed("line %d must be %q", i+1, f.name+": …")
		}
		if err := f.set(v); err != nil {
			return m, err
		}
		i++
	}
	if i != len(lines) {
		return m, malformed("unexpected line %d", i+1)
	}
	return m, nil
}

func notAlnum(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// parseTime reads a message's time strictly (rfc3339.Parse): String
// writes it back in UTC, and that text must parse again.
func parseTime(v string) (time.Time, error) {
	t, err := rfc3339.Parse(v)
	if err != nil {
		return time.Time{}, malformed("bad time %q: %v", v, err)
	}
	return t, nil
}

// ErrSignature is returned when a signature is malformed or does not
// recover to the message's address.
var ErrSignature = errors.New("siwe: bad signature")

// Recover returns the address that signed text with personal_sign
// (EIP-191: "\x19Ethereum Signed Message:\n" + len + text). The signature is
// 65 bytes r‖s‖v with v in {27, 28} or {0, 1}; high-s signatures are refused.
func Recover(text string, sig []byte) (common.Address, error) {
	if len(sig) != 65 {
		return common.Address{}, fmt.Errorf("%w: %d bytes, want 65", ErrSignature, len(sig))
	}
	s := make([]byte, 65)
	copy(s, sig)
	if s[64] >= 27 {
		s[64] -= 27
	}
	if s[64] > 1 {
		return common.Address{}, fmt.Errorf("%w: v must be 27 or 28", ErrSignature)
	}
	if !crypto.ValidateSignatureValues(s[64], new(big.Int).SetBytes(s[0:32]), new(big.Int).SetBytes(s[32:64]), true) {
		return common.Address{}, fmt.Errorf("%w: r or s out of range", ErrSignature)
	}
	pub, err := crypto.SigToPub(accounts.TextHash([]byte(text)), s)
	if err != nil {
		return common.Address{}, fmt.Errorf("%w: %v", ErrSignature, err)
	}
	return crypto.PubkeyToAddress(*pub), nil
}
