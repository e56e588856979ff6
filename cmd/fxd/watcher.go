package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/watch"
)

// metaWatchBlock records "<block>:<hash>", the last block whose logs the
// watcher fully delivered; a restart resumes after it.
const metaWatchBlock = "watch_block"

// startWatcher follows the chain from where meta says it stopped (or from
// the current head on a first start) and records its progress there: the
// log on a single node, the node's own facts on a cluster (every node
// watches the chain for the partitions it owns; watching changes nothing). subscribe runs before the first block is scanned: a subscription
// made later would miss the blocks scanned before it, and with them
// whatever happened while the service was down. The returned channel
// yields the error that stopped it (a reorg deeper than it can undo);
// stop ends it.
func startWatcher(meta actors.MetaStore, ch *connect.Chain, logger *slog.Logger, subscribe func(*watch.Watcher) error) (<-chan error, func(), error) {
	cfg := watch.Config{Logger: logger}
	rec, err := meta.Meta(metaWatchBlock)
	if err != nil {
		return nil, nil, err
	}
	if rec == "" {
		head, err := ch.Head(context.Background())
		if err != nil {
			return nil, nil, fmt.Errorf("watcher: head: %w", err)
		}
		cfg.From = head
	} else {
		block, hash, err := parseProgress(rec)
		if err != nil {
			return nil, nil, err
		}
		cfg.From, cfg.ResumeHash = block+1, hash
	}
	w := watch.New(ch.Client, cfg, func(block uint64, hash common.Hash) {
		if err := meta.PutMeta(metaWatchBlock, strconv.FormatUint(block, 10)+":"+hash.Hex()); err != nil {
			// The log refuses writes only after a storage failure, which
			// ends the process anyway (wal.Options.OnFatal); a node's
			// files likewise. The next block records it again.
			logger.Error("watcher progress not recorded", "block", block, "err", err.Error())
		}
	})
	if err := checkResume(w, logger); err != nil {
		return nil, nil, err
	}
	if err := subscribe(w); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		if err := w.Run(ctx); err != nil && ctx.Err() == nil {
			errc <- err
		}
	}()
	logger.Info("chain watcher started", "from_block", cfg.From)
	return errc, cancel, nil
}

// resumeCheckTimeout bounds the start's look at the resume block.
const resumeCheckTimeout = 10 * time.Second

// checkResume refuses to start when the chain does not hold the last block
// the log recorded as processed: another chain under the same genesis (an
// embedded chain's data lost or replaced: its dev genesis is the same on
// every start) or a reorg deeper than the watcher can undo. It runs before
// the desks resume anything, so nothing is relayed to that chain; the
// watcher's first poll would find it too, but only after they had. A chain
// that does not answer is not a refusal (the watcher checks again once it
// does).
func checkResume(w *watch.Watcher, logger *slog.Logger) error {
	ctx, cancel := context.WithTimeout(context.Background(), resumeCheckTimeout)
	defer cancel()
	err := w.CheckResume(ctx)
	switch {
	case errors.Is(err, watch.ErrReorgTooDeep):
		return fmt.Errorf("watcher: the chain does not hold the last block this data dir processed (%w); is it the chain this log was written on? refusing to start", err)
	case err != nil:
		logger.Warn("watcher: the resume block was not checked at start; the watcher checks it once the chain answers", "err", err.Error())
	}
	return nil
}

func parseProgress(rec string) (uint64, common.Hash, error) {
	num, hash, ok := strings.Cut(rec, ":")
	block, err := strconv.ParseUint(num, 10, 64)
	if !ok || err != nil || len(hash) != 66 {
		return 0, common.Hash{}, fmt.Errorf("watcher: bad %s record %q", metaWatchBlock, rec)
	}
	return block, common.HexToHash(hash), nil
}
