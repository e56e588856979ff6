package watch

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/bind"
)

func TestDeliversInOrderAcrossRanges(t *testing.T) {
	e := newEnv(t)
	e.blocks(25)

	var all, fromAlice recorder
	w := New(e.client, Config{MaxRange: 4}, all.onProgress)
	w.Subscribe(e.transferFilter(), all.deliver)
	aliceTopic := common.BytesToHash(addr(e.alice).Bytes())
	w.Subscribe(Filter{
		Addresses: []common.Address{e.tokenA},
		Topics:    [][]common.Hash{{transferTopic}, {aliceTopic}},
	}, fromAlice.deliver)

	poll(t, w)
	head := e.head()
	logs, progress := all.snapshot()
	want := e.canonical(0, head)
	if len(want) < 30 {
		t.Fatalf("test chain has only %d transfers", len(want))
	}
	sameLogs(t, plain(logs), want)
	sameLogs(t, live(t, logs), want)

	// Progress after each range: consecutive, at most MaxRange blocks, ending
	// at the head, with each range end's hash.
	prev := int64(-1)
	for _, p := range progress {
		if span := int64(p.block) - prev; span < 1 || span > 4 {
			t.Fatalf("range ending at %d spans %d blocks", p.block, span)
		}
		if p.hash != e.hashOf(p.block) {
			t.Fatalf("progress hash of %d is not the block's", p.block)
		}
		prev = int64(p.block)
	}
	if uint64(prev) != head || w.Next() != head+1 {
		t.Fatalf("progress ends at %d, next %d; head %d", prev, w.Next(), head)
	}

	// The narrower subscription sees only alice's transfers.
	var wantAlice []types.Log
	for _, l := range want {
		if l.Topics[1] == aliceTopic {
			wantAlice = append(wantAlice, l)
		}
	}
	got, _ := fromAlice.snapshot()
	sameLogs(t, plain(got), wantAlice)

	// More blocks: the next poll continues where the last stopped.
	e.blocks(9)
	poll(t, w)
	logs, _ = all.snapshot()
	sameLogs(t, plain(logs), e.canonical(0, e.head()))
	if w.Rejected() != 0 {
		t.Fatalf("rejected %d honest logs", w.Rejected())
	}
}

func TestResumeFromProgress(t *testing.T) {
	e := newEnv(t)
	e.blocks(20)

	// The first run stops (the process dies) after three ranges; the host has
	// recorded the last progress it was given.
	var first recorder
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last progressCall
	calls := 0
	w1 := New(e.client, Config{MaxRange: 3}, func(b uint64, h common.Hash) {
		last = progressCall{b, h}
		if calls++; calls == 3 {
			cancel()
		}
	})
	w1.Subscribe(e.transferFilter(), first.deliver)
	if err := w1.Poll(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Poll after cancel: %v", err)
	}
	if last.block != 8 {
		t.Fatalf("stopped after block %d, want 8", last.block)
	}

	e.blocks(10)

	var second recorder
	w2 := New(e.client, Config{From: last.block + 1, ResumeHash: last.hash, MaxRange: 3}, second.onProgress)
	w2.Subscribe(e.transferFilter(), second.deliver)
	poll(t, w2)

	a, _ := first.snapshot()
	b, _ := second.snapshot()
	if len(a) == 0 || len(b) == 0 {
		t.Fatalf("each run should deliver something: %d, %d", len(a), len(b))
	}
	for _, l := range a {
		if l.BlockNumber > last.block {
			t.Fatalf("first run delivered block %d after reporting %d", l.BlockNumber, last.block)
		}
	}
	// No duplicates, no gaps.
	sameLogs(t, live(t, append(a, b...)), e.canonical(0, e.head()))
}

func TestConfirmationsDelayDelivery(t *testing.T) {
	e := newEnv(t)
	var rec recorder
	w := New(e.client, Config{From: e.head() + 1, Confirmations: 3}, rec.onProgress)
	w.Subscribe(e.transferFilter(), rec.deliver)

	e.commit(e.transfer(e.alice, addr(e.bob)))
	block := e.head()
	for i := range 3 {
		poll(t, w)
		if logs, _ := rec.snapshot(); len(logs) != 0 {
			t.Fatalf("delivered with %d confirmations", i)
		}
		e.sim.Commit()
	}
	poll(t, w)
	logs, progress := rec.snapshot()
	sameLogs(t, plain(logs), e.canonical(block, block))
	if p := progress[len(progress)-1]; p.block != block || w.Next() != block+1 {
		t.Fatalf("progress %d, next %d; want %d", p.block, w.Next(), block)
	}
}

func TestReorg(t *testing.T) {
	for _, tc := range []struct {
		name         string
		pollRewound  bool // poll while the fork is still shorter than the old chain
		extraCommits int
	}{
		{name: "longer fork", extraCommits: 3},
		{name: "poll on the rewound head", pollRewound: true, extraCommits: 3},
		{name: "same height", extraCommits: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.blocks(6)
			parent := e.head()
			// Two blocks with transfers that the reorg will orphan.
			e.commit(e.transfer(e.alice, addr(e.bob)), e.transfer(e.bob, addr(e.alice)))
			e.commit(e.transfer(e.alice, common.HexToAddress("0xc0ffee")))
			tip := e.head()

			var rec recorder
			w := New(e.client, Config{MaxRange: 4}, rec.onProgress)
			w.Subscribe(e.transferFilter(), rec.deliver)
			poll(t, w)
			before, _ := rec.snapshot()
			orphaned := e.canonical(parent+1, tip)
			if len(orphaned) != 3 {
				t.Fatalf("want 3 logs to orphan, have %d", len(orphaned))
			}

			if err := e.sim.Fork(e.hashOf(parent)); err != nil {
				t.Fatal(err)
			}
			if tc.pollRewound {
				poll(t, w)
				logs, progress := rec.snapshot()
				retracted := logs[len(before):]
				requireRetracted(t, retracted, orphaned)
				if p := progress[len(progress)-1]; p.block != parent || p.hash != e.hashOf(parent) || w.Next() != parent+1 {
					t.Fatalf("after the rewind: progress %d, next %d; want %d", p.block, w.Next(), parent)
				}
			}
			// The new branch: the orphaned transfers come back from the pool, plus
			// a new one (a mint, from the deployer).
			mint, err := e.token.Mint(e.opts(e.deployer), common.HexToAddress("0xca201"), bind.Units(5))
			if err != nil {
				t.Fatal(err)
			}
			e.commit(mint)
			for e.head() < parent+uint64(tc.extraCommits) {
				e.sim.Commit()
			}
			poll(t, w)

			logs, progress := rec.snapshot()
			requireRetracted(t, logs[len(before):len(before)+len(orphaned)], orphaned)
			head := e.head()
			sameLogs(t, live(t, logs), e.canonical(0, head))
			for _, l := range logs[len(before)+len(orphaned):] {
				if l.Removed || l.BlockNumber <= parent {
					t.Fatalf("after the retractions: %+v", l)
				}
			}
			if p := progress[len(progress)-1]; p.block != head || p.hash != e.hashOf(head) {
				t.Fatalf("progress %d, want head %d", p.block, head)
			}
		})
	}
}

// requireRetracted: got retracts want, newest first.
func requireRetracted(t *testing.T, got []Log, want []types.Log) {
	t.Helper()
	if len(got) < len(want) {
		t.Fatalf("%d retractions, want %d", len(got), len(want))
	}
	for i, l := range want {
		g := got[len(want)-1-i]
		if !g.Removed || keyOf(g.Log) != keyOf(l) {
			t.Fatalf("retraction %d is %v removed=%v, want %v", len(want)-1-i, keyOf(g.Log), g.Removed, keyOf(l))
		}
	}
}

func TestReorgDepth(t *testing.T) {
	t.Run("within ReorgDepth", func(t *testing.T) {
		e := newEnv(t)
		e.blocks(10)
		var rec recorder
		w := New(e.client, Config{MaxRange: 2, ReorgDepth: 4}, rec.onProgress)
		w.Subscribe(e.transferFilter(), rec.deliver)
		poll(t, w)
		// Orphan the last 3 blocks: the fork point is the oldest remembered block.
		if err := e.sim.Fork(e.hashOf(e.head() - 3)); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			e.sim.Commit()
		}
		poll(t, w)
		logs, _ := rec.snapshot()
		sameLogs(t, live(t, logs), e.canonical(0, e.head()))
	})
	t.Run("deeper than ReorgDepth", func(t *testing.T) {
		e := newEnv(t)
		e.blocks(10)
		var rec recorder
		w := New(e.client, Config{MaxRange: 2, ReorgDepth: 4}, rec.onProgress)
		w.Subscribe(e.transferFilter(), rec.deliver)
		poll(t, w)
		next := w.Next()
		before, progressBefore := rec.snapshot()

		if err := e.sim.Fork(e.hashOf(e.head() - 4)); err != nil {
			t.Fatal(err)
		}
		for range 8 {
			e.sim.Commit()
		}
		for range 2 { // the error sticks
			if err := w.Poll(context.Background()); !errors.Is(err, ErrReorgTooDeep) {
				t.Fatalf("Poll: %v, want ErrReorgTooDeep", err)
			}
		}
		logs, progress := rec.snapshot()
		if len(logs) != len(before) || len(progress) != len(progressBefore) || w.Next() != next {
			t.Fatal("a failed rewind changed the watcher's state")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := w.Run(ctx); !errors.Is(err, ErrReorgTooDeep) {
			t.Fatalf("Run: %v, want ErrReorgTooDeep", err)
		}
	})
}

func TestResumeAfterReorgAcrossRestart(t *testing.T) {
	e := newEnv(t)
	e.blocks(8)
	var last progressCall
	w := New(e.client, Config{}, func(b uint64, h common.Hash) { last = progressCall{b, h} })
	poll(t, w)

	// While the service is down, the chain reorganises below its progress.
	if err := e.sim.Fork(e.hashOf(last.block - 2)); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		e.sim.Commit()
	}
	w2 := New(e.client, Config{From: last.block + 1, ResumeHash: last.hash}, nil)
	if err := w2.CheckResume(context.Background()); !errors.Is(err, ErrReorgTooDeep) {
		t.Fatalf("CheckResume: %v, want ErrReorgTooDeep", err)
	}
	if err := w2.Poll(context.Background()); !errors.Is(err, ErrReorgTooDeep) {
		t.Fatalf("Poll: %v, want ErrReorgTooDeep", err)
	}
	// Resuming from a block that is still canonical works.
	w3 := New(e.client, Config{From: last.block - 1, ResumeHash: e.hashOf(last.block - 2)}, nil)
	if err := w3.CheckResume(context.Background()); err != nil {
		t.Fatalf("CheckResume: %v", err)
	}
	poll(t, w3)
	// A first start has nothing to check.
	if err := New(e.client, Config{}, nil).CheckResume(context.Background()); err != nil {
		t.Fatalf("CheckResume without ResumeHash: %v", err)
	}
}

func TestUnsubscribe(t *testing.T) {
	e := newEnv(t)
	e.blocks(6)
	parent := e.head()
	e.blocks(6)

	var once, stay recorder
	w := New(e.client, Config{MaxRange: 5}, nil)
	var cancelOnce func()
	cancelOnce = w.Subscribe(e.transferFilter(), func(l Log) {
		once.deliver(l)
		cancelOnce() // from inside deliver
	})
	cancelStay := w.Subscribe(e.transferFilter(), stay.deliver)
	poll(t, w)
	cancelOnce() // twice is fine

	if got, _ := once.snapshot(); len(got) != 1 {
		t.Fatalf("cancelled subscription got %d logs, want 1", len(got))
	}
	sameLogs(t, plain(must(stay.snapshot())), e.canonical(0, e.head()))

	// A reorg retracts nothing from the cancelled subscription.
	if err := e.sim.Fork(e.hashOf(parent)); err != nil {
		t.Fatal(err)
	}
	for range 8 {
		e.sim.Commit()
	}
	poll(t, w)
	if got, _ := once.snapshot(); len(got) != 1 {
		t.Fatalf("cancelled subscription got %d logs after a reorg", len(got))
	}
	sameLogs(t, live(t, must(stay.snapshot())), e.canonical(0, e.head()))

	cancelStay()
	n := len(must(stay.snapshot()))
	e.blocks(5)
	poll(t, w)
	if len(must(stay.snapshot())) != n {
		t.Fatal("delivered after cancel")
	}
	if w.Next() != e.head()+1 {
		t.Fatalf("without subscriptions the watcher still advances: next %d, head %d", w.Next(), e.head())
	}
}

func must[A, B any](a A, _ B) A { return a }

// liar is a node that adds logs of its own to eth_getLogs answers.
type liar struct {
	chain.Backend
	mu    sync.Mutex
	add   func(q ethereum.FilterQuery, logs []types.Log) []types.Log
	calls int
}

func (l *liar) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	logs, err := l.Backend.FilterLogs(ctx, q)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.add != nil && len(logs) > 0 {
		l.calls++
		logs = l.add(q, logs)
	}
	return logs, nil
}

func TestRejectsWhatWasNotAskedFor(t *testing.T) {
	e := newEnv(t)
	e.blocks(12)
	node := &liar{Backend: e.client}
	node.add = func(q ethereum.FilterQuery, logs []types.Log) []types.Log {
		l := logs[0]
		other := l
		other.Address = common.HexToAddress("0xbad")
		topic := l
		topic.Topics = append([]common.Hash{crypto.Keccak256Hash([]byte("Approval(address,address,uint256)"))}, l.Topics[1:]...)
		topic.Index = 902
		outside := l
		outside.BlockNumber = q.ToBlock.Uint64() + 1
		outside.Index = 900
		removed := l
		removed.Removed = true
		removed.Index = 901
		dup := l // a second credit for one transfer
		out := append([]types.Log{other, topic, outside, removed, dup}, logs...)
		slices.Reverse(out) // out of order, too
		return out
	}
	var rec recorder
	w := New(e.client, Config{MaxRange: 3}, rec.onProgress)
	w.b = node
	w.Subscribe(e.transferFilter(), rec.deliver)
	w.Subscribe(Filter{
		Addresses: []common.Address{e.tokenA},
		Topics:    [][]common.Hash{{transferTopic}, {common.BytesToHash(addr(e.alice).Bytes())}},
	}, func(Log) {})
	poll(t, w)

	logs, _ := rec.snapshot()
	sameLogs(t, plain(logs), e.canonical(0, e.head()))
	if want := uint64(5 * node.calls); node.calls == 0 || w.Rejected() != want {
		t.Fatalf("rejected %d, want %d", w.Rejected(), want)
	}
}

func TestInconsistentAnswersAreNotDelivered(t *testing.T) {
	for _, tc := range []struct {
		name  string
		forge func(q ethereum.FilterQuery, l types.Log) types.Log
	}{
		{"log of another block version", func(q ethereum.FilterQuery, l types.Log) types.Log {
			l.BlockNumber = q.ToBlock.Uint64()
			l.BlockHash = common.HexToHash("0xf0f0")
			l.Index = 700
			return l
		}},
		{"two logs at one index", func(q ethereum.FilterQuery, l types.Log) types.Log {
			l.Data = common.LeftPadBytes([]byte{0x77}, 32)
			return l
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.blocks(3)
			node := &liar{Backend: e.client}
			node.add = func(q ethereum.FilterQuery, logs []types.Log) []types.Log {
				return append([]types.Log{tc.forge(q, logs[len(logs)-1])}, logs...)
			}
			var rec recorder
			w := New(e.client, Config{}, rec.onProgress)
			w.b = node
			w.Subscribe(e.transferFilter(), rec.deliver)
			if err := w.Poll(context.Background()); !errors.Is(err, errChainMoved) {
				t.Fatalf("Poll: %v, want errChainMoved", err)
			}
			if logs, progress := rec.snapshot(); len(logs) != 0 || len(progress) != 0 || w.Next() != 0 {
				t.Fatal("delivered from an inconsistent answer")
			}
			node.mu.Lock()
			node.add = nil
			node.mu.Unlock()
			poll(t, w)
			sameLogs(t, plain(must(rec.snapshot())), e.canonical(0, e.head()))
		})
	}
}

func TestRun(t *testing.T) {
	e := newEnv(t)
	var rec recorder
	w := New(e.client, Config{PollInterval: 20 * time.Millisecond, MaxRange: 4}, rec.onProgress)
	w.Subscribe(e.transferFilter(), rec.deliver)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()

	e.blocks(8)
	want := e.canonical(0, e.head())
	deadline := time.Now().Add(10 * time.Second)
	for len(must(rec.snapshot())) < len(want) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	sameLogs(t, plain(must(rec.snapshot())), want)
}
