package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxAdminAnswer bounds what the bench reads of one admin answer (heap
// profiles and CPU profiles included).
const maxAdminAnswer = 64 << 20

// adminHTTP is fxd's admin listener as the bench calls it: the bearer
// token from the data dir, one client with kept-alive connections (the
// memory phase makes 200,000 calls).
type adminHTTP struct {
	base, token string
	hc          *http.Client
}

// adminAPI returns s's admin listener client, made on first use.
func (s *FXD) adminAPI() (*adminHTTP, error) {
	s.adminOnce.Do(func() {
		tok, err := os.ReadFile(filepath.Join(s.DataDir, "admin.token"))
		if err != nil {
			s.adminErr = err
			return
		}
		s.adminC = &adminHTTP{base: "http://" + s.Addrs["admin listening"], token: strings.TrimSpace(string(tok)),
			hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	})
	return s.adminC, s.adminErr
}

// adminDo calls the admin API: body (if not nil) is sent as JSON, a
// non-2xx answer is an error, and the answer is returned whole.
func (s *FXD) adminDo(ctx context.Context, method, path string, body any, timeout time.Duration) ([]byte, error) {
	a, err := s.adminAPI()
	if err != nil {
		return nil, err
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAdminAnswer))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("admin %s %s: %d %.200s", method, path, resp.StatusCode, b)
	}
	return b, nil
}

// adminGet is adminDo for a GET with a minute's timeout.
func (s *FXD) adminGet(path string) ([]byte, error) {
	return s.adminDo(context.Background(), "GET", path, nil, time.Minute)
}
