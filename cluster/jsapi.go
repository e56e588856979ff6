package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// requestTimeout bounds one JetStream API request: while an election is
// under way (of the meta group, or of a stream) the request goes
// unanswered, so each try is short and the caller tries again (the
// balancer at its next round, an operator's remove-peer by hand).
const requestTimeout = 5 * time.Second

// jsRequest sends one JetStream API request, body as JSON, on nc and
// reads its answer: success, or its error. what names the request in
// errors.
func jsRequest(ctx context.Context, nc *nats.Conn, subject string, body any, what string) error {
	req, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("cluster: %s: %w", what, err)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	msg, err := nc.RequestWithContext(ctx, subject, req)
	if err != nil {
		return fmt.Errorf("cluster: %s: %w", what, err)
	}
	var resp struct {
		Success bool `json:"success"`
		Error   *struct {
			Code        int    `json:"code"`
			Description string `json:"description"`
		} `json:"error"`
	}
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return fmt.Errorf("cluster: %s: answer %q: %w", what, msg.Data, err)
	}
	if resp.Error != nil {
		return fmt.Errorf("cluster: %s: %d %s", what, resp.Error.Code, resp.Error.Description)
	}
	if !resp.Success {
		return errors.New("cluster: " + what + ": not done")
	}
	return nil
}
