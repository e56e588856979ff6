package screen

import (
	"fmt"
	"strings"
)

// checkName accepts a DNS host name in the letters-digits-hyphen form
// (RFC 1123), already lower-cased. A stricter syntax than DNS allows keeps
// out names that resolvers, TLS libraries and certificate authorities
// treat differently (underscores, a trailing dot, empty labels).
func checkName(host string) error {
	if len(host) > 253 {
		return refuse("webhook URL host name is longer than 253 characters")
	}
	if strings.HasSuffix(host, ".") {
		return refuse(fmt.Sprintf("webhook URL host %q must not end with a dot", host))
	}
	for label := range strings.SplitSeq(host, ".") {
		switch {
		case label == "":
			return refuse(fmt.Sprintf("webhook URL host %q has an empty label (a leading dot or two dots in a row)", host))
		case len(label) > 63:
			return refuse(fmt.Sprintf("webhook URL host %q has a label longer than 63 characters", host))
		case label[0] == '-' || label[len(label)-1] == '-':
			return refuse(fmt.Sprintf("webhook URL host %q has a label that starts or ends with a hyphen", host))
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return refuse(fmt.Sprintf("webhook URL host %q contains %q; a host name has only letters, digits, hyphens and dots", host, c))
			}
		}
	}
	return nil
}
