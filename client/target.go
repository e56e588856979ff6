package client

import (
	"fmt"
	"strconv"
	"strings"
)

// checkTarget refuses targets that cannot be sent byte for byte as given:
// the signature covers the exact target, so any rewrite on the way would
// turn into an auth failure far from its cause.
func checkTarget(target string) error {
	if len(target) == 0 || target[0] != '/' {
		return fmt.Errorf("target %q must start with '/'", target)
	}
	if strings.HasPrefix(target, "//") {
		return fmt.Errorf("target %q must not start with '//'", target)
	}
	if len(target) > MaxTargetLen {
		return fmt.Errorf("target is %d bytes, over the %d byte limit", len(target), MaxTargetLen)
	}
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c >= 0x7f || c == '#' {
			return fmt.Errorf("target %q has byte %q at %d: send it percent-encoded", target, c, i)
		}
	}
	return nil
}

// checkMethod accepts an HTTP method of ASCII letters and returns it in
// upper case, the spelling that is both signed and sent.
func checkMethod(method string) (string, error) {
	if len(method) == 0 || len(method) > 16 {
		return "", fmt.Errorf("method %q: want 1..16 letters", method)
	}
	for i := 0; i < len(method); i++ {
		c := method[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return "", fmt.Errorf("method %q: want letters only", method)
		}
	}
	return strings.ToUpper(method), nil
}

// withUniqueParam appends the query parameter _r=n to target.
func withUniqueParam(target string, n uint32) string {
	sep := "&"
	switch q := strings.IndexByte(target, '?'); {
	case q < 0:
		sep = "?"
	case strings.HasSuffix(target, "&"):
		sep = ""
	}
	return target + sep + "_r=" + strconv.FormatUint(uint64(n), 10)
}
