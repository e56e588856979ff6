#!/usr/bin/env bash
# Compiles chain/contracts/src/*.sol with the solc pinned in package.json (solcjs,
# standard JSON, optimizer on, evmVersion cancun) and regenerates the Go bindings.
#
#   chain/contracts/build.sh [BUILD_DIR [BIND_DIR]]
#
# Defaults: BUILD_DIR = chain/contracts/build (ABI, creation and runtime bytecode),
#           BIND_DIR  = chain/bind (abigen v1 bindings, permit2_runtime_gen.go).
# chain/bind's artifacts test runs this into temporary directories and compares the
# output byte for byte with the committed files.
# Needs node + npm (runs `npm ci` when node_modules lacks the pinned solc) and go.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build_dir="${1:-$here/build}"
bind_dir="${2:-$root/chain/bind}"
abigen_version="v1.17.10"

for tool in node npm go; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "build.sh: $tool not found in PATH" >&2
		exit 1
	fi
done

mkdir -p "$build_dir" "$bind_dir"
build_dir="$(cd "$build_dir" && pwd)"
bind_dir="$(cd "$bind_dir" && pwd)"

cd "$here"
want="$(node -p "require('./package.json').devDependencies.solc")"
have="$(node -p "try { require('./node_modules/solc/package.json').version } catch (e) { '' }")"
if [ "$have" != "$want" ]; then
	echo "build.sh: installing solc $want (npm ci)" >&2
	npm ci --no-audit --no-fund >&2
fi

# Stale artifacts of removed contracts must not survive a rebuild.
rm -f "$build_dir"/*.abi "$build_dir"/*.bin "$build_dir"/*.bin-runtime "$build_dir"/VERSION

contracts="$(node compile.js "$build_dir" "$bind_dir")"

# abigen at a fixed version, built once per run outside the fxd module (go install
# pkg@version ignores the current go.mod, so it needs no entries in go.sum).
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
GOBIN="$tools" GOFLAGS=-buildvcs=false go install "github.com/ethereum/go-ethereum/cmd/abigen@$abigen_version"

while read -r name stem; do
	[ -n "$name" ] || continue
	"$tools/abigen" \
		--abi "$build_dir/$name.abi" \
		--bin "$build_dir/$name.bin" \
		--pkg bind \
		--type "$name" \
		--out "$bind_dir/$stem.go"
done <<<"$contracts"

echo "build.sh: built $(echo "$contracts" | wc -l) contracts into $build_dir, bindings into $bind_dir" >&2
