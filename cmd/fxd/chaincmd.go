package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/spf13/cobra"
)

// newChainCmd is `fxd chain deploy`: deploy the contract set to any node
// and write the addresses.
func newChainCmd() *cobra.Command {
	deploy := &cobra.Command{
		Use:   "deploy --rpc-url U --deployer-key-file F [--out contracts.json] [--maker-addresses 0x…,0x…]",
		Short: "Deploy the contract set to a node; writes and prints the addresses",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "rpc-url", "deployer-key-file"); err != nil {
				return err
			}
			fs := cmd.Flags()
			rpcURL, _ := fs.GetString("rpc-url")
			keyFile, _ := fs.GetString("deployer-key-file")
			out, _ := fs.GetString("out")
			makers, err := parseAddresses(fs.Lookup("maker-addresses").Value.String())
			if err != nil {
				return usageErrorf("%s%v", where(cmd), err)
			}
			return deployChain(cmd, rpcURL, keyFile, out, makers)
		},
	}
	deploy.Flags().String("rpc-url", "", "JSON-RPC URL of the node")
	deploy.Flags().String("deployer-key-file", "", "hex private key file of the deployer (becomes the token owner)")
	deploy.Flags().String("out", "contracts.json", "where to write the contract addresses")
	deploy.Flags().String("maker-addresses", "", "comma-separated maker addresses to register in the RFQ escrow (named apart from serve's --makers, a count: both would read SVC_MAKERS)")
	return groupCommand("chain", "Deploy the contract set to a node (for --chain rpc)", deploy)
}

// deployChain deploys the contracts with the deployer key, writes their
// addresses to out and prints them.
func deployChain(cmd *cobra.Command, rpcURL, keyFile, out string, makers []common.Address) error {
	key, err := connect.ReadKeyFile(keyFile)
	if err != nil {
		return fmt.Errorf("chain deploy: %w", err)
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), 5*time.Minute)
	defer cancel()
	client, err := ethclient.DialContext(ctx, rpcURL)
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
		return fmt.Errorf("chain deploy: %w", err)
	}
	auth.Context = ctx
	addrs, err := bind.DeployAll(auth, client, bind.DeployConfig{Makers: makers})
	if err != nil {
		return fmt.Errorf("chain deploy: %w", err)
	}
	if err := connect.WriteContracts(out, addrs); err != nil {
		return fmt.Errorf("chain deploy: %w", err)
	}
	return printJSON(cmd.OutOrStdout(), addrs)
}

func parseAddresses(list string) ([]common.Address, error) {
	var out []common.Address
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if !common.IsHexAddress(a) {
			return nil, fmt.Errorf("--makers: %q is not an address", a)
		}
		out = append(out, common.HexToAddress(a))
	}
	return out, nil
}
