package bind

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// Witness type strings exactly as CONTRACT.md gives them.
const (
	gaslessWitnessTypeString = "GaslessOrder witness)GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)"
	fundingWitnessTypeString = "RfqEscrowFunding witness)RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)"
)

// simChainID is the chain id of go-ethereum's simulated backend (always 1337), which is
// also the chain id of the reference vectors.
var simChainID = big.NewInt(1337)

type ecdsaKey = ecdsa.PrivateKey

func mustKey(t testing.TB, b byte) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.ToECDSA(common.LeftPadBytes([]byte{b}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// env is a simulated chain with the full contract set deployed by DeployAll, Permit2's
// runtime code at the canonical address (as the embedded chain does), a funded user
// that approved Permit2 for every token, and a registered, funded maker that approved
// the escrow for every token.
type env struct {
	t        *testing.T
	sim      *simulated.Backend
	client   simulated.Client
	addrs    *Addresses
	c        *Contracts
	deployer *ecdsa.PrivateKey
	user     *ecdsa.PrivateKey // taker / order signer
	maker    *ecdsa.PrivateKey // registered RFQ maker
	relayer  *ecdsa.PrivateKey // pays gas for relays, holds nothing else
	other    *ecdsa.PrivateKey // an unrelated, unregistered account
}

func addr(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

func fundedAlloc(keys ...*ecdsa.PrivateKey) types.GenesisAlloc {
	eth := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	alloc := types.GenesisAlloc{}
	for _, k := range keys {
		alloc[addr(k)] = types.Account{Balance: eth}
	}
	return alloc
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t)
}

// newEnvWith is newEnv with simulated-backend options (e.g. another fork schedule).
func newEnvWith(t *testing.T, options ...func(*node.Config, *ethconfig.Config)) *env {
	t.Helper()
	e := &env{
		t:        t,
		deployer: mustKey(t, 0xd0),
		user:     mustKey(t, 0x11),
		maker:    mustKey(t, 0x22),
		relayer:  mustKey(t, 0x33),
		other:    mustKey(t, 0x44),
	}
	alloc := fundedAlloc(e.deployer, e.user, e.maker, e.relayer, e.other)
	alloc[CanonicalPermit2Address] = types.Account{Code: PermitRuntimeCode(), Balance: new(big.Int)}
	e.sim = simulated.NewBackend(alloc, options...)
	t.Cleanup(func() { _ = e.sim.Close() })
	e.client = e.sim.Client()

	addrs, err := DeployAll(e.auth(e.deployer), e.client, DeployConfig{
		Permit2:        CanonicalPermit2Address,
		Makers:         []common.Address{addr(e.maker)},
		MakerInventory: Units(1_000_000),
		Commit:         func() { e.sim.Commit() },
	})
	if err != nil {
		t.Fatalf("DeployAll: %v", err)
	}
	e.addrs = addrs
	if e.c, err = NewContracts(addrs, e.client); err != nil {
		t.Fatal(err)
	}
	for _, sym := range []string{USDC, USDT, EURC} {
		e.mine(e.c.Tokens[sym].Mint(e.auth(e.deployer), addr(e.user), Units(1_000_000)))
		e.mine(e.c.Tokens[sym].Approve(e.auth(e.user), addrs.Permit2, maxUint256))
		e.mine(e.c.Tokens[sym].Approve(e.auth(e.maker), addrs.RfqEscrow, maxUint256))
	}
	return e
}

func (e *env) auth(k *ecdsa.PrivateKey) *bind.TransactOpts {
	e.t.Helper()
	opts, err := bind.NewKeyedTransactorWithChainID(k, simChainID)
	if err != nil {
		e.t.Fatal(err)
	}
	opts.Context = context.Background()
	return opts
}

// mine commits the transaction into a block and requires it to succeed.
func (e *env) mine(tx *types.Transaction, err error) *types.Receipt {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("send: %v (revert: %s)", err, revertName(err))
	}
	r, err := e.receipt(tx)
	if err != nil {
		e.t.Fatalf("receipt: %v", err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("tx %s reverted", tx.Hash())
	}
	return r
}

// receipt commits blocks until tx is in one (see waitReceipt on why one Commit may
// not be enough).
func (e *env) receipt(tx *types.Transaction) (*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return waitReceipt(ctx, e.client, tx.Hash(), func() { e.sim.Commit() })
}

func (e *env) now() uint64 {
	e.t.Helper()
	h, err := e.client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return h.Time
}

// blockTime is the timestamp of block n.
func (e *env) blockTime(n *big.Int) uint64 {
	e.t.Helper()
	h, err := e.client.HeaderByNumber(context.Background(), n)
	if err != nil {
		e.t.Fatal(err)
	}
	return h.Time
}

func (e *env) balance(sym string, who common.Address) *big.Int {
	e.t.Helper()
	b, err := e.c.Tokens[sym].BalanceOf(nil, who)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// --- revert decoding -------------------------------------------------------------

// customErrors maps a 4-byte selector to the error's name across all contract ABIs,
// since errors bubble up from Permit2 and the tokens through the router and the escrow.
var customErrors = func() map[[4]byte]string {
	m := map[[4]byte]string{}
	for _, md := range []*bind.MetaData{TestTokenMetaData, Permit2MetaData, PoolMetaData, RelayRouterMetaData, RfqEscrowMetaData} {
		a, err := md.GetAbi()
		if err != nil {
			panic(err)
		}
		for name, e := range a.Errors {
			var sel [4]byte
			copy(sel[:], e.ID[:4])
			m[sel] = name
		}
	}
	return m
}()

// revertName returns the custom error name carried by a JSON-RPC execution error
// ("" if none). Calls and gas estimation return the revert data as rpc.DataError.
func revertName(err error) string {
	var de rpc.DataError
	if err == nil || !errors.As(err, &de) {
		return ""
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return ""
	}
	data, derr := hexutil.Decode(s)
	if derr != nil || len(data) < 4 {
		return ""
	}
	var sel [4]byte
	copy(sel[:], data[:4])
	if name, ok := customErrors[sel]; ok {
		return name
	}
	if reason, uerr := abi.UnpackRevert(data); uerr == nil {
		return "Error(" + reason + ")"
	}
	return hexutil.Encode(data[:4])
}

// requireRevert asserts that a transaction failed (at gas estimation) with custom error `name`.
func requireRevert(t *testing.T, err error, name string) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected revert %s, got success", name)
	}
	if got := revertName(err); got != name {
		t.Fatalf("expected revert %s, got %q (%v)", name, got, err)
	}
}

// --- EIP-712 ---------------------------------------------------------------------

var permit2DomainType = []apitypes.Type{
	{Name: "name", Type: "string"},
	{Name: "chainId", Type: "uint256"},
	{Name: "verifyingContract", Type: "address"},
}

var tokenPermissionsType = []apitypes.Type{
	{Name: "token", Type: "address"},
	{Name: "amount", Type: "uint256"},
}

func witnessTypes(witnessType string, fields []apitypes.Type) apitypes.Types {
	return apitypes.Types{
		"EIP712Domain": permit2DomainType,
		"PermitWitnessTransferFrom": {
			{Name: "permitted", Type: "TokenPermissions"},
			{Name: "spender", Type: "address"},
			{Name: "nonce", Type: "uint256"},
			{Name: "deadline", Type: "uint256"},
			{Name: "witness", Type: witnessType},
		},
		"TokenPermissions": tokenPermissionsType,
		witnessType:        fields,
	}
}

var gaslessOrderType = []apitypes.Type{
	{Name: "signer", Type: "address"},
	{Name: "tokenIn", Type: "address"},
	{Name: "tokenOut", Type: "address"},
	{Name: "amountIn", Type: "uint256"},
	{Name: "minAmountOut", Type: "uint256"},
	{Name: "recipient", Type: "address"},
	{Name: "pool", Type: "address"},
	{Name: "deadline", Type: "uint256"},
	{Name: "nonce", Type: "uint256"},
}

var fundingType = []apitypes.Type{
	{Name: "signer", Type: "address"},
	{Name: "executionId", Type: "bytes32"},
	{Name: "escrow", Type: "address"},
	{Name: "quoteHash", Type: "bytes32"},
	{Name: "token", Type: "address"},
	{Name: "amount", Type: "uint256"},
	{Name: "deadline", Type: "uint256"},
	{Name: "nonce", Type: "uint256"},
}

var quoteType = []apitypes.Type{
	{Name: "maker", Type: "address"},
	{Name: "taker", Type: "address"},
	{Name: "tokenIn", Type: "address"},
	{Name: "tokenOut", Type: "address"},
	{Name: "amountIn", Type: "uint256"},
	{Name: "amountOut", Type: "uint256"},
	{Name: "expiry", Type: "uint256"},
	{Name: "salt", Type: "uint256"},
}

func permit2Domain(chainID *big.Int, permit2 common.Address) apitypes.TypedDataDomain {
	return apitypes.TypedDataDomain{
		Name:              "Permit2",
		ChainId:           (*math.HexOrDecimal256)(chainID),
		VerifyingContract: permit2.Hex(),
	}
}

func dec(x *big.Int) string { return x.String() }

func gaslessMessage(o RelayRouterGaslessOrder) apitypes.TypedDataMessage {
	return apitypes.TypedDataMessage{
		"signer":       o.Signer.Hex(),
		"tokenIn":      o.TokenIn.Hex(),
		"tokenOut":     o.TokenOut.Hex(),
		"amountIn":     dec(o.AmountIn),
		"minAmountOut": dec(o.MinAmountOut),
		"recipient":    o.Recipient.Hex(),
		"pool":         o.Pool.Hex(),
		"deadline":     dec(o.Deadline),
		"nonce":        dec(o.Nonce),
	}
}

// gaslessTypedData is the Permit2 PermitWitnessTransferFrom a user signs for order `o`,
// with spender = the router.
func gaslessTypedData(chainID *big.Int, permit2, spender common.Address, o RelayRouterGaslessOrder) apitypes.TypedData {
	return apitypes.TypedData{
		Types:       witnessTypes("GaslessOrder", gaslessOrderType),
		PrimaryType: "PermitWitnessTransferFrom",
		Domain:      permit2Domain(chainID, permit2),
		Message: apitypes.TypedDataMessage{
			"permitted": map[string]interface{}{"token": o.TokenIn.Hex(), "amount": dec(o.AmountIn)},
			"spender":   spender.Hex(),
			"nonce":     dec(o.Nonce),
			"deadline":  dec(o.Deadline),
			"witness":   map[string]interface{}(gaslessMessage(o)),
		},
	}
}

func fundingMessage(f RfqEscrowFunding) apitypes.TypedDataMessage {
	return apitypes.TypedDataMessage{
		"signer":      f.Signer.Hex(),
		"executionId": hexutil.Encode(f.ExecutionId[:]),
		"escrow":      f.Escrow.Hex(),
		"quoteHash":   hexutil.Encode(f.QuoteHash[:]),
		"token":       f.Token.Hex(),
		"amount":      dec(f.Amount),
		"deadline":    dec(f.Deadline),
		"nonce":       dec(f.Nonce),
	}
}

// fundingTypedData is the Permit2 PermitWitnessTransferFrom a taker signs for funding
// `f`, with spender = the escrow (taken from the signed spender argument, so tests can
// sign for a different spender).
func fundingTypedData(chainID *big.Int, permit2, spender common.Address, f RfqEscrowFunding) apitypes.TypedData {
	return apitypes.TypedData{
		Types:       witnessTypes("RfqEscrowFunding", fundingType),
		PrimaryType: "PermitWitnessTransferFrom",
		Domain:      permit2Domain(chainID, permit2),
		Message: apitypes.TypedDataMessage{
			"permitted": map[string]interface{}{"token": f.Token.Hex(), "amount": dec(f.Amount)},
			"spender":   spender.Hex(),
			"nonce":     dec(f.Nonce),
			"deadline":  dec(f.Deadline),
			"witness":   map[string]interface{}(fundingMessage(f)),
		},
	}
}

func quoteMessage(q RfqEscrowQuote) apitypes.TypedDataMessage {
	return apitypes.TypedDataMessage{
		"maker":     q.Maker.Hex(),
		"taker":     q.Taker.Hex(),
		"tokenIn":   q.TokenIn.Hex(),
		"tokenOut":  q.TokenOut.Hex(),
		"amountIn":  dec(q.AmountIn),
		"amountOut": dec(q.AmountOut),
		"expiry":    dec(q.Expiry),
		"salt":      dec(q.Salt),
	}
}

// quoteTypedData is the Quote a maker signs, domain {FxdRfqEscrow, 1, chainId, escrow}.
func quoteTypedData(chainID *big.Int, escrow common.Address, q RfqEscrowQuote) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"},
				{Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"},
				{Name: "verifyingContract", Type: "address"},
			},
			"Quote": quoteType,
		},
		PrimaryType: "Quote",
		Domain: apitypes.TypedDataDomain{
			Name:              "FxdRfqEscrow",
			Version:           "1",
			ChainId:           (*math.HexOrDecimal256)(chainID),
			VerifyingContract: escrow.Hex(),
		},
		Message: quoteMessage(q),
	}
}

// structHash is the EIP-712 hashStruct of the message's primary type (or of `typ`).
func structHash(t testing.TB, td apitypes.TypedData, typ string, msg apitypes.TypedDataMessage) [32]byte {
	t.Helper()
	h, err := td.HashStruct(typ, msg)
	if err != nil {
		t.Fatal(err)
	}
	return [32]byte(h)
}

func digest(t testing.TB, td apitypes.TypedData) []byte {
	t.Helper()
	h, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// sign signs the typed data's EIP-712 digest: 65 bytes r||s||v with v = 27/28, as
// eth_signTypedData_v4 returns.
func sign(t testing.TB, k *ecdsa.PrivateKey, td apitypes.TypedData) []byte {
	t.Helper()
	sig, err := crypto.Sign(digest(t, td), k)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

// compact converts a 65-byte signature to EIP-2098's 64-byte r || (v-27)<<255 | s.
func compact(sig []byte) []byte {
	out := make([]byte, 64)
	copy(out, sig[:64])
	if sig[64] == 28 {
		out[32] |= 0x80
	}
	return out
}

// malleate returns the high-s twin of a low-s signature: (r, n - s, v ^ 1). It
// recovers to the same address, which is what the contracts must refuse.
func malleate(sig []byte) []byte {
	n := crypto.S256().Params().N
	s := new(big.Int).SetBytes(sig[32:64])
	out := make([]byte, 65)
	copy(out, sig[:32])
	new(big.Int).Sub(n, s).FillBytes(out[32:64])
	out[64] = sig[64] ^ 1 // 27 <-> 28
	return out
}

func mustBig(s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 0)
	if !ok {
		panic("bad big " + s)
	}
	return b
}

// advance moves chain time forward by d from the head at the call.
func (e *env) advance(d time.Duration) {
	e.t.Helper()
	e.advanceTo(e.now() + uint64(d/time.Second))
}

// advanceTo seals a block whose timestamp is exactly t. The simulated
// backend refuses to adjust time while its pending block holds
// transactions, and under -race a commit may leave some pending for the
// next block; each such commit seals a block of its own, so the step is
// measured again from the new head every time (a fixed step would
// overshoot t by the blocks committed on the way).
func (e *env) advanceTo(t uint64) {
	e.t.Helper()
	var err error
	for i := 0; i < 50; i++ {
		now := e.now()
		if now >= t {
			e.t.Fatalf("advance to %d: the head is already at %d", t, now)
		}
		if err = e.sim.AdjustTime(time.Duration(t-now) * time.Second); err == nil {
			return
		}
		e.sim.Commit()
	}
	e.t.Fatalf("advance to %d: %v", t, err)
}
