package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newAdminCmd is `fxd admin`: accounts, keys and the faucet through the
// admin listener of a running fxd. Its flags that find the listener are
// persistent, so `fxd admin --data-dir D accounts create …` and
// `fxd admin accounts create … --data-dir D` both work.
func newAdminCmd() *cobra.Command {
	admin := groupCommand("admin", "Manage accounts, API keys and the test faucet (admin listener)")
	admin.Long = `Manage accounts, API keys and the test faucet through the admin listener of a
running fxd serve, found through --data-dir (admin.addr and admin.token) or
--admin-url and --admin-token-file. Every command prints one JSON object on
stdout; on failure it exits non-zero with a message on stderr.`
	target := addAdminFlags(admin.PersistentFlags())
	admin.AddCommand(
		groupCommand("accounts", "Create or update accounts", newAccountsCreateCmd(target), newAccountsUpdateCmd(target)),
		groupCommand("keys", "Create or revoke API keys", newKeysCreateCmd(target), newKeysRevokeCmd(target)),
		newFaucetCmd(target),
		groupCommand("webhooks", "Maintain webhook endpoints", newResealCmd(target)),
	)
	return admin
}

// resealTimeout is how long `admin webhooks reseal` waits: longer than the
// admin route's own bound on a run (10 minutes). A run cut short is safe;
// the next finishes it.
const resealTimeout = 11 * time.Minute

func newResealCmd(target *adminTarget) *cobra.Command {
	return &cobra.Command{
		Use:   "reseal",
		Short: "Re-seal every webhook secret under the current master key (after a rotation)",
		Long: `Re-seal every webhook endpoint's secrets under the current master key, so
that the previous keys (--webhook-previous-master-keys-file) are needed only
for stored answers until they expire (24 h). Prints
{"resealed":N,"already_current":M,"failed":K}; exits 1 when K > 0 (the
server log names each; keep the previous keys and run it again).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := target.client()
			if err != nil {
				return err
			}
			c.http.Timeout = resealTimeout
			out, err := c.do("POST", "/admin/webhooks/reseal", nil)
			if err != nil {
				return err
			}
			if err := printRaw(cmd.OutOrStdout(), out); err != nil {
				return err
			}
			var r struct {
				Failed int `json:"failed"`
			}
			if err := json.Unmarshal(out, &r); err != nil {
				return fmt.Errorf("admin webhooks reseal: answer: %w", err)
			}
			if r.Failed > 0 {
				return fmt.Errorf("%d endpoints could not be resealed; see the server log, keep the previous keys and run it again", r.Failed)
			}
			return nil
		},
	}
}

// addAccountFlags adds the account fields a create or update may set.
func addAccountFlags(fs *pflag.FlagSet, withName bool) {
	if withName {
		fs.String("name", "", "account name (required)")
	}
	fs.String("kyc", "", "KYC status: approved, pending or rejected (default approved in the test environment, pending in live)")
	fs.Bool("swap", false, "permitted to swap: --swap=true|false (default true in the test environment, false in live)")
	fs.Bool("pay", false, "permitted to pay: --pay=true|false (default true in the test environment, false in live)")
}

// accountBody is the request body: only the fields given (on the command
// line or through SVC_*), so an update leaves the others as they are.
func accountBody(fs *pflag.FlagSet) map[string]any {
	b := map[string]any{}
	for _, name := range []string{"name", "kyc"} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			b[name] = f.Value.String()
		}
	}
	for _, name := range []string{"swap", "pay"} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			v, _ := fs.GetBool(name)
			b[name] = v
		}
	}
	return b
}

func newAccountsCreateCmd(target *adminTarget) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "create --name N [--kyc approved|pending|rejected] [--swap=true|false] [--pay=true|false]",
		Short: "Create an account; prints it",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("name") {
				return usageErrorf("%s--name is required", where(cmd))
			}
			return target.print(cmd.OutOrStdout(), "POST", "/admin/accounts", accountBody(cmd.Flags()))
		},
	}
	addAccountFlags(cmd.Flags(), true)
	return cmd
}

func newAccountsUpdateCmd(target *adminTarget) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "update ID [--kyc approved|pending|rejected] [--swap=true|false] [--pay=true|false]",
		Short: "Change an account's KYC status or permissions; prints it",
		Args:  argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return target.print(cmd.OutOrStdout(), "PATCH", "/admin/accounts/"+url.PathEscape(args[0]), accountBody(cmd.Flags()))
		},
	}
	addAccountFlags(cmd.Flags(), false)
	return cmd
}

// newFaucetCmd funds a test address with gas and tokens; prints
// {"tx_hash"} once mined.
func newFaucetCmd(target *adminTarget) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "faucet --address 0x… --currency USDC --amount 1000",
		Short: "Fund a test address with gas (ETH) and tokens (test environment only)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "address", "currency", "amount"); err != nil {
				return err
			}
			fs := cmd.Flags()
			body := map[string]string{}
			for _, name := range []string{"address", "currency", "amount"} {
				body[name] = fs.Lookup(name).Value.String()
			}
			return target.print(cmd.OutOrStdout(), "POST", "/admin/faucet", body)
		},
	}
	cmd.Flags().String("address", "", "0x address to fund")
	cmd.Flags().String("currency", "", "USDC, USDT or EURC")
	cmd.Flags().String("amount", "", "amount in currency units, e.g. 1000")
	return cmd
}
