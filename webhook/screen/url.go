package screen

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// MaxURLLength bounds a webhook URL in bytes. It is far beyond any real
// receiver's URL and keeps what we store and parse small.
const MaxURLLength = 2048

// parsedURL is the part of a webhook URL the screen acts on.
type parsedURL struct {
	host      string // as written, without brackets; case is folded later
	bracketed bool   // the host was written [like:this], i.e. claims to be IPv6
	port      uint16
}

// parseURL checks the URL's syntax strictly. URL parsers disagree at the
// edges (backslashes, percent-encoded hosts, stray '@'), and an SSRF
// often lives exactly in such a disagreement between the screen and the
// client that connects; so anything unusual is refused before Go's parser
// sees it, and Go's result is then checked again.
func parseURL(raw string) (parsedURL, error) {
	if raw == "" {
		return parsedURL{}, refuse("webhook URL is empty")
	}
	if len(raw) > MaxURLLength {
		return parsedURL{}, refuse(fmt.Sprintf("webhook URL is longer than %d bytes", MaxURLLength))
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c <= ' ' || c >= 0x7f {
			return parsedURL{}, refuse("webhook URL contains a space, a control character or a non-ASCII character; " +
				"percent-encode it in the path, and write an international domain name in its xn-- form")
		}
	}
	if strings.ContainsRune(raw, '\\') {
		return parsedURL{}, refuse(`webhook URL contains a backslash, which URL parsers read differently; use "/" or percent-encode it as %5C`)
	}
	if strings.ContainsRune(raw, '#') {
		return parsedURL{}, refuse("webhook URL must not contain a fragment (#…); a fragment is never sent to the receiver")
	}
	if err := checkScheme(raw); err != nil {
		return parsedURL{}, err
	}
	rest := raw[len("https://"):]
	authority := rest
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		authority = rest[:i]
	}
	if strings.ContainsRune(authority, '@') {
		return parsedURL{}, refuse("webhook URL must not contain a user name or password (user@host); " +
			"use the signing secret to authenticate deliveries")
	}
	if strings.ContainsRune(authority, '%') {
		if strings.HasPrefix(authority, "[") {
			return parsedURL{}, refuse("webhook URL host must not carry an IPv6 zone (%…); zones name local network interfaces")
		}
		return parsedURL{}, refuse("webhook URL host must not be percent-encoded; write it plainly")
	}
	if !strings.HasPrefix(authority, "[") && strings.Count(authority, ":") > 1 {
		return parsedURL{}, refuse("webhook URL host has more than one ':'; write an IPv6 address in brackets, as in https://[2001:db8::1]/")
	}
	if strings.HasPrefix(authority, "[") {
		// Checked before url.Parse, whose words for a bad literal are
		// not meant for our caller.
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return parsedURL{}, refuse("webhook URL host starts with '[' but has no closing ']'")
		}
		if _, err := bracketedAddr(authority[1:end]); err != nil {
			return parsedURL{}, err
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the whole URL; the caller has it
		}
		return parsedURL{}, &Error{msg: "webhook URL is not a valid URL: " + err.Error(), err: err}
	}
	// Belt and braces: the checks above should make these impossible.
	if u.Scheme != "https" || u.User != nil || u.Opaque != "" || u.Fragment != "" {
		return parsedURL{}, refuse("webhook URL is not a plain https URL")
	}
	p := parsedURL{host: u.Hostname(), bracketed: strings.HasPrefix(authority, "[")}
	if p.host == "" {
		return parsedURL{}, refuse("webhook URL has no host")
	}
	if p.port, err = parsePort(authority, u.Port()); err != nil {
		return parsedURL{}, err
	}
	return p, nil
}

// checkScheme requires https, case-insensitively as RFC 3986 §3.1 reads a
// scheme (Go folds it to lower case): plain http would send the signed
// payload, and anything else is not a webhook.
func checkScheme(raw string) error {
	if len(raw) >= len("https://") && strings.EqualFold(raw[:len("https://")], "https://") {
		return nil
	}
	i := strings.IndexByte(raw, ':')
	if i > 0 && strings.EqualFold(raw[:i], "https") {
		return refuse("webhook URL must start with https:// (two slashes, then the host)")
	}
	if i > 0 && validScheme(raw[:i]) {
		return refuse(fmt.Sprintf("webhook URL must use https, not %s, so deliveries are encrypted and the receiver is authenticated", strings.ToLower(raw[:i])))
	}
	return refuse("webhook URL must start with https://")
}

// validScheme is RFC 3986's scheme syntax, so only a real scheme is quoted
// back to the caller.
func validScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != "" && len(s) <= 32
}

// parsePort reads the port (443 when absent). An empty port ("host:") and
// leading zeros are refused: they are legal but odd, and odd is where
// parsers disagree.
func parsePort(authority, port string) (uint16, error) {
	if port == "" {
		if strings.HasSuffix(authority, ":") {
			return 0, refuse("webhook URL has an empty port after ':'")
		}
		return 443, nil
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 || port[0] == '0' {
		return 0, refuse("webhook URL port must be a number from 1 to 65535, without leading zeros")
	}
	return uint16(n), nil
}
