// Package loglevel holds the one slog handler wrapper fxd needs for the
// libraries it embeds: a floor under the service's own level, so that a
// chatty library (go-ethereum, protoactor) logs only from warn up while
// the service logs at info, and still never below the service's level.
package loglevel

import (
	"context"
	"log/slog"
)

// Floor returns a handler that passes on to h the records at min and
// above that h itself admits.
func Floor(h slog.Handler, min slog.Level) slog.Handler { return floor{Handler: h, min: min} }

type floor struct {
	slog.Handler
	min slog.Level
}

func (f floor) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= f.min && f.Handler.Enabled(ctx, l)
}

func (f floor) WithAttrs(as []slog.Attr) slog.Handler {
	return floor{Handler: f.Handler.WithAttrs(as), min: f.min}
}

func (f floor) WithGroup(name string) slog.Handler {
	return floor{Handler: f.Handler.WithGroup(name), min: f.min}
}
