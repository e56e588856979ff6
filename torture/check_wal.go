package torture

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// walVerifyDeadline bounds one `fxd wal verify`.
const walVerifyDeadline = 2 * time.Minute

// walReport is the JSON `fxd wal verify` prints.
type walReport struct {
	OK         bool   `json:"ok"`
	FirstIndex uint64 `json:"first_index"`
	LastIndex  uint64 `json:"last_index"`
	Records    uint64 `json:"records"`
	TailTorn   bool   `json:"tail_torn"`
	Problem    string `json:"problem,omitempty"`
}

// walVerify runs `bin wal verify --data-dir dir` (the server stopped) and
// requires ok; it returns the report's line for messages.
func walVerify(ctx context.Context, bin, dir string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, walVerifyDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "wal", "verify", "--data-dir", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	line := strings.TrimSpace(stdout.String())
	var rep walReport
	if err := json.Unmarshal([]byte(line), &rep); err != nil {
		return line, fmt.Errorf("wal verify: %v; stdout %q stderr %q", runErr, line, strings.TrimSpace(stderr.String()))
	}
	if runErr != nil || !rep.OK {
		return line, fmt.Errorf("wal verify: not ok (%v): %s", runErr, strings.TrimSpace(stderr.String()))
	}
	return line, nil
}
