package bind

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestArtifactsUpToDate rebuilds the contracts with chain/contracts/build.sh (pinned
// solc via npm, abigen at a pinned go-ethereum version) into temporary directories and
// requires the committed ABI, bytecode and Go bindings to be byte-identical. It fails,
// never skips, when the tooling (bash, node, npm, go) is missing: stale artifacts must
// not pass CI silently. Fix a failure with `make contracts` (bash chain/contracts/build.sh).
func TestArtifactsUpToDate(t *testing.T) {
	for _, tool := range []string{"bash", "node", "npm", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required to check the contract artifacts: %v", tool, err)
		}
	}
	committedBuild := filepath.Join("..", "contracts", "build")
	tmp := t.TempDir()
	outBuild, outBind := filepath.Join(tmp, "build"), filepath.Join(tmp, "bind")

	cmd := exec.Command("bash", filepath.Join("..", "contracts", "build.sh"), outBuild, outBind)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("build.sh failed: %v\n%s", err, out)
	}

	// chain/contracts/build must hold exactly what the build produces.
	fresh := listFiles(t, outBuild)
	committed := listFiles(t, committedBuild)
	if strings.Join(fresh, ",") != strings.Join(committed, ",") {
		t.Errorf("chain/contracts/build holds %v, the build produces %v", committed, fresh)
	}
	for _, name := range fresh {
		compareFile(t, filepath.Join(outBuild, name), filepath.Join(committedBuild, name))
	}

	// Every generated Go file must be committed unchanged, and every committed
	// generated file in this package must still be produced.
	generated := listFiles(t, outBind)
	if len(generated) == 0 {
		t.Fatal("build.sh generated no bindings")
	}
	produced := map[string]bool{}
	for _, name := range generated {
		produced[name] = true
		compareFile(t, filepath.Join(outBind, name), name)
	}
	for _, name := range listFiles(t, ".") {
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || produced[name] {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(src, []byte("// Code generated")) {
			t.Errorf("%s is a generated file that build.sh no longer produces; delete it", name)
		}
	}
}

func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

func compareFile(t *testing.T, fresh, committed string) {
	t.Helper()
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Errorf("%s: missing (%v); run bash chain/contracts/build.sh", committed, err)
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s is out of date with the Solidity sources; run bash chain/contracts/build.sh", committed)
	}
}
