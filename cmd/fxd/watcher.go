package main

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

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

func parseProgress(rec string) (uint64, common.Hash, error) {
	num, hash, ok := strings.Cut(rec, ":")
	block, err := strconv.ParseUint(num, 10, 64)
	if !ok || err != nil || len(hash) != 66 {
		return 0, common.Hash{}, fmt.Errorf("watcher: bad %s record %q", metaWatchBlock, rec)
	}
	return block, common.HexToHash(hash), nil
}
