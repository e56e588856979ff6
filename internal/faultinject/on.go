//go:build faultinject

package faultinject

import (
	"os"
	"strings"
	"sync"
)

// Enabled reports whether this binary was built with the faultinject tag.
const Enabled = true

// faults is FXD_FAULTS parsed once; later changes to the environment are
// not seen (a fault that must change while the process runs is given as
// a file whose presence switches it, e.g. chain-stall-file).
var faults = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Split(os.Getenv(Env), ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, value, _ := strings.Cut(kv, "=")
		m[name] = value
	}
	return m
})

func lookup(name string) (string, bool) {
	v, ok := faults()[name]
	return v, ok
}
