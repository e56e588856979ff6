package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/reqsig"
)

// runCall makes one signed request and prints the status line and body.
// It exits 0 for a 2xx answer and 1 otherwise, so scripts can test it.
func runCall(args []string) error {
	fs := newFlags("call")
	baseURL := fs.String("base-url", "http://127.0.0.1:8080", "service URL (scheme, host, port)")
	keyID := fs.String("key-id", "", "API key id (svc_test_…)")
	keyFile := fs.String("key-file", "", "PKCS8 PEM private key file")
	idem := fs.String("idempotency-key", "", "Idempotency-Key header for a write")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 || len(pos) > 3 || *keyID == "" || *keyFile == "" {
		return errors.New("usage: fxd call [--base-url U] --key-id ID --key-file PEM METHOD PATH [JSON]")
	}
	pemBytes, err := os.ReadFile(*keyFile)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	key, err := reqsig.ParsePrivateKeyPEM(pemBytes)
	if err != nil {
		return fmt.Errorf("call: %s: %w", *keyFile, err)
	}
	var body []byte
	if len(pos) == 3 {
		body = []byte(pos[2])
	}
	headers := map[string]string{}
	if *idem != "" {
		headers["Idempotency-Key"] = *idem
	}
	c, err := client.New(strings.TrimRight(*baseURL, "/"), *keyID, key)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := c.Do(ctx, strings.ToUpper(pos[0]), pos[1], body, headers)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	fmt.Printf("HTTP %d\n%s\n", resp.Status, resp.Body)
	if resp.Status/100 != 2 {
		return exitError{code: 1}
	}
	return nil
}
