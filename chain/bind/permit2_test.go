package bind

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// vectorFile is the reference vector of shared/vectors/eip712.json (ethers v6
// signTypedData), copied into testdata so the package tests stand alone.
const vectorFile = "testdata/eip712.json"

type eip712Vector struct {
	Domain struct {
		Name              string `json:"name"`
		ChainID           int64  `json:"chainId"`
		VerifyingContract string `json:"verifyingContract"`
	} `json:"domain"`
	PrimaryType       string                    `json:"primaryType"`
	Types             apitypes.Types            `json:"types"`
	Message           apitypes.TypedDataMessage `json:"message"`
	WitnessTypeString string                    `json:"witnessTypeString"`
	EncodeType        string                    `json:"encodeType"`
	DomainSeparator   string                    `json:"domain_separator"`
	Digest            string                    `json:"digest"`
	Signature         string                    `json:"signature"`
}

type eip712Vectors struct {
	SignerAddress    string       `json:"signer_address"`
	SignerPrivateKey string       `json:"signer_private_key"`
	GaslessOrder     eip712Vector `json:"gasless_order"`
	RfqEscrowFunding eip712Vector `json:"rfq_escrow_funding"`
}

func loadVectors(t *testing.T) eip712Vectors {
	t.Helper()
	raw, err := os.ReadFile(vectorFile)
	if err != nil {
		t.Fatal(err)
	}
	// Where the shared vectors sit beside the checkout, the copy must be identical.
	if shared, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "vectors", "eip712.json")); err == nil {
		if !bytes.Equal(shared, raw) {
			t.Fatalf("%s differs from shared/vectors/eip712.json; copy it again", vectorFile)
		}
	}
	var v eip712Vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func (v eip712Vector) typedData() apitypes.TypedData {
	types := apitypes.Types{"EIP712Domain": permit2DomainType}
	for k, fields := range v.Types {
		types[k] = fields
	}
	return apitypes.TypedData{
		Types:       types,
		PrimaryType: v.PrimaryType,
		Domain:      permit2Domain(big.NewInt(v.Domain.ChainID), common.HexToAddress(v.Domain.VerifyingContract)),
		Message:     v.Message,
	}
}

func (v eip712Vector) witnessType() string {
	for _, f := range v.Types["PermitWitnessTransferFrom"] {
		if f.Name == "witness" {
			return f.Type
		}
	}
	return ""
}

// testTokenStorage returns genesis storage giving `owner` a balance of TestToken and an
// allowance for `spender`, from TestToken's storage layout: owner (slot 0, from Owned),
// name 1, symbol 2, totalSupply 3, balanceOf 4, allowance 5. The test reads the values
// back through the token's getters, so a layout change fails loudly.
func testTokenStorage(owner, spender common.Address, balance, allowance *big.Int) map[common.Hash]common.Hash {
	pad := func(x []byte) []byte { return common.LeftPadBytes(x, 32) }
	balSlot := crypto.Keccak256Hash(pad(owner[:]), pad([]byte{4}))
	inner := crypto.Keccak256(pad(owner[:]), pad([]byte{5}))
	allowSlot := crypto.Keccak256Hash(pad(spender[:]), inner)
	return map[common.Hash]common.Hash{
		common.BigToHash(big.NewInt(3)): common.BigToHash(balance),
		balSlot:                         common.BigToHash(balance),
		allowSlot:                       common.BigToHash(allowance),
	}
}

func testTokenRuntime(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "contracts", "build", "TestToken.bin-runtime"))
	if err != nil {
		t.Fatal(err)
	}
	return common.FromHex(string(raw))
}

// TestPermit2ReferenceVectors checks that our Permit2, with its runtime code at the
// canonical address on chain id 1337 (the simulated backend's), accepts exactly the
// ethers-made signatures of the reference vectors, through real permitWitnessTransferFrom
// executions that move a real TestToken balance.
//
// The vectors' deadline (1795000120) is a fixed past instant, so the accepting calls run
// as eth_call against the genesis block (timestamp 0); against the latest block the same
// call must fail with SignatureExpired.
func TestPermit2ReferenceVectors(t *testing.T) {
	v := loadVectors(t)
	signer := common.HexToAddress(v.SignerAddress)
	if k, err := crypto.HexToECDSA(v.SignerPrivateKey[2:]); err != nil || addr(k) != signer {
		t.Fatalf("vector signer key does not match its address: %v", err)
	}

	for name, vec := range map[string]eip712Vector{"gasless_order": v.GaslessOrder, "rfq_escrow_funding": v.RfqEscrowFunding} {
		t.Run(name, func(t *testing.T) {
			td := vec.typedData()
			witnessType := vec.witnessType()

			// The Go EIP-712 harness agrees with ethers on every intermediate value.
			if got := string(td.EncodeType("PermitWitnessTransferFrom")); got != vec.EncodeType {
				t.Fatalf("encodeType:\n got %s\nwant %s", got, vec.EncodeType)
			}
			stub := "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,"
			if stub+vec.WitnessTypeString != vec.EncodeType {
				t.Fatalf("Permit2 stub + witnessTypeString != encodeType")
			}
			ds, err := td.HashStruct("EIP712Domain", td.Domain.Map())
			if err != nil {
				t.Fatal(err)
			}
			if ds.String() != vec.DomainSeparator {
				t.Fatalf("domain separator %s, want %s", ds, vec.DomainSeparator)
			}
			if got := hexutil.Encode(digest(t, td)); got != vec.Digest {
				t.Fatalf("digest %s, want %s", got, vec.Digest)
			}
			sig := hexutil.MustDecode(vec.Signature)
			pub, err := crypto.SigToPub(digest(t, td), append(append([]byte{}, sig[:64]...), sig[64]-27))
			if err != nil || crypto.PubkeyToAddress(*pub) != signer {
				t.Fatalf("vector signature does not recover to the signer")
			}

			msg := vec.Message
			permitted := msg["permitted"].(map[string]interface{})
			token := common.HexToAddress(permitted["token"].(string))
			amount := mustBig(permitted["amount"].(string))
			spender := common.HexToAddress(msg["spender"].(string))
			nonce := mustBig(msg["nonce"].(string))
			deadline := mustBig(msg["deadline"].(string))
			witness := structHash(t, td, witnessType, msg["witness"].(map[string]interface{}))

			// Chain 1337 with Permit2 at the canonical address and a TestToken at the
			// vector's token address holding the signer's balance and Permit2 allowance.
			alloc := types.GenesisAlloc{
				CanonicalPermit2Address: {Code: PermitRuntimeCode(), Balance: new(big.Int)},
				token: {
					Code:    testTokenRuntime(t),
					Balance: new(big.Int),
					Storage: testTokenStorage(signer, CanonicalPermit2Address, amount, maxUint256),
				},
			}
			deployerKey := mustKey(t, 0xd0)
			for a, acc := range fundedAlloc(deployerKey) {
				alloc[a] = acc
			}
			sim := simulated.NewBackend(alloc)
			defer sim.Close()
			client := sim.Client()
			ctx := context.Background()
			genesis := big.NewInt(0)

			if id, err := client.ChainID(ctx); err != nil || id.Cmp(big.NewInt(vec.Domain.ChainID)) != 0 {
				t.Fatalf("simulated chain id %v, vector %d (%v)", id, vec.Domain.ChainID, err)
			}
			p2, err := NewPermit2(CanonicalPermit2Address, client)
			if err != nil {
				t.Fatal(err)
			}
			onChainDS, err := p2.DOMAINSEPARATOR(&bind.CallOpts{BlockNumber: genesis})
			if err != nil {
				t.Fatal(err)
			}
			if common.Hash(onChainDS).String() != vec.DomainSeparator {
				t.Fatalf("on-chain DOMAIN_SEPARATOR %x, want %s", onChainDS, vec.DomainSeparator)
			}
			tok, _ := NewTestToken(token, client)
			if b, _ := tok.BalanceOf(&bind.CallOpts{BlockNumber: genesis}, signer); b.Cmp(amount) != 0 {
				t.Fatalf("genesis token balance %v, want %v (storage layout changed?)", b, amount)
			}
			if a, _ := tok.Allowance(&bind.CallOpts{BlockNumber: genesis}, signer, CanonicalPermit2Address); a.Cmp(maxUint256) != 0 {
				t.Fatalf("genesis allowance %v (storage layout changed?)", a)
			}

			p2abi, _ := Permit2MetaData.GetAbi()
			recipient := common.HexToAddress("0x000000000000000000000000000000000000bEEF")
			call := func(from common.Address, block *big.Int, mutate func(p *ISignatureTransferPermitTransferFrom, d *ISignatureTransferSignatureTransferDetails, w *[32]byte, wts *string, sig *[]byte)) error {
				p := ISignatureTransferPermitTransferFrom{
					Permitted: ISignatureTransferTokenPermissions{Token: token, Amount: amount},
					Nonce:     nonce, Deadline: deadline,
				}
				d := ISignatureTransferSignatureTransferDetails{To: recipient, RequestedAmount: amount}
				w, wts, s := witness, vec.WitnessTypeString, append([]byte{}, sig...)
				if mutate != nil {
					mutate(&p, &d, &w, &wts, &s)
				}
				data, err := p2abi.Pack("permitWitnessTransferFrom", p, d, signer, w, wts, s)
				if err != nil {
					t.Fatal(err)
				}
				to := CanonicalPermit2Address
				_, err = client.CallContract(ctx, ethereum.CallMsg{From: from, To: &to, Data: data}, block)
				return err
			}

			// Accepted: the full amount moves (a real TestToken transferFrom).
			if err := call(spender, genesis, nil); err != nil {
				t.Fatalf("ethers signature rejected: %v (%s)", err, revertName(err))
			}
			// EIP-2098 compact form of the same signature is accepted too.
			if err := call(spender, genesis, func(_ *ISignatureTransferPermitTransferFrom, _ *ISignatureTransferSignatureTransferDetails, _ *[32]byte, _ *string, s *[]byte) {
				*s = compact(*s)
			}); err != nil {
				t.Fatalf("compact signature rejected: %v (%s)", err, revertName(err))
			}
			// A smaller requested amount is fine (amount <= permitted).
			if err := call(spender, genesis, func(_ *ISignatureTransferPermitTransferFrom, d *ISignatureTransferSignatureTransferDetails, _ *[32]byte, _ *string, _ *[]byte) {
				d.RequestedAmount = big.NewInt(1)
			}); err != nil {
				t.Fatalf("partial amount rejected: %v (%s)", err, revertName(err))
			}

			rejects := []struct {
				name   string
				from   common.Address
				mutate func(p *ISignatureTransferPermitTransferFrom, d *ISignatureTransferSignatureTransferDetails, w *[32]byte, wts *string, sig *[]byte)
				want   string
			}{
				{"other spender", common.HexToAddress("0x0000000000000000000000000000000000009999"), nil, "InvalidSigner"},
				{"other witness", spender, func(_ *ISignatureTransferPermitTransferFrom, _ *ISignatureTransferSignatureTransferDetails, w *[32]byte, _ *string, _ *[]byte) {
					w[31] ^= 1
				}, "InvalidSigner"},
				{"other witness type", spender, func(_ *ISignatureTransferPermitTransferFrom, _ *ISignatureTransferSignatureTransferDetails, _ *[32]byte, wts *string, _ *[]byte) {
					*wts += " "
				}, "InvalidSigner"},
				{"other nonce", spender, func(p *ISignatureTransferPermitTransferFrom, _ *ISignatureTransferSignatureTransferDetails, _ *[32]byte, _ *string, _ *[]byte) {
					p.Nonce = new(big.Int).Add(nonce, big.NewInt(1))
				}, "InvalidSigner"},
				{"more than permitted", spender, func(_ *ISignatureTransferPermitTransferFrom, d *ISignatureTransferSignatureTransferDetails, _ *[32]byte, _ *string, _ *[]byte) {
					d.RequestedAmount = new(big.Int).Add(amount, big.NewInt(1))
				}, "InvalidAmount"},
				{"high s", spender, func(_ *ISignatureTransferPermitTransferFrom, _ *ISignatureTransferSignatureTransferDetails, _ *[32]byte, _ *string, s *[]byte) {
					*s = malleate(*s)
				}, "InvalidSignatureS"},
				{"short signature", spender, func(_ *ISignatureTransferPermitTransferFrom, _ *ISignatureTransferSignatureTransferDetails, _ *[32]byte, _ *string, s *[]byte) {
					*s = (*s)[:63]
				}, "InvalidSignatureLength"},
				{"v not 27/28", spender, func(_ *ISignatureTransferPermitTransferFrom, _ *ISignatureTransferSignatureTransferDetails, _ *[32]byte, _ *string, s *[]byte) {
					(*s)[64] -= 27
				}, "InvalidSignature"},
			}
			for _, r := range rejects {
				if err := call(r.from, genesis, r.mutate); revertName(err) != r.want {
					t.Errorf("%s: got %q (%v), want %s", r.name, revertName(err), err, r.want)
				}
			}

			// On the latest block the vector's deadline has passed.
			sim.Commit()
			if err := call(spender, nil, nil); revertName(err) != "SignatureExpired" {
				t.Errorf("latest block: got %q (%v), want SignatureExpired", revertName(err), err)
			}

			// Our contracts compute the same witness and use the same type strings.
			auth, _ := bind.NewKeyedTransactorWithChainID(deployerKey, simChainID)
			switch witnessType {
			case "GaslessOrder":
				_, tx, router, err := DeployRelayRouter(auth, client, CanonicalPermit2Address)
				if err != nil {
					t.Fatal(err)
				}
				sim.Commit()
				if _, err := bind.WaitDeployed(ctx, client, tx); err != nil {
					t.Fatal(err)
				}
				w := msg["witness"].(map[string]interface{})
				o := RelayRouterGaslessOrder{
					Signer: common.HexToAddress(w["signer"].(string)), TokenIn: common.HexToAddress(w["tokenIn"].(string)),
					TokenOut: common.HexToAddress(w["tokenOut"].(string)), AmountIn: mustBig(w["amountIn"].(string)),
					MinAmountOut: mustBig(w["minAmountOut"].(string)), Recipient: common.HexToAddress(w["recipient"].(string)),
					Pool: common.HexToAddress(w["pool"].(string)), Deadline: mustBig(w["deadline"].(string)), Nonce: mustBig(w["nonce"].(string)),
				}
				h, err := router.HashGaslessOrder(nil, o)
				if err != nil || h != witness {
					t.Fatalf("hashGaslessOrder %x, want %x (%v)", h, witness, err)
				}
				if s, _ := router.WITNESSTYPESTRING(nil); s != vec.WitnessTypeString || s != gaslessWitnessTypeString {
					t.Fatalf("router WITNESS_TYPE_STRING %q", s)
				}
				if th, _ := router.GASLESSORDERTYPEHASH(nil); common.Hash(th) != common.BytesToHash(td.TypeHash("GaslessOrder")) {
					t.Fatalf("GASLESS_ORDER_TYPEHASH mismatch")
				}
			case "RfqEscrowFunding":
				_, tx, escrow, err := DeployRfqEscrow(auth, client, CanonicalPermit2Address, 60)
				if err != nil {
					t.Fatal(err)
				}
				sim.Commit()
				if _, err := bind.WaitDeployed(ctx, client, tx); err != nil {
					t.Fatal(err)
				}
				w := msg["witness"].(map[string]interface{})
				f := RfqEscrowFunding{
					Signer: common.HexToAddress(w["signer"].(string)), ExecutionId: common.HexToHash(w["executionId"].(string)),
					Escrow: common.HexToAddress(w["escrow"].(string)), QuoteHash: common.HexToHash(w["quoteHash"].(string)),
					Token: common.HexToAddress(w["token"].(string)), Amount: mustBig(w["amount"].(string)),
					Deadline: mustBig(w["deadline"].(string)), Nonce: mustBig(w["nonce"].(string)),
				}
				h, err := escrow.HashFunding(nil, f)
				if err != nil || h != witness {
					t.Fatalf("hashFunding %x, want %x (%v)", h, witness, err)
				}
				if s, _ := escrow.WITNESSTYPESTRING(nil); s != vec.WitnessTypeString || s != fundingWitnessTypeString {
					t.Fatalf("escrow WITNESS_TYPE_STRING %q", s)
				}
				if th, _ := escrow.RFQESCROWFUNDINGTYPEHASH(nil); common.Hash(th) != common.BytesToHash(td.TypeHash("RfqEscrowFunding")) {
					t.Fatalf("RFQ_ESCROW_FUNDING_TYPEHASH mismatch")
				}
			default:
				t.Fatalf("unknown witness type %q", witnessType)
			}
		})
	}
}

// permitTypedData is a plain (witness-less) Permit2 PermitTransferFrom.
func permitTypedData(chainID *big.Int, permit2, spender, token common.Address, amount, nonce, deadline *big.Int) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": permit2DomainType,
			"PermitTransferFrom": {
				{Name: "permitted", Type: "TokenPermissions"},
				{Name: "spender", Type: "address"},
				{Name: "nonce", Type: "uint256"},
				{Name: "deadline", Type: "uint256"},
			},
			"TokenPermissions": tokenPermissionsType,
		},
		PrimaryType: "PermitTransferFrom",
		Domain:      permit2Domain(chainID, permit2),
		Message: apitypes.TypedDataMessage{
			"permitted": map[string]interface{}{"token": token.Hex(), "amount": dec(amount)},
			"spender":   spender.Hex(),
			"nonce":     dec(nonce),
			"deadline":  dec(deadline),
		},
	}
}

// TestPermit2TransferFrom exercises permitTransferFrom with real transactions: the
// transfer, nonce reuse, nonce invalidation, deadline, amount, spender, and the
// signature encodings.
func TestPermit2TransferFrom(t *testing.T) {
	e := newEnv(t)
	usdc := e.addrs.USDC
	spender := addr(e.relayer) // any contract or EOA can be a Permit2 spender
	to := addr(e.other)
	amount := Units(250)
	deadline := new(big.Int).SetUint64(e.now() + 600)

	permit := func(nonce int64, amt *big.Int) ISignatureTransferPermitTransferFrom {
		return ISignatureTransferPermitTransferFrom{
			Permitted: ISignatureTransferTokenPermissions{Token: usdc, Amount: amt},
			Nonce:     big.NewInt(nonce), Deadline: deadline,
		}
	}
	signPermit := func(k *ecdsaKey, spenderAddr common.Address, nonce int64, amt, dl *big.Int) []byte {
		return sign(t, k, permitTypedData(simChainID, e.addrs.Permit2, spenderAddr, usdc, amt, big.NewInt(nonce), dl))
	}
	details := func(amt *big.Int) ISignatureTransferSignatureTransferDetails {
		return ISignatureTransferSignatureTransferDetails{To: to, RequestedAmount: amt}
	}
	user := addr(e.user)

	// Happy path; the nonce bit is set afterwards.
	sig := signPermit(e.user, spender, 1, amount, deadline)
	before := e.balance(USDC, user)
	r := e.mine(e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(1, amount), details(amount), user, sig))
	t.Logf("gas: Permit2.permitTransferFrom = %d", r.GasUsed)
	if got := new(big.Int).Sub(before, e.balance(USDC, user)); got.Cmp(amount) != 0 {
		t.Fatalf("user paid %v, want %v", got, amount)
	}
	if got := e.balance(USDC, to); got.Cmp(amount) != 0 {
		t.Fatalf("recipient got %v, want %v", got, amount)
	}
	if bm, _ := e.c.Permit2.NonceBitmap(nil, user, big.NewInt(0)); bm.Cmp(big.NewInt(2)) != 0 {
		t.Fatalf("nonce bitmap %v, want 2 (bit 1)", bm)
	}

	// Replay of the same signature: the nonce is used.
	_, err := e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(1, amount), details(amount), user, sig)
	requireRevert(t, err, "InvalidNonce")

	// EIP-2098 compact signature works (nonce 2, in another word: nonce 300 -> word 1).
	sig = signPermit(e.user, spender, 300, amount, deadline)
	e.mine(e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(300, amount), details(amount), user, compact(sig)))
	if bm, _ := e.c.Permit2.NonceBitmap(nil, user, big.NewInt(1)); bm.Cmp(new(big.Int).Lsh(big.NewInt(1), 300-256)) != 0 {
		t.Fatalf("nonce bitmap word 1 = %v", bm)
	}

	// Requesting less than permitted is fine; more is not.
	sig = signPermit(e.user, spender, 3, amount, deadline)
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(3, amount), details(new(big.Int).Add(amount, big.NewInt(1))), user, sig)
	requireRevert(t, err, "InvalidAmount")
	e.mine(e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(3, amount), details(Units(1)), user, sig))

	// A signature for another spender does not verify for this caller.
	sig = signPermit(e.user, addr(e.other), 4, amount, deadline)
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(4, amount), details(amount), user, sig)
	requireRevert(t, err, "InvalidSigner")
	// ... nor does one from another key, or one claimed for another owner.
	sig = signPermit(e.other, spender, 4, amount, deadline)
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(4, amount), details(amount), user, sig)
	requireRevert(t, err, "InvalidSigner")

	// Malleated (high-s), truncated and bad-v signatures.
	sig = signPermit(e.user, spender, 5, amount, deadline)
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(5, amount), details(amount), user, malleate(sig))
	requireRevert(t, err, "InvalidSignatureS")
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(5, amount), details(amount), user, sig[:60])
	requireRevert(t, err, "InvalidSignatureLength")
	bad := append([]byte{}, sig...)
	bad[64] = 1
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(5, amount), details(amount), user, bad)
	requireRevert(t, err, "InvalidSignature")

	// Expired deadline.
	past := new(big.Int).SetUint64(e.now() - 1)
	sig = signPermit(e.user, spender, 6, amount, past)
	p := permit(6, amount)
	p.Deadline = past
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), p, details(amount), user, sig)
	requireRevert(t, err, "SignatureExpired")

	// The owner cancels nonce 7 before it is used.
	sig = signPermit(e.user, spender, 7, amount, deadline)
	r = e.mine(e.c.Permit2.InvalidateUnorderedNonces(e.auth(e.user), big.NewInt(0), big.NewInt(1<<7)))
	if len(r.Logs) != 1 {
		t.Fatalf("expected one UnorderedNonceInvalidation log")
	}
	ev, err := e.c.Permit2.ParseUnorderedNonceInvalidation(*r.Logs[0])
	if err != nil || ev.Owner != user || ev.Word.Sign() != 0 || ev.Mask.Int64() != 1<<7 {
		t.Fatalf("bad invalidation event %+v %v", ev, err)
	}
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(7, amount), details(amount), user, sig)
	requireRevert(t, err, "InvalidNonce")

	// Not enough balance: the token's own error bubbles up through Permit2.
	huge := Units(10_000_000)
	sig = signPermit(e.user, spender, 8, huge, deadline)
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), permit(8, huge), details(huge), user, sig)
	requireRevert(t, err, "InsufficientBalance")

	// A "token" without code is refused rather than treated as a successful transfer.
	ghost := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
	td := permitTypedData(simChainID, e.addrs.Permit2, spender, ghost, amount, big.NewInt(9), deadline)
	sig = sign(t, e.user, td)
	p = permit(9, amount)
	p.Permitted.Token = ghost
	_, err = e.c.Permit2.PermitTransferFrom(e.auth(e.relayer), p, details(amount), user, sig)
	requireRevert(t, err, "TokenHasNoCode")
}

// TestPermit2Selectors pins the function selectors to Uniswap Permit2's.
func TestPermit2Selectors(t *testing.T) {
	a, err := Permit2MetaData.GetAbi()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"permitTransferFrom":        "0x30f28b7a",
		"permitWitnessTransferFrom": "0x137c29fe",
		"nonceBitmap":               "0x4fe02b44",
		"invalidateUnorderedNonces": "0x3ff9dcb1",
		"DOMAIN_SEPARATOR":          "0x3644e515",
	}
	for name, sel := range want {
		if got := hexutil.Encode(a.Methods[name].ID); got != sel {
			t.Errorf("%s selector %s, want %s", name, got, sel)
		}
	}
}
