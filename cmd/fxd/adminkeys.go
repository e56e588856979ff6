package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fxd-labs/fxd/reqsig"
)

// newKeysCreateCmd generates the Ed25519 pair here, writes the private
// key to --out (0600) and sends only the public key: the server never
// sees the private key.
func newKeysCreateCmd(target *adminTarget) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "create --account ID --scopes read,trade,pay,wallets,webhooks --out FILE",
		Short: "Create an API key: the private key goes to --out (0600); prints the key id",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "account", "scopes", "out"); err != nil {
				return err
			}
			fs := cmd.Flags()
			account, _ := fs.GetString("account")
			scopes, _ := fs.GetString("scopes")
			out, _ := fs.GetString("out")
			c, err := target.client()
			if err != nil {
				return err
			}
			return createKey(cmd, c, account, strings.Split(scopes, ","), out)
		},
	}
	cmd.Flags().String("account", "", "account id (acct_…)")
	cmd.Flags().String("scopes", "", "comma-separated: read,trade,pay,wallets,webhooks")
	cmd.Flags().String("out", "", "file to write the PKCS8 PEM private key to (0600; never overwritten)")
	return cmd
}

// createKey saves a new private key to out, registers its public half and
// prints the key.
func createKey(cmd *cobra.Command, c *adminClient, account string, scopes []string, out string) error {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	pemBytes, err := reqsig.MarshalPrivateKeyPEM(priv)
	if err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	if err := writeNewFile(out, pemBytes); err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	raw, err := c.do("POST", "/admin/keys", map[string]any{
		"account": account, "scopes": scopes,
		"public_key": base64.StdEncoding.EncodeToString(pub),
	})
	if err != nil {
		_ = os.Remove(out)
		return err
	}
	var k struct {
		KeyID   string   `json:"key_id"`
		Account string   `json:"account"`
		Scopes  []string `json:"scopes"`
	}
	if err := json.Unmarshal(raw, &k); err != nil {
		return fmt.Errorf("keys create: decode answer: %w", err)
	}
	return printJSON(cmd.OutOrStdout(), struct {
		KeyID          string   `json:"key_id"`
		Account        string   `json:"account"`
		Scopes         []string `json:"scopes"`
		PrivateKeyFile string   `json:"private_key_file"`
	}{k.KeyID, k.Account, k.Scopes, out})
}

// writeNewFile creates path (0600, O_EXCL) and syncs b to it: never
// overwrite a key, and never send a public key whose private half could
// not be saved.
func writeNewFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func newKeysRevokeCmd(target *adminTarget) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke KEY_ID",
		Short: "Revoke an API key (takes effect on the next request)",
		Args:  argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := target.client()
			if err != nil {
				return err
			}
			if _, err := c.do("POST", "/admin/keys/"+url.PathEscape(args[0])+"/revoke", nil); err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), struct {
				KeyID   string `json:"key_id"`
				Revoked bool   `json:"revoked"`
			}{args[0], true})
		},
	}
}
