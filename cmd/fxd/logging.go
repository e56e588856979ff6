package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/fxd-labs/fxd/internal/loglevel"

	gethlog "github.com/ethereum/go-ethereum/log"
)

// parseLogLevel reads --log-level: debug, info, warn or error.
func parseLogLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("serve: --log-level must be debug, info, warn or error, not %q", s)
}

// newServeLogger is the service's logger: one JSON object per line on w,
// from level up. The packages that log through it (fasthttp's errors, the
// admin listener's net/http errors, the chain, the desks) follow the
// level; so do go-ethereum's global logger and the log package, which are
// routed through the same handler here, so that no line on stderr is
// anything but JSON.
func newServeLogger(w io.Writer, level slog.Level) *slog.Logger {
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})
	// go-ethereum's packages (miner, core, eth) log through its root
	// logger, which discards by default. Their info lines (a block
	// sealed, a chain segment imported) come every few seconds and say
	// nothing an operator needs, and their debug lines (every RPC call)
	// would drown the service's; so go-ethereum logs at warn and above,
	// or at info and above when --log-level is debug.
	floor := max(level, slog.LevelWarn)
	if level <= slog.LevelDebug {
		floor = slog.LevelInfo
	}
	gethlog.SetDefault(gethlog.NewLogger(loglevel.Floor(h.WithAttrs([]slog.Attr{slog.String("component", "geth")}), floor)))
	// After gethlog.SetDefault, which makes its own logger slog's
	// default: the log package and package-level slog calls write
	// through the service's handler at its level instead.
	logger := slog.New(h)
	slog.SetDefault(logger)
	return logger
}
