package eip712

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"github.com/fxd-labs/fxd/internal/repo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// interopCase is one entry of the file interop/sign.mjs reads.
type interopCase struct {
	Key       string    `json:"key"`
	TypedData TypedData `json:"typed_data"`

	verify func(sig []byte) error
	digest [32]byte
	signer common.Address
}

// interopResult is one line sign.mjs prints.
type interopResult struct {
	Digest    string `json:"digest"`
	Signature string `json:"signature"`
	Address   string `json:"address"`
}

// TestInteropEthers has ethers v6 sign the typed data our GaslessTypedData and
// RfqTypedData produce, exactly as a caller would sign signing.typed_data,
// and verifies the signatures with VerifyGasless and VerifyRfq. It needs node
// and npm and fails, rather than skips, without them: an unverified wallet
// path is the bug this test is for.
func TestInteropEthers(t *testing.T) {
	dir := filepath.Join(repo.MustRoot(t), "chain", "eip712", "interop")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is required for the ethers interop test: %v", err)
	}
	ensureNodeModules(t, dir)

	v := loadVectors(t)
	r := rng(6)
	var cases []*interopCase
	add := func(key string, signer common.Address, td TypedData, digest [32]byte, verify func([]byte) error) {
		cases = append(cases, &interopCase{Key: key, TypedData: td, verify: verify, digest: digest, signer: signer})
	}
	// The vectors' own messages first, then random ones with random keys.
	// Each closure gets its own variables: Verify must see what was signed.
	addGasless := func(key string, d Domain, sp common.Address, o *GaslessOrder) {
		add(key, o.Signer, GaslessTypedData(d, sp, o), GaslessDigest(d, sp, o),
			func(sig []byte) error { return VerifyGasless(d, sp, o, sig) })
	}
	addRfq := func(key string, d Domain, sp common.Address, f *RfqEscrowFunding) {
		add(key, f.Signer, RfqTypedData(d, sp, f), RfqDigest(d, sp, f),
			func(sig []byte) error { return VerifyRfq(d, sp, f, sig) })
	}
	addGasless(v.SignerPrivateKey, v.Gasless.domain(t), mustAddr(t, v.Gasless.Message.Spender), v.Gasless.gaslessOrder(t))
	addRfq(v.SignerPrivateKey, v.Rfq.domain(t), mustAddr(t, v.Rfq.Message.Spender), v.Rfq.rfqFunding(t))
	for range 12 {
		k := randKey(t, r)
		key, signer := hexutil.Encode(crypto.FromECDSA(k)), crypto.PubkeyToAddress(k.PublicKey)
		d := randDomain(r)
		addGasless(key, d, randAddr(r), randGasless(r, signer))
		f := randRfq(r, signer)
		addRfq(key, d, f.Escrow, f)
	}

	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(path, in, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "sign.mjs", path)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node sign.mjs: %v\n%s", err, stderr.String())
	}

	sc := bufio.NewScanner(bytes.NewReader(out))
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(cases) {
			t.Fatalf("sign.mjs printed more than %d results", len(cases))
		}
		c := cases[i]
		var res interopResult
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Fatalf("sign.mjs line %d: %v: %s", i, err, sc.Bytes())
		}
		if res.Digest != hexutil.Encode(c.digest[:]) {
			t.Errorf("case %d (%s): ethers digest %s, ours %x", i, c.TypedData.Types[PermitPrimaryType][4].Type, res.Digest, c.digest)
		}
		if !strings.EqualFold(res.Address, c.signer.Hex()) {
			t.Errorf("case %d: ethers wallet %s, signer %s", i, res.Address, c.signer)
		}
		sig, err := hexutil.Decode(res.Signature)
		if err != nil {
			t.Fatalf("case %d: signature %q: %v", i, res.Signature, err)
		}
		if err := c.verify(sig); err != nil {
			t.Errorf("case %d (%s): our Verify refuses ethers' signature: %v", i, c.TypedData.Types[PermitPrimaryType][4].Type, err)
		}
	}
	if i != len(cases) {
		t.Fatalf("sign.mjs printed %d results for %d cases\n%s", i, len(cases), stderr.String())
	}
	// The vectors' signatures are deterministic (RFC 6979): ethers must
	// reproduce them from our typed data.
	lines := strings.SplitN(string(out), "\n", 3)
	for j, want := range []string{v.Gasless.Signature, v.Rfq.Signature} {
		var res interopResult
		if err := json.Unmarshal([]byte(lines[j]), &res); err != nil || res.Signature != want {
			t.Errorf("ethers signed our typed data for vector %d as %s (%v), vector has %s", j, res.Signature, err, want)
		}
	}
}

// ensureNodeModules runs npm ci in dir when its node_modules lacks ethers.
func ensureNodeModules(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "ethers", "package.json")); err == nil {
		return
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("npm is required to install the interop script's dependencies: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
}
