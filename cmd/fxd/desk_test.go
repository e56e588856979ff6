package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFXFlagBounds: --order-deadline and --rfq-settle-timeout take whole
// seconds from 1 s (tests reach expired and refunded quickly) to their
// ceilings.
func TestFXFlagBounds(t *testing.T) {
	ok := serveFlags{makerFault: "none", orderDeadline: 120 * time.Second, settleTimeout: 60 * time.Second}
	for _, c := range []struct {
		name string
		edit func(*serveFlags)
		want string // "" = accepted
	}{
		{"defaults", func(*serveFlags) {}, ""},
		{"1 s deadline", func(f *serveFlags) { f.orderDeadline = time.Second }, ""},
		{"3 s deadline", func(f *serveFlags) { f.orderDeadline = 3 * time.Second }, ""},
		{"1 h deadline", func(f *serveFlags) { f.orderDeadline = time.Hour }, ""},
		{"under 1 s", func(f *serveFlags) { f.orderDeadline = 500 * time.Millisecond }, "--order-deadline"},
		{"fraction", func(f *serveFlags) { f.orderDeadline = 1500 * time.Millisecond }, "--order-deadline"},
		{"over 1 h", func(f *serveFlags) { f.orderDeadline = time.Hour + time.Second }, "--order-deadline"},
		{"1 s settle", func(f *serveFlags) { f.settleTimeout = time.Second }, ""},
		{"0 settle", func(f *serveFlags) { f.settleTimeout = 0 }, "--rfq-settle-timeout"},
		{"fault", func(f *serveFlags) { f.makerFault = "sometimes" }, "--maker-fault"},
	} {
		f := ok
		c.edit(&f)
		err := checkFXFlags(f)
		if c.want == "" {
			require.NoError(t, err, c.name)
		} else {
			require.ErrorContains(t, err, c.want, c.name)
		}
	}
}
