// Package buildinfo says which build of fxd is running: the version and
// commit stamped by the Makefile (-ldflags -X), and the Go toolchain. Both
// `fxd version` and the fxd_build_info metric read it, so they never
// disagree.
package buildinfo

import "runtime"

// Set at link time by the Makefile:
//
//	-X github.com/fxd-labs/fxd/internal/buildinfo.version=…
//	-X github.com/fxd-labs/fxd/internal/buildinfo.commit=…
//
// A plain `go build` (tests, `go run`) leaves them at "dev" and "unknown".
var (
	version = "dev"
	commit  = "unknown"
)

// Info is one build's identity.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	GoVersion string `json:"go_version"`
}

// Get returns this binary's build identity.
func Get() Info {
	return Info{Version: version, Commit: commit, GoVersion: runtime.Version()}
}
