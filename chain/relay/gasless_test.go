package relay

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/watch"
)

// The relayer's purpose end to end: a user signs a Permit2 GaslessOrder off
// the service; the relayer, holding only gas, broadcasts
// RelayRouter.executeGaslessOrder with that signature; a watcher sees the
// router's GaslessOrderExecuted for the user. The relayer's token balances
// stay zero throughout.
func TestRelayUserSignedGaslessOrder(t *testing.T) {
	deployer, user, relayerKey := mustKey(t, 0xd0), mustKey(t, 0x11), mustKey(t, 0x33)
	eth := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	sim := simulated.NewBackend(types.GenesisAlloc{
		addr(deployer):               {Balance: eth},
		addr(user):                   {Balance: eth},
		addr(relayerKey):             {Balance: eth},
		bind.CanonicalPermit2Address: {Code: bind.PermitRuntimeCode(), Balance: new(big.Int)},
	})
	t.Cleanup(func() { _ = sim.Close() })
	client := sim.Client()
	ctx := t.Context()

	auth := func(k *ecdsa.PrivateKey) *gethbind.TransactOpts {
		o, err := gethbind.NewKeyedTransactorWithChainID(k, simChainID)
		if err != nil {
			t.Fatal(err)
		}
		o.Context = ctx
		return o
	}
	addrs, err := bind.DeployAll(auth(deployer), client, bind.DeployConfig{
		Permit2: bind.CanonicalPermit2Address,
		Commit:  func() { sim.Commit() },
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := bind.NewContracts(addrs, client)
	if err != nil {
		t.Fatal(err)
	}
	usdc := c.Tokens[bind.USDC]
	if _, err := usdc.Mint(auth(deployer), addr(user), bind.Units(1_000)); err != nil {
		t.Fatal(err)
	}
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	if _, err := usdc.Approve(auth(user), addrs.Permit2, maxUint); err != nil {
		t.Fatal(err)
	}
	sim.Commit()

	// The watcher follows the router's GaslessOrderExecuted for this user.
	routerABI, err := bind.RelayRouterMetaData.GetAbi()
	if err != nil {
		t.Fatal(err)
	}
	head, err := client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w := watch.New(client, watch.Config{From: head + 1}, nil)
	seen := make(chan watch.Log, 4)
	w.Subscribe(watch.Filter{
		Addresses: []common.Address{addrs.RelayRouter},
		Topics:    [][]common.Hash{{routerABI.Events["GaslessOrderExecuted"].ID}, nil, {common.BytesToHash(addr(user).Bytes())}},
	}, func(l watch.Log) { seen <- l })

	// The user signs (this happens in the user's wallet, not the service).
	hdr, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	order := eip712.GaslessOrder{
		Signer:       addr(user),
		TokenIn:      addrs.USDC,
		TokenOut:     addrs.EURC,
		AmountIn:     bind.Units(100),
		MinAmountOut: bind.Units(90),
		Recipient:    addr(user),
		Pool:         addrs.Pools["USDC/EURC"],
		Deadline:     new(big.Int).SetUint64(hdr.Time + 600),
		Nonce:        big.NewInt(7),
	}
	digest := eip712.GaslessDigest(eip712.Domain{ChainID: simChainID, Permit2: addrs.Permit2}, addrs.RelayRouter, &order)
	sig, err := crypto.Sign(digest[:], user)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27

	// The service relays it.
	data, err := routerABI.Pack("executeGaslessOrder", bind.RelayRouterGaslessOrder{
		Signer: order.Signer, TokenIn: order.TokenIn, TokenOut: order.TokenOut, AmountIn: order.AmountIn,
		MinAmountOut: order.MinAmountOut, Recipient: order.Recipient, Pool: order.Pool,
		Deadline: order.Deadline, Nonce: order.Nonce,
	}, sig)
	if err != nil {
		t.Fatal(err)
	}
	r := New(client, relayerKey, simChainID, WithPollInterval(5*time.Millisecond))
	tx, err := r.Send(ctx, addrs.RelayRouter, data, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 { // until mined
		if rc, err := client.TransactionReceipt(ctx, tx.Hash()); err == nil && rc != nil {
			break
		}
		sim.Commit()
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	rc, err := r.Wait(wctx, tx)
	if err != nil || rc.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("relay: %v %+v", err, rc)
	}

	// A replay of the same signed order is refused at estimation, before a
	// nonce is taken.
	if _, err := r.Send(ctx, addrs.RelayRouter, data, 0); err == nil {
		t.Fatal("replayed order was relayed")
	}

	if err := w.Poll(wctx); err != nil {
		t.Fatal(err)
	}
	select {
	case l := <-seen:
		ev, err := c.RelayRouter.ParseGaslessOrderExecuted(l.Log)
		if err != nil {
			t.Fatal(err)
		}
		if l.Removed || l.TxHash != tx.Hash() || ev.Signer != addr(user) || ev.AmountIn.Cmp(order.AmountIn) != 0 ||
			ev.AmountOut.Cmp(order.MinAmountOut) < 0 || ev.Nonce.Cmp(order.Nonce) != 0 {
			t.Fatalf("event %+v", ev)
		}
	default:
		t.Fatal("the watcher did not deliver GaslessOrderExecuted")
	}
	for _, sym := range []string{bind.USDC, bind.USDT, bind.EURC} {
		b, err := c.Tokens[sym].BalanceOf(nil, r.Address())
		if err != nil || b.Sign() != 0 {
			t.Fatalf("relayer holds %v %s (%v)", b, sym, err)
		}
	}
}
