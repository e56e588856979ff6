package torture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
// returns the report's line for messages. ok passes. A torn tail (exit 1,
// tail_torn true) is returned as torn with no error: after a kill -9 it is
// what a SIGKILL inside the writer's write() of a large batch leaves, a
// batch never answered, which the next start cuts (wal.Open's repair); the
// caller decides whether its moment allows one. Anything else fails.
func walVerify(ctx context.Context, bin, dir string) (line string, torn bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, walVerifyDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "wal", "verify", "--data-dir", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	line = strings.TrimSpace(stdout.String())
	var rep walReport
	if err := json.Unmarshal([]byte(line), &rep); err != nil {
		return line, false, fmt.Errorf("wal verify: %v; stdout %q stderr %q", runErr, line, strings.TrimSpace(stderr.String()))
	}
	var exit *exec.ExitError
	switch {
	case runErr == nil && rep.OK:
		return line, false, nil
	case !rep.OK && rep.TailTorn && errors.As(runErr, &exit) && exit.ExitCode() == 1:
		return line, true, nil
	}
	return line, false, fmt.Errorf("wal verify: not ok (%v): %s", runErr, strings.TrimSpace(stderr.String()))
}

// verifyWAL runs `fxd wal verify` on the stopped server's data dir,
// counts the run and fails the harness on a problem; it returns the
// report's line. After a kill a torn tail is counted, not failed: the
// kill may land inside the writer's write() of a batch, which was then
// never answered; the restart that follows cuts it, and the checks after
// it find every answered write. After a clean stop it is a failure.
func (h *harness) verifyWAL(ctx context.Context, afterKill bool) string {
	rep, torn, err := walVerify(ctx, h.cfg.Bin, h.srv.dataDir)
	if err == nil && torn && !afterKill {
		err = fmt.Errorf("wal verify: a torn tail after a clean stop: %s", rep)
	}
	h.count(func(f *faultStats) {
		f.WALVerifies++
		if torn && afterKill {
			f.WALTornTails++
		}
		if err != nil {
			f.WALFailures++
		}
	})
	switch {
	case err != nil && afterKill:
		h.fail("wal verify after a kill: %v (%s)", err, rep)
	case err != nil:
		h.fail("final wal verify: %v", err)
	}
	return rep
}
