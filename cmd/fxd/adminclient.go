package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// adminTarget says where the admin listener of a running fxd is and how
// to authenticate: --data-dir (whose admin.addr and admin.token serve
// writes), or --admin-url and --admin-token-file. Any command that talks
// to the admin listener adds these flags with addAdminFlags (persistent on
// a group command, so they may come before or after the command words)
// and calls client.
type adminTarget struct {
	dataDir, url, tokenFile string
}

// maxAdminAnswer bounds an admin answer read into memory.
const maxAdminAnswer = 1 << 20

// addAdminFlags adds --data-dir, --admin-url and --admin-token-file to fs.
func addAdminFlags(fs *pflag.FlagSet) *adminTarget {
	t := &adminTarget{}
	fs.StringVar(&t.dataDir, "data-dir", "./data", "data directory of the running service")
	fs.StringVar(&t.url, "admin-url", "", "admin listener URL (default: read from <data-dir>/"+adminAddrFile+")")
	fs.StringVar(&t.tokenFile, "admin-token-file", "", "admin token file (default: <data-dir>/"+adminTokenFile+")")
	return t
}

// print calls the admin listener and prints its answer as it came: the
// whole of most admin commands.
func (t *adminTarget) print(w io.Writer, method, path string, body any) error {
	c, err := t.client()
	if err != nil {
		return err
	}
	out, err := c.do(method, path, body)
	if err != nil {
		return err
	}
	return printRaw(w, out)
}

// client finds the admin listener and reads its token.
func (t *adminTarget) client() (*adminClient, error) {
	c := &adminClient{url: t.url, http: &http.Client{Timeout: 30 * time.Second}}
	if c.url == "" {
		b, err := os.ReadFile(filepath.Join(t.dataDir, adminAddrFile))
		if err != nil {
			return nil, fmt.Errorf("find the admin listener: %w (is fxd serve running with --data-dir %s?)", err, t.dataDir)
		}
		c.url = string(trimNL(b))
	}
	tf := t.tokenFile
	if tf == "" {
		tf = filepath.Join(t.dataDir, adminTokenFile)
	}
	b, err := os.ReadFile(tf)
	if err != nil {
		return nil, fmt.Errorf("read admin token: %w", err)
	}
	c.token = string(trimNL(b))
	return c, nil
}

// adminClient talks to the admin listener of a running fxd.
type adminClient struct {
	url, token string
	http       *http.Client
}

// do sends one admin request (body nil: none); a non-2xx answer becomes
// an error carrying the contract's error code and message.
func (c *adminClient) do(method, path string, body any) (json.RawMessage, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("admin %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimRight(c.url, "/")+path, rd)
	if err != nil {
		return nil, fmt.Errorf("admin %s %s: %w", method, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("admin %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxAdminAnswer))
	if err != nil {
		return nil, fmt.Errorf("admin %s %s: read answer: %w", method, path, err)
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
