package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// unixSeconds returns the timestamp to sign: the clock, corrected by the
// offset SyncClock measured.
func (c *Client) unixSeconds() int64 {
	return c.clock().Add(time.Duration(c.offsetNs.Load())).Unix()
}

// ClockOffset returns the correction SyncClock applies to the local clock.
func (c *Client) ClockOffset() time.Duration {
	return time.Duration(c.offsetNs.Load())
}

// SyncClock reads the server's time (GET <base path>/time → {"unix":N})
// and corrects future timestamps by the difference, so a client with a
// skewed clock still signs within the server's ±30 s.
//
// The server's second N is taken to mean N+0.5 s at the midpoint of the
// round trip; the error is then within half a second plus half the round
// trip, far inside the freshness window.
func (c *Client) SyncClock(ctx context.Context) error {
	t1 := c.clock()
	resp, err := c.DoUnsigned(ctx, http.MethodGet, c.basePath+"/time", nil, nil)
	t2 := c.clock()
	if err != nil {
		return fmt.Errorf("client: sync clock: %w", err)
	}
	if resp.Status != http.StatusOK {
		return fmt.Errorf("client: sync clock: GET %s: status %d", resp.Target, resp.Status)
	}
	var body struct {
		Unix *int64 `json:"unix"`
	}
	dec := json.NewDecoder(bytes.NewReader(resp.Body))
	if err := dec.Decode(&body); err != nil {
		return fmt.Errorf("client: sync clock: decode %q: %w", resp.Body, err)
	}
	if body.Unix == nil || *body.Unix <= 0 {
		return fmt.Errorf("client: sync clock: no positive \"unix\" in %q", resp.Body)
	}
	mid := t1.Add(t2.Sub(t1) / 2)
	server := time.Unix(*body.Unix, int64(500*time.Millisecond))
	c.offsetNs.Store(int64(server.Sub(mid)))
	c.signed.rewind(c.unixSeconds())
	return nil
}
