package domain

import "strings"

// Scopes is a set of API key scopes as a bit mask, so the per-request scope
// check is one AND.
type Scopes uint32

// The five scopes of SPEC.md.
const (
	ScopeRead Scopes = 1 << iota
	ScopeTrade
	ScopePay
	ScopeWallets
	ScopeWebhooks
)

var scopeNames = []struct {
	s    Scopes
	name string
}{{ScopeRead, "read"}, {ScopeTrade, "trade"}, {ScopePay, "pay"}, {ScopeWallets, "wallets"}, {ScopeWebhooks, "webhooks"}}

// AllScopes is every scope.
const AllScopes = ScopeRead | ScopeTrade | ScopePay | ScopeWallets | ScopeWebhooks

// ParseScopes reads names like ["read","trade"]; unknown or repeated names
// are refused.
func ParseScopes(names []string) (Scopes, *Error) {
	var s Scopes
	for _, n := range names {
		one := ScopeByName(strings.TrimSpace(n))
		if one == 0 {
			return 0, ErrInvalid("unknown scope %q (want read, trade, pay, wallets, webhooks)", n)
		}
		if s&one != 0 {
			return 0, ErrInvalid("scope %q given twice", n)
		}
		s |= one
	}
	if s == 0 {
		return 0, ErrInvalid("at least one scope is required")
	}
	return s, nil
}

// ScopeByName returns the scope with that name, or 0.
func ScopeByName(name string) Scopes {
	for _, sn := range scopeNames {
		if sn.name == name {
			return sn.s
		}
	}
	return 0
}

// Names lists the scopes in the order of SPEC.md.
func (s Scopes) Names() []string {
	out := []string{}
	for _, sn := range scopeNames {
		if s&sn.s != 0 {
			out = append(out, sn.name)
		}
	}
	return out
}

// String is the name of a single scope (or the comma-joined set).
func (s Scopes) String() string { return strings.Join(s.Names(), ",") }
