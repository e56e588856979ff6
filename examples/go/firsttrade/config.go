package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// config is where the service, its chain and the API key are.
type config struct {
	dataDir        string
	baseURL        string
	rpcURL         string
	keyID          string
	keyFile        string
	adminURL       string
	adminTokenFile string
	timeout        time.Duration
}

// loadConfig reads the flags, then SVC_<FLAG> for every flag not given,
// then fills what is still empty from the files `make run` writes into
// the data directory.
func loadConfig(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("firsttrade", flag.ContinueOnError)
	fs.StringVar(&c.dataDir, "data-dir", "./data", "the data directory of make run (demo.json, demo.pem, admin.addr, admin.token)")
	fs.StringVar(&c.baseURL, "base-url", "http://127.0.0.1:8080", "the API's scheme://host:port")
	fs.StringVar(&c.rpcURL, "rpc-url", "http://127.0.0.1:8545", "the chain's JSON-RPC, where the wallet broadcasts")
	fs.StringVar(&c.keyID, "key-id", "", "API key id (default: key_id of <data-dir>/demo.json)")
	fs.StringVar(&c.keyFile, "key-file", "", "API key's PKCS8 PEM file (default: <data-dir>/demo.pem)")
	fs.StringVar(&c.adminURL, "admin-url", "", "admin listener URL, for the faucet (default: <data-dir>/admin.addr)")
	fs.StringVar(&c.adminTokenFile, "admin-token-file", "", "admin token file (default: <data-dir>/admin.token)")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "give up after this long")
	fs.VisitAll(func(f *flag.Flag) { f.Usage += " (env " + envName(f.Name) + ")" })
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := flagsFromEnv(fs); err != nil {
		return c, err
	}
	return c, c.fillFromDataDir()
}

// envName is the variable that sets a flag: SVC_ and the flag's name in
// upper case, '-' as '_'.
func envName(flagName string) string {
	return "SVC_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// flagsFromEnv sets every flag not given on the command line from its
// SVC_* variable, if that is set.
func flagsFromEnv(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := os.LookupEnv(envName(f.Name)); ok && !given[f.Name] && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", envName(f.Name), v, e)
			}
		}
	})
	return err
}

// fillFromDataDir takes the demo key and the admin listener from the
// files `make run` (scripts/run.sh) writes.
func (c *config) fillFromDataDir() error {
	hint := " (is `make run` running? or pass --data-dir, or the flags themselves)"
	if c.keyID == "" {
		b, err := os.ReadFile(filepath.Join(c.dataDir, "demo.json"))
		if err != nil {
			return fmt.Errorf("find the API key: %w%s", err, hint)
		}
		var demo struct {
			KeyID string `json:"key_id"`
		}
		if err := json.Unmarshal(b, &demo); err != nil || demo.KeyID == "" {
			return fmt.Errorf("demo.json has no key_id: %q", b)
		}
		c.keyID = demo.KeyID
	}
	if c.keyFile == "" {
		c.keyFile = filepath.Join(c.dataDir, "demo.pem")
	}
	if c.adminURL == "" {
		b, err := os.ReadFile(filepath.Join(c.dataDir, "admin.addr"))
		if err != nil {
			return fmt.Errorf("find the admin listener: %w%s", err, hint)
		}
		c.adminURL = strings.TrimSpace(string(b))
	}
	if c.adminTokenFile == "" {
		c.adminTokenFile = filepath.Join(c.dataDir, "admin.token")
	}
	if c.timeout <= 0 {
		return errors.New("--timeout must be positive")
	}
	return nil
}
