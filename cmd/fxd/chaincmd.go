package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/connect"
)

// runChain: `fxd chain deploy --rpc-url U --deployer-key-file F --out contracts.json`
// deploys the contract set to any node and writes the addresses.
func runChain(args []string) error {
	if len(args) < 1 || args[0] != "deploy" {
		return errors.New("usage: fxd chain deploy --rpc-url U --deployer-key-file F --out contracts.json")
	}
	fs := newFlags("chain deploy")
	rpcURL := fs.String("rpc-url", "", "JSON-RPC URL of the node")
	keyFile := fs.String("deployer-key-file", "", "hex private key file of the deployer (becomes the token owner)")
	out := fs.String("out", "contracts.json", "where to write the contract addresses")
	makers := fs.String("makers", "", "comma-separated maker addresses to register in the RFQ escrow")
	if _, err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *rpcURL == "" || *keyFile == "" {
		return errors.New("chain deploy: --rpc-url and --deployer-key-file are required")
	}
	key, err := connect.ReadKeyFile(*keyFile)
	if err != nil {
		return fmt.Errorf("chain deploy: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client, err := ethclient.DialContext(ctx, *rpcURL)
	if err != nil {
		return fmt.Errorf("chain deploy: %w", err)
	}
	defer client.Close()
	chainID, err := client.ChainID(ctx)
	if err != nil {
		return fmt.Errorf("chain deploy: chain id: %w", err)
	}
	auth, err := gethbind.NewKeyedTransactorWithChainID(key, chainID)
	if err != nil {
		return err
	}
	auth.Context = ctx
	cfg := bind.DeployConfig{}
	if cfg.Makers, err = parseAddresses(*makers); err != nil {
		return err
	}
	addrs, err := bind.DeployAll(auth, client, cfg)
	if err != nil {
		return fmt.Errorf("chain deploy: %w", err)
	}
	if err := connect.WriteContracts(*out, addrs); err != nil {
		return err
	}
	return printJSON(addrs)
}

func parseAddresses(list string) ([]common.Address, error) {
	var out []common.Address
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if !common.IsHexAddress(a) {
			return nil, fmt.Errorf("chain deploy: %q is not an address", a)
		}
		out = append(out, common.HexToAddress(a))
	}
	return out, nil
}
