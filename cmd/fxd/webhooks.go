package main

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook"
	"github.com/fxd-labs/fxd/webhook/screen"
	"github.com/fxd-labs/fxd/webhook/secret"
)

// masterKeyEnv holds the webhook master key as base64 text (CONTRACT.md);
// it is not a flag: a key does not belong on a command line.
const masterKeyEnv = "SVC_WEBHOOK_MASTER_KEY"

// webhookFlags are fxd serve's webhook flags.
type webhookFlags struct {
	allowLoopback bool
	caFile        string
	schedule      string
	masterKeyFile string
	// previousKeysFile holds the master keys of before a rotation, which
	// still open what they sealed (docs/OPERATIONS.md, key rotation).
	previousKeysFile string
}

func addWebhookFlags(fs *pflag.FlagSet, f *webhookFlags) {
	fs.BoolVar(&f.allowLoopback, "webhook-allow-loopback", false, "test env: admit loopback webhook receivers (refused with --env live)")
	fs.StringVar(&f.caFile, "webhook-ca", "", "PEM file of CA certificates added to the system roots for webhook receivers")
	fs.StringVar(&f.schedule, "webhook-retry-schedule", "", "comma-separated waits after each failed delivery attempt (default 10s,1m,5m,30m,2h,6h,12h,24h)")
	fs.StringVar(&f.masterKeyFile, "webhook-master-key-file", "", "0600 file with the base64 webhook master key (or the key itself in "+masterKeyEnv+")")
	fs.StringVar(&f.previousKeysFile, "webhook-previous-master-keys-file", "", "0600 file of previous webhook master keys (one base64 key a line, # comments) that still open secrets sealed before a rotation (or the keys, comma-separated, in "+secret.PreviousMasterKeysEnv+")")
}

// check refuses what the flags alone make wrong; serveFlags.check runs it
// before anything starts (the embedded chain writes into the data dir).
func (f webhookFlags) check(env string) error {
	if f.allowLoopback && env == "live" {
		return errors.New("serve: --webhook-allow-loopback is for tests and is refused with --env live")
	}
	_, err := parseSchedule(f.schedule)
	return err
}

// openWebhooks builds the webhook desk and adds its hooks to e (before
// Recover). A missing master key is not fatal: POST /webhooks then answers
// 503 webhook_encryption_unavailable. A bad one is.
func openWebhooks(f webhookFlags, env string, e *actors.Engine, logger *slog.Logger) (*webhook.Desk, error) {
	if err := f.check(env); err != nil {
		return nil, err
	}
	sealer, err := secret.LoadKeyring(os.Getenv(masterKeyEnv), f.masterKeyFile, os.Getenv(secret.PreviousMasterKeysEnv), f.previousKeysFile)
	switch {
	case errors.Is(err, secret.ErrNoMasterKey):
		logger.Warn("no webhook master key: POST /webhooks answers 503 webhook_encryption_unavailable")
	case err != nil:
		return nil, fmt.Errorf("serve: %w", err)
	default:
		logger.Info("webhook master keys", "current_key_id", sealer.CurrentKeyID(), "previous_key_ids", sealer.PreviousKeyIDs())
	}
	roots, err := webhookRoots(f.caFile)
	if err != nil {
		return nil, err
	}
	schedule, err := parseSchedule(f.schedule)
	if err != nil {
		return nil, err
	}
	d := webhook.New(webhook.Config{Engine: e, Sealer: sealer, Policy: screen.Policy{AllowLoopback: f.allowLoopback},
		RootCAs: roots, Schedule: schedule, Logger: logger})
	d.AddHooks(e)
	return d, nil
}

// webhookRoots is the system's roots plus the CAs of --webhook-ca.
func webhookRoots(caFile string) (*x509.CertPool, error) {
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool()
	}
	if caFile == "" {
		return roots, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("serve: --webhook-ca: %w", err)
	}
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("serve: --webhook-ca %s holds no PEM certificate", caFile)
	}
	return roots, nil
}

// parseSchedule reads --webhook-retry-schedule; "" is the default.
func parseSchedule(s string) ([]time.Duration, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) >= domain.MaxAttemptsPerDelivery {
		return nil, fmt.Errorf("serve: --webhook-retry-schedule has %d waits, at most %d", len(parts), domain.MaxAttemptsPerDelivery-1)
	}
	out := make([]time.Duration, len(parts))
	for i, p := range parts {
		d, err := time.ParseDuration(strings.TrimSpace(p))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("serve: --webhook-retry-schedule: %q is not a positive duration", p)
		}
		out[i] = d
	}
	return out, nil
}

// newWebhookKeyCmd is `fxd webhook-key create --out FILE`: a new master
// key file (0600), left as it is when it exists (make run calls it each
// time).
func newWebhookKeyCmd() *cobra.Command {
	create := &cobra.Command{
		Use:   "create --out FILE",
		Short: "Make a webhook master key file (0600); an existing one is kept",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "out"); err != nil {
				return err
			}
			out, _ := cmd.Flags().GetString("out")
			err := secret.GenerateMasterKeyFile(out)
			created := err == nil
			if errors.Is(err, fs.ErrExist) {
				err = nil
			}
			if err != nil {
				return fmt.Errorf("webhook-key create: %w", err)
			}
			return printJSON(cmd.OutOrStdout(), map[string]any{"file": out, "created": created})
		},
	}
	create.Flags().String("out", "", "the key file to create (0600)")
	return groupCommand("webhook-key", "Make the webhook master key file", create)
}
