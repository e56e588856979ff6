package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/reqsig"
)

// callTimeout bounds one fxd call, the clock correction's second attempt
// included.
const callTimeout = 30 * time.Second

// callOptions are fxd call's flags and arguments.
type callOptions struct {
	baseURL, keyID, keyFile, idemKey string
	include                          bool
	method, path                     string
	body                             []byte
}

func newCallCmd() *cobra.Command {
	var o callOptions
	cmd := &cobra.Command{
		Use:   "call [--base-url U] --key-id ID --key-file PEM [-i] [--idempotency-key K] METHOD PATH [JSON]",
		Short: "Make one signed API request: the body on stdout, the status on stderr",
		Long: `Make one signed API request (SPEC.md "Authentication") and print the answer:
the body alone on stdout, byte for byte (so it can go to jq), and the status
line ("HTTP 200 OK") on stderr, with every response header after it with -i.
It exits 0 for a 2xx answer and 1 for any other (after printing it).

PATH includes the base path (/public/v1/account). Each run adds a random
query parameter _r, which the server ignores, so that two identical runs in
the same second are two requests, not one request and its replay. A 401
stale_timestamp (this machine's clock is off) is signed again once with the
server's time from SVC-Server-Time.`,
		Example: `  fxd call --key-id svc_test_… --key-file data/demo.pem GET /public/v1/account | jq .
  fxd call --key-id svc_test_… --key-file data/demo.pem --idempotency-key c-1 \
      POST /public/v1/contacts '{"name":"Ada","address":"0x…"}'`,
		Args: argsBetween(2, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireFlags(cmd, "key-id", "key-file"); err != nil {
				return err
			}
			o.method, o.path = strings.ToUpper(args[0]), args[1]
			if len(args) == 3 {
				o.body = []byte(args[2])
			}
			return runCall(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.baseURL, "base-url", "http://127.0.0.1:8080", "service URL (scheme, host, port)")
	fs.StringVar(&o.keyID, "key-id", "", "API key id (svc_test_…)")
	fs.StringVar(&o.keyFile, "key-file", "", "PKCS8 PEM private key file")
	fs.StringVar(&o.idemKey, "idempotency-key", "", "Idempotency-Key header for a write (the same key replays the stored answer)")
	fs.BoolVarP(&o.include, "include", "i", false, "also print every response header on stderr")
	return cmd
}

// runCall signs and sends the request, once more after a stale_timestamp
// with the server's clock, and prints the answer. A non-2xx answer exits 1.
func runCall(ctx context.Context, stdout, stderr io.Writer, o callOptions) error {
	pemBytes, err := os.ReadFile(o.keyFile)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	key, err := reqsig.ParsePrivateKeyPEM(pemBytes)
	if err != nil {
		return fmt.Errorf("call: %s: %w", o.keyFile, err)
	}
	headers := map[string]string{}
	if o.idemKey != "" {
		headers["Idempotency-Key"] = o.idemKey
	}
	target, err := uniqueTarget(o.path)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	base := strings.TrimRight(o.baseURL, "/")
	c, err := client.New(base, o.keyID, key)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	resp, err := c.Do(ctx, o.method, target, o.body, headers)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	if offset, ok := serverClockOffset(resp, time.Now()); ok {
		fmt.Fprintf(stderr, "fxd: call: %s; signing again with the server's clock\n", describeOffset(offset))
		c, err = client.New(base, o.keyID, key, client.WithClock(func() time.Time { return time.Now().Add(offset) }))
		if err != nil {
			return fmt.Errorf("call: %w", err)
		}
		if resp, err = c.Do(ctx, o.method, target, o.body, headers); err != nil {
			return fmt.Errorf("call: %w", err)
		}
	}
	return printAnswer(stdout, stderr, resp, o.include)
}

// uniqueTarget appends _r=<64 random bits> to path. The canonical string
// has no nonce, so without it a run identical to one signed in the same
// second (by this process or any other) would be refused as replayed;
// CONTRACT.md lets clients add an ignored query parameter to make a
// request unique, and the Go SDK reserves _r for it. The Idempotency-Key
// scope is the path without the query, so a replay by key still works.
func uniqueTarget(path string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	sep := "&"
	switch q := strings.IndexByte(path, '?'); {
	case q < 0:
		sep = "?"
	case q == len(path)-1 || strings.HasSuffix(path, "&"):
		sep = ""
	}
	return path + sep + "_r=" + hex.EncodeToString(b[:]), nil
}

// serverClockOffset reads a 401 stale_timestamp's SVC-Server-Time: how far
// the server's clock is from now (its second N taken as N+0.5 s, as the
// SDK does). ok is false for any other answer.
func serverClockOffset(resp *client.Response, now time.Time) (time.Duration, bool) {
	if resp.Status != http.StatusUnauthorized {
		return 0, false
	}
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(resp.Body, &e) != nil || e.Error.Code != client.CodeStaleTimestamp {
		return 0, false
	}
	server, err := strconv.ParseInt(resp.Header.Get("SVC-Server-Time"), 10, 64)
	if err != nil || server <= 0 {
		return 0, false
	}
	return time.Unix(server, int64(500*time.Millisecond)).Sub(now), true
}

// describeOffset says how this machine's clock stands to the server's.
func describeOffset(d time.Duration) string {
	s := d.Round(time.Second)
	switch {
	case s > 0:
		return fmt.Sprintf("this machine's clock is %v behind the server's", s)
	case s < 0:
		return fmt.Sprintf("this machine's clock is %v ahead of the server's", -s)
	}
	return "the server refused the timestamp (it may have just restarted)"
}

// printAnswer writes the status line (and with include every header) to
// stderr and the body, byte for byte, to stdout. On a terminal a body
// without a final newline gets one, so the prompt does not run on; piped,
// it is left exact.
func printAnswer(stdout, stderr io.Writer, resp *client.Response, include bool) error {
	fmt.Fprintln(stderr, strings.TrimSpace(fmt.Sprintf("HTTP %d %s", resp.Status, http.StatusText(resp.Status))))
	if include {
		names := make([]string, 0, len(resp.Header))
		for k := range resp.Header {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			for _, v := range resp.Header[k] {
				fmt.Fprintf(stderr, "%s: %s\n", k, v)
			}
		}
	}
	if _, err := stdout.Write(resp.Body); err != nil {
		return fmt.Errorf("call: write body: %w", err)
	}
	if len(resp.Body) > 0 && resp.Body[len(resp.Body)-1] != '\n' && isTerminal(stdout) {
		fmt.Fprintln(stdout)
	}
	if resp.Status/100 != 2 {
		return exitError{code: exitFailure}
	}
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
