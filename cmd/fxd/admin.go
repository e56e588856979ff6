package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/reqsig"
)

// adminClient talks to the admin listener of a running fxd.
type adminClient struct {
	url, token string
	http       *http.Client
}

// adminFlags adds the flags that find the admin listener.
func adminFlags(fs *flag.FlagSet) func() (*adminClient, error) {
	dataDir := fs.String("data-dir", "./data", "data directory of the running service")
	url := fs.String("admin-url", "", "admin listener URL (default: read from the data dir)")
	tokenFile := fs.String("admin-token-file", "", "admin token file (default: <data-dir>/admin.token)")
	return func() (*adminClient, error) {
		c := &adminClient{url: *url, http: &http.Client{Timeout: 30 * time.Second}}
		if c.url == "" {
			b, err := os.ReadFile(filepath.Join(*dataDir, adminAddrFile))
			if err != nil {
				return nil, fmt.Errorf("find the admin listener: %w (is fxd serve running with --data-dir %s?)", err, *dataDir)
			}
			c.url = string(trimNL(b))
		}
		tf := *tokenFile
		if tf == "" {
			tf = filepath.Join(*dataDir, adminTokenFile)
		}
		b, err := os.ReadFile(tf)
		if err != nil {
			return nil, fmt.Errorf("read admin token: %w", err)
		}
		c.token = string(trimNL(b))
		return c, nil
	}
}

// do sends one admin request; a non-2xx answer becomes an error carrying
// the contract's error message.
func (c *adminClient) do(method, path string, body any) (json.RawMessage, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimRight(c.url, "/")+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("admin %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(out, &e) == nil && e.Error.Code != "" {
			return nil, fmt.Errorf("%d %s: %s", resp.StatusCode, e.Error.Code, e.Error.Message)
		}
		return nil, fmt.Errorf("admin %s %s: status %d", method, path, resp.StatusCode)
	}
	return out, nil
}

func runAdmin(args []string) error {
	if len(args) < 2 {
		return errors.New("usage: fxd admin accounts create|update | keys create|revoke | faucet (see --help)")
	}
	switch args[0] + " " + args[1] {
	case "accounts create":
		return adminAccountsCreate(args[2:])
	case "accounts update":
		return adminAccountsUpdate(args[2:])
	case "keys create":
		return adminKeysCreate(args[2:])
	case "keys revoke":
		return adminKeysRevoke(args[2:])
	}
	if args[0] == "faucet" {
		return adminFaucet(args[1:])
	}
	return fmt.Errorf("unknown admin command %q", args[0]+" "+args[1])
}

// optBool is a --flag=true|false that remembers whether it was given.
type optBool struct{ v *bool }

func (o *optBool) String() string {
	if o.v == nil {
		return ""
	}
	return strconv.FormatBool(*o.v)
}
func (o *optBool) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	o.v = &b
	return nil
}
func (o *optBool) IsBoolFlag() bool { return true }

// optString is a string flag that remembers whether it was given.
type optString struct{ v *string }

func (o *optString) String() string {
	if o.v == nil {
		return ""
	}
	return *o.v
}
func (o *optString) Set(s string) error { o.v = &s; return nil }

type accountFlags struct {
	name, kyc optString
	swap, pay optBool
}

func (a *accountFlags) add(fs *flag.FlagSet, withName bool) {
	if withName {
		fs.Var(&a.name, "name", "account name")
	}
	fs.Var(&a.kyc, "kyc", "approved, pending or rejected")
	fs.Var(&a.swap, "swap", "permitted to swap (true|false)")
	fs.Var(&a.pay, "pay", "permitted to pay (true|false)")
}

func (a *accountFlags) body() map[string]any {
	b := map[string]any{}
	if a.name.v != nil {
		b["name"] = *a.name.v
	}
	if a.kyc.v != nil {
		b["kyc"] = *a.kyc.v
	}
	if a.swap.v != nil {
		b["swap"] = *a.swap.v
	}
	if a.pay.v != nil {
		b["pay"] = *a.pay.v
	}
	return b
}

func adminAccountsCreate(args []string) error {
	fs := newFlags("accounts create")
	client := adminFlags(fs)
	var af accountFlags
	af.add(fs, true)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if af.name.v == nil {
		return errors.New("accounts create: --name is required")
	}
	c, err := client()
	if err != nil {
		return err
	}
	out, err := c.do("POST", "/admin/accounts", af.body())
	if err != nil {
		return err
	}
	return printRaw(out)
}

func adminAccountsUpdate(args []string) error {
	fs := newFlags("accounts update")
	client := adminFlags(fs)
	var af accountFlags
	af.add(fs, false)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("usage: fxd admin accounts update ID [--kyc …] [--swap=…] [--pay=…]")
	}
	c, err := client()
	if err != nil {
		return err
	}
	out, err := c.do("PATCH", "/admin/accounts/"+pos[0], af.body())
	if err != nil {
		return err
	}
	return printRaw(out)
}

// adminKeysCreate generates the Ed25519 pair here, writes the private key
// to --out (0600) and sends only the public key: the server never sees the
// private key.
func adminKeysCreate(args []string) error {
	fs := newFlags("keys create")
	client := adminFlags(fs)
	account := fs.String("account", "", "account id")
	scopes := fs.String("scopes", "", "comma-separated: read,trade,pay,wallets,webhooks")
	out := fs.String("out", "", "file to write the PKCS8 PEM private key to (0600)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *account == "" || *scopes == "" || *out == "" {
		return errors.New("keys create: --account, --scopes and --out are required")
	}
	c, err := client()
	if err != nil {
		return err
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	pemBytes, err := reqsig.MarshalPrivateKeyPEM(priv)
	if err != nil {
		return err
	}
	// Create the file first (O_EXCL): never overwrite a key, never send a
	// public key whose private half could not be saved.
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	if _, err := f.Write(pemBytes); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	raw, err := c.do("POST", "/admin/keys", map[string]any{
		"account": *account, "scopes": strings.Split(*scopes, ","),
		"public_key": base64.StdEncoding.EncodeToString(pub),
	})
	if err != nil {
		_ = os.Remove(*out)
		return err
	}
	var k struct {
		KeyID   string   `json:"key_id"`
		Account string   `json:"account"`
		Scopes  []string `json:"scopes"`
	}
	if err := json.Unmarshal(raw, &k); err != nil {
		return err
	}
	return printJSON(struct {
		KeyID          string   `json:"key_id"`
		Account        string   `json:"account"`
		Scopes         []string `json:"scopes"`
		PrivateKeyFile string   `json:"private_key_file"`
	}{k.KeyID, k.Account, k.Scopes, *out})
}

func adminKeysRevoke(args []string) error {
	fs := newFlags("keys revoke")
	client := adminFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("usage: fxd admin keys revoke KEY_ID")
	}
	c, err := client()
	if err != nil {
		return err
	}
	if _, err := c.do("POST", "/admin/keys/"+pos[0]+"/revoke", nil); err != nil {
		return err
	}
	return printJSON(struct {
		KeyID   string `json:"key_id"`
		Revoked bool   `json:"revoked"`
	}{pos[0], true})
}

// printRaw prints a JSON answer on one line.
func printRaw(b json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return err
	}
	fmt.Println(buf.String())
	return nil
}

// adminFaucet funds a test address with gas and tokens; prints {"tx_hash"}
// once mined.
func adminFaucet(args []string) error {
	fs := newFlags("faucet")
	client := adminFlags(fs)
	addr := fs.String("address", "", "0x address to fund")
	currency := fs.String("currency", "", "USDC, USDT or EURC")
	amount := fs.String("amount", "", "amount in currency units, e.g. 1000")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *addr == "" || *currency == "" || *amount == "" {
		return errors.New("faucet: --address, --currency and --amount are required")
	}
	c, err := client()
	if err != nil {
		return err
	}
	out, err := c.do("POST", "/admin/faucet", map[string]string{"address": *addr, "currency": *currency, "amount": *amount})
	if err != nil {
		return err
	}
	return printRaw(out)
}
