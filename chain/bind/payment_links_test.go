package bind

import (
	"context"
	"errors"
	"math/big"
	"sort"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"
)

// link is one payment link of a test: its id, salt, payout wallet and the receive
// address computed off-chain.
type link struct {
	id     string
	salt   [32]byte
	payout common.Address
	addr   common.Address
}

func (e *env) link(id string, payout common.Address) link {
	salt := LinkSalt(id)
	return link{id: id, salt: salt, payout: payout, addr: ForwarderAddress(e.addrs.PaymentLinkFactory, salt, payout)}
}

var (
	payoutWallet = common.HexToAddress("0x0000000000000000000000000000000000000B0B")
	otherWallet  = common.HexToAddress("0x0000000000000000000000000000000000000BAD")
)

func TestLinkSalt(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"", "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"}, // keccak256("")
		{"pl_01HZX3", crypto.Keccak256Hash([]byte("pl_01HZX3")).Hex()},
	} {
		got := LinkSalt(tc.id)
		require.Equal(t, tc.want, hexutil.Encode(got[:]), tc.id)
	}
	require.NotEqual(t, LinkSalt("pl_a"), LinkSalt("pl_b"))
}

// The Go derivation, the factory's view, the deployment and its event all agree.
func TestForwarderAddressMatchesFactory(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		id     string
		payout common.Address
	}{
		{"pl_first", payoutWallet},
		{"pl_second", payoutWallet},
		{"pl_first", otherWallet},
		{"", addr(e.user)},
	} {
		l := e.link(tc.id, tc.payout)
		view, err := e.c.PaymentLinkFactory.ForwarderAddress(nil, l.salt, l.payout)
		require.NoError(t, err)
		require.Equal(t, l.addr, view, "view for %q/%s", tc.id, tc.payout)
		require.Empty(t, e.code(l.addr), "nothing deployed before deploy")

		r := e.mine(e.c.PaymentLinkFactory.Deploy(e.auth(e.relayer), l.salt, l.payout))
		require.NotEmpty(t, e.code(l.addr))
		ev := e.forwarderDeployed(r)
		require.Len(t, ev, 1)
		require.Equal(t, PaymentLinkFactoryForwarderDeployed{Salt: l.salt, Forwarder: l.addr, Payout: l.payout, Raw: ev[0].Raw}, *ev[0])
		payout, err := e.forwarder(l).Payout(nil)
		require.NoError(t, err)
		require.Equal(t, l.payout, payout)
	}
	// Salt and payout both enter the address.
	require.NotEqual(t, e.link("pl_first", payoutWallet).addr, e.link("pl_second", payoutWallet).addr)
	require.NotEqual(t, e.link("pl_first", payoutWallet).addr, e.link("pl_first", otherWallet).addr)
}

// A payer's plain transfer to the undeployed address, forwarded by a stranger; then a
// second token, a repeated forward and money arriving after the link was paid.
func TestPaymentLinkForward(t *testing.T) {
	e := newEnv(t)
	l := e.link("pl_paid", payoutWallet)
	stranger := e.auth(e.other)

	e.mine(e.c.Tokens[USDC].Transfer(e.auth(e.user), l.addr, Units(125)))
	require.Empty(t, e.code(l.addr))
	requireAmount(t, Units(125), e.balance(USDC, l.addr))

	requireAmount(t, Units(125), e.simForward(l, USDC), "forward returns the amount")
	r := e.mine(e.c.PaymentLinkFactory.Forward(stranger, l.salt, l.payout, e.addrs.USDC))
	requireAmount(t, Units(125), e.balance(USDC, l.payout))
	require.Zero(t, e.balance(USDC, l.addr).Sign())
	require.Zero(t, e.balance(USDC, addr(e.other)).Sign(), "the caller gets nothing")
	require.Len(t, e.forwarderDeployed(r), 1, "forward deploys on first use")
	e.requireForwarded(r, l, USDC, Units(125))

	// A second token, sent after deployment, forwarded on the forwarder itself.
	e.mine(e.c.Tokens[EURC].Transfer(e.auth(e.user), l.addr, Units(40)))
	r = e.mine(e.forwarder(l).Forward(stranger, e.addrs.EURC))
	requireAmount(t, Units(40), e.balance(EURC, l.payout))
	require.Zero(t, e.balance(EURC, l.addr).Sign())
	e.requireForwarded(r, l, EURC, Units(40))

	// Nothing left: a second forward moves 0, succeeds and logs nothing.
	require.Zero(t, e.simForward(l, USDC).Sign())
	r = e.mine(e.c.PaymentLinkFactory.Forward(stranger, l.salt, l.payout, e.addrs.USDC))
	require.Empty(t, r.Logs, "no deployment, no transfer, no event")
	requireAmount(t, Units(125), e.balance(USDC, l.payout))

	// Money after the link was paid goes the same way.
	e.mine(e.c.Tokens[USDC].Transfer(e.auth(e.user), l.addr, Units(3)))
	r = e.mine(e.c.PaymentLinkFactory.Forward(e.auth(e.relayer), l.salt, l.payout, e.addrs.USDC))
	require.Empty(t, e.forwarderDeployed(r))
	e.requireForwarded(r, l, USDC, Units(3))
	requireAmount(t, Units(128), e.balance(USDC, l.payout))
}

// A second deploy returns the same address without reverting and changes nothing, so
// a relayer retry after a crash is safe; deploying does not move funds.
func TestPaymentLinkDeployTwice(t *testing.T) {
	e := newEnv(t)
	l := e.link("pl_retry", payoutWallet)
	e.mine(e.c.Tokens[USDT].Transfer(e.auth(e.user), l.addr, Units(7)))

	r := e.mine(e.c.PaymentLinkFactory.Deploy(e.auth(e.relayer), l.salt, l.payout))
	require.Len(t, e.forwarderDeployed(r), 1)
	code := e.code(l.addr)
	require.Equal(t, l.addr, e.simDeploy(l), "deploy of an existing forwarder returns its address")
	r = e.mine(e.c.PaymentLinkFactory.Deploy(e.auth(e.other), l.salt, l.payout))
	require.Empty(t, r.Logs, "the second deploy is a no-op")
	require.Equal(t, code, e.code(l.addr))
	requireAmount(t, Units(7), e.balance(USDT, l.addr), "deploy alone moves nothing")
	require.Zero(t, e.balance(USDT, l.payout).Sign())
}

// Nobody can redirect a link's funds: another payout for the same salt is another,
// empty forwarder, and the forwarder has no function taking a destination.
func TestPaymentLinkPayoutIsFixed(t *testing.T) {
	e := newEnv(t)
	l := e.link("pl_target", payoutWallet)
	e.mine(e.c.Tokens[USDC].Transfer(e.auth(e.user), l.addr, Units(500)))

	attack := e.link(l.id, otherWallet)
	require.Equal(t, l.salt, attack.salt)
	require.NotEqual(t, l.addr, attack.addr)
	require.Zero(t, e.simForward(attack, USDC).Sign())
	r := e.mine(e.c.PaymentLinkFactory.Forward(e.auth(e.other), attack.salt, attack.payout, e.addrs.USDC))
	ev := e.forwarderDeployed(r)
	require.Len(t, ev, 1)
	require.Equal(t, attack.addr, ev[0].Forwarder)
	require.Zero(t, e.balance(USDC, otherWallet).Sign())
	requireAmount(t, Units(500), e.balance(USDC, l.addr), "the original funds stay put")

	r = e.mine(e.c.PaymentLinkFactory.Forward(e.auth(e.other), l.salt, l.payout, e.addrs.USDC))
	e.requireForwarded(r, l, USDC, Units(500))
	requireAmount(t, Units(500), e.balance(USDC, payoutWallet))
	require.Zero(t, e.balance(USDC, otherWallet).Sign())

	// The forwarder's whole interface: the fixed payout and a sweep to it.
	a, err := PaymentForwarderMetaData.GetAbi()
	require.NoError(t, err)
	var methods []string
	for name := range a.Methods {
		methods = append(methods, name)
	}
	sort.Strings(methods)
	require.Equal(t, []string{"forward", "payout"}, methods)
	require.False(t, a.HasReceive() || a.HasFallback())
}

func TestPaymentLinkZeroPayoutRefused(t *testing.T) {
	e := newEnv(t)
	salt := LinkSalt("pl_zero")
	zero := common.Address{}
	for name, call := range map[string]func() error{
		"forwarderAddress": func() error { _, err := e.c.PaymentLinkFactory.ForwarderAddress(nil, salt, zero); return err },
		"deploy":           func() error { _, err := e.c.PaymentLinkFactory.Deploy(e.auth(e.relayer), salt, zero); return err },
		"forward": func() error {
			_, err := e.c.PaymentLinkFactory.Forward(e.auth(e.relayer), salt, zero, e.addrs.USDC)
			return err
		},
		"forwarder constructor": func() error { _, _, _, err := DeployPaymentForwarder(e.auth(e.relayer), e.client, zero); return err },
	} {
		requireZeroPayout(t, call(), name)
	}
}

// A forward of something that is not a token reverts instead of reporting 0.
func TestPaymentLinkForwardNonToken(t *testing.T) {
	e := newEnv(t)
	l := e.link("pl_eoa", payoutWallet)
	_, err := e.c.PaymentLinkFactory.Forward(e.auth(e.relayer), l.salt, l.payout, otherWallet)
	require.Error(t, err)
}

// --- helpers ---------------------------------------------------------------------

func (e *env) code(a common.Address) []byte {
	e.t.Helper()
	code, err := e.client.CodeAt(context.Background(), a, nil)
	require.NoError(e.t, err)
	return code
}

func (e *env) forwarder(l link) *PaymentForwarder {
	e.t.Helper()
	f, err := NewPaymentForwarder(l.addr, e.client)
	require.NoError(e.t, err)
	return f
}

// simForward is the return value of factory.forward(l, token) by a stranger, simulated.
func (e *env) simForward(l link, sym string) *big.Int {
	e.t.Helper()
	tok, _ := e.addrs.Token(sym)
	out := e.simFactory("forward", l.salt, l.payout, tok)
	return out[0].(*big.Int)
}

// simDeploy is the return value of factory.deploy(l), simulated.
func (e *env) simDeploy(l link) common.Address {
	e.t.Helper()
	return e.simFactory("deploy", l.salt, l.payout)[0].(common.Address)
}

func (e *env) simFactory(method string, args ...interface{}) []interface{} {
	e.t.Helper()
	var out []interface{}
	raw := &PaymentLinkFactoryRaw{Contract: e.c.PaymentLinkFactory}
	require.NoError(e.t, raw.Call(&bind.CallOpts{From: addr(e.other)}, &out, method, args...))
	return out
}

func (e *env) forwarderDeployed(r *types.Receipt) []*PaymentLinkFactoryForwarderDeployed {
	e.t.Helper()
	var evs []*PaymentLinkFactoryForwarderDeployed
	for _, l := range r.Logs {
		if ev, err := e.c.PaymentLinkFactory.ParseForwarderDeployed(*l); err == nil && l.Address == e.addrs.PaymentLinkFactory {
			evs = append(evs, ev)
		}
	}
	return evs
}

// requireForwarded asserts that r holds exactly one Forwarded event, from l's
// forwarder, for amount of sym to l's payout.
func (e *env) requireForwarded(r *types.Receipt, l link, sym string, amount *big.Int) {
	e.t.Helper()
	tok, _ := e.addrs.Token(sym)
	var evs []*PaymentForwarderForwarded
	for _, lg := range r.Logs {
		if ev, err := e.forwarder(l).ParseForwarded(*lg); err == nil {
			require.Equal(e.t, l.addr, lg.Address, "Forwarded from the link's forwarder")
			evs = append(evs, ev)
		}
	}
	require.Len(e.t, evs, 1)
	require.Equal(e.t, tok, evs[0].Token)
	require.Equal(e.t, l.payout, evs[0].Payout)
	requireAmount(e.t, amount, evs[0].Amount)
}

// requireZeroPayout asserts err carries the ZeroPayout() revert (the factory's and
// the forwarder's share the selector).
func requireZeroPayout(t *testing.T, err error, what string) {
	t.Helper()
	require.Error(t, err, what)
	var de rpc.DataError
	require.True(t, errors.As(err, &de), "%s: %v", what, err)
	s, _ := de.ErrorData().(string)
	data, derr := hexutil.Decode(s)
	require.NoError(t, derr, what)
	a, err := PaymentLinkFactoryMetaData.GetAbi()
	require.NoError(t, err)
	id := a.Errors["ZeroPayout"].ID
	require.Equal(t, id[:4], data, what)
}

// requireAmount compares token amounts by value (big.Int internals may differ).
func requireAmount(t *testing.T, want, got *big.Int, msgAndArgs ...interface{}) {
	t.Helper()
	require.Equal(t, want.String(), got.String(), msgAndArgs...)
}
