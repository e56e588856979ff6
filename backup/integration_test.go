package backup

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/wal"
)

// metaChainHead is a meta key the test writes: the chain head it saw, as
// "number:hash", standing in for the records that refer to blocks (the
// watcher's block, mined relays).
const metaChainHead = "test_chain_head"

// ackedWrite is one acknowledged contact create and the log indexes its
// record lies between: above the last index before it was sent, at or
// below the last index once it was acknowledged.
type ackedWrite struct {
	acct, name string
	lo, hi     uint64
}

// load is the writers of the test: contact creates over several accounts.
type load struct {
	e     *actors.Engine
	accts []string
	mu    sync.Mutex
	acked []ackedWrite
	stop  chan struct{}
	wg    sync.WaitGroup
}

func (l *load) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acked)
}

func (l *load) run(t *testing.T, writers int) {
	for w := range writers {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			acct := l.accts[w%len(l.accts)]
			for i := 0; ; i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				lo := l.e.LastIndex() + 1
				name := fmt.Sprintf("w%d-%d", w, i)
				cmd := domain.CreateContact{Name: name, Address: common.BigToAddress(big.NewInt(int64(w*1_000_000 + i + 1))).Hex()}
				out, err := l.e.Exec(context.Background(), acct, domain.Request{Cmd: cmd})
				if err != nil || out.Reply.Status != 201 {
					t.Errorf("create contact: %v %s", err, out.Reply.Body)
					return
				}
				l.mu.Lock()
				l.acked = append(l.acked, ackedWrite{acct: acct, name: name, lo: lo, hi: l.e.LastIndex()})
				l.mu.Unlock()
			}
		}()
	}
}

// recordChainHead writes the chain's head into the log every 50 ms.
func (l *load) recordChainHead(t *testing.T, ch *connect.Chain) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for {
			h, err := ch.Client.HeaderByNumber(context.Background(), nil)
			if err == nil {
				err = l.e.PutMeta(metaChainHead, fmt.Sprintf("%d:%s", h.Number.Uint64(), h.Hash().Hex()))
			}
			if err != nil {
				t.Errorf("record chain head: %v", err)
				return
			}
			select {
			case <-l.stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
}

func (l *load) waitFor(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); l.count() < n; time.Sleep(5 * time.Millisecond) {
		require.False(t, time.Now().After(deadline), "only %d of %d writes acknowledged", l.count(), n)
	}
}

// TestBackupUnderLoadRestores is the proof of issue 14: a server (the
// real engine, log and store, and the real embedded chain in process)
// takes writes from concurrent writers; a backup is taken in the middle
// of the load, and the writes go on; the server stops; the backup
// verifies and is restored into a new data dir, which opens as serve
// opens it. Then: every write acknowledged at or below the backup's last
// index L is there exactly once, none after it, nothing else; the chain
// is at least at the backup's head H with the same blocks, and every
// block the log refers to is on it; the restored log verifies; the
// restored server takes new writes; no secret of the data dir travelled.
func TestBackupUnderLoadRestores(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	data := t.TempDir()
	for _, name := range []string{"admin.token", "admin.addr", "webhook.key", "demo.pem"} {
		require.NoError(t, os.WriteFile(filepath.Join(data, name), []byte("secret\n"), 0o600))
	}
	out := filepath.Join(t.TempDir(), "backup")
	m, l := backupUnderLoad(t, ctx, data, out)
	requireNoSecrets(t, out)
	rep, err := Verify(out)
	require.NoError(t, err)
	require.True(t, rep.OK)
	restored := filepath.Join(t.TempDir(), "restored")
	res, err := Restore(ctx, out, restored, quiet)
	require.NoError(t, err)
	require.Equal(t, m.LastIndex, res.LastIndex)
	requireNoSecrets(t, restored)

	ch, err := connect.Open(ctx, connect.Config{Mode: connect.ModeEmbedded, DataDir: restored, Makers: 2, Logger: quiet})
	require.NoError(t, err, "the restored chain opens, with its contracts, without deploying again")
	defer ch.Close()
	requireChainAt(t, ctx, ch, m.Chain.Head, common.HexToHash(m.Chain.HeadHash))
	e, err := actors.Open(actors.Config{DataDir: restored, Logger: quiet})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	require.NoError(t, e.BindChain(ch.Genesis.Hex()), "the genesis check passes")
	require.Equal(t, m.LastIndex, e.LastIndex())
	requireExactPrefix(t, e, l, m.LastIndex)
	requireRecordedHead(t, ctx, e, ch)

	after, err := e.Exec(ctx, l.accts[0], domain.Request{Cmd: domain.CreateContact{Name: "after restore", Address: common.BigToAddress(big.NewInt(7)).Hex()}})
	require.NoError(t, err)
	require.Equal(t, 201, after.Reply.Status, "the restored server takes writes: %s", after.Reply.Body)
	require.NoError(t, e.Close())
	v, err := wal.Verify(filepath.Join(restored, "wal"))
	require.NoError(t, err)
	require.Empty(t, v.Problem)
	require.Equal(t, m.AppliedIndex+1, v.FirstIndex)
	require.Equal(t, m.LastIndex+1, v.LastIndex)
}

// backupUnderLoad runs a server on data (engine, log, store, embedded
// chain), loads it with writers and a chain-head recorder, backs it up
// into out in the middle of the load, lets the load go on, and stops it.
func backupUnderLoad(t *testing.T, ctx context.Context, data, out string) (*Manifest, *load) {
	t.Helper()
	e, err := actors.Open(actors.Config{DataDir: data, Logger: quiet, SyncEvery: 20 * time.Millisecond,
		WAL: wal.Options{SegmentSize: 16 << 10}}) // many segments, truncated often
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	ch, err := connect.Open(ctx, connect.Config{Mode: connect.ModeEmbedded, DataDir: data, Makers: 2, Logger: quiet})
	require.NoError(t, err)
	require.NoError(t, e.BindChain(ch.Genesis.Hex()))
	l := &load{e: e, stop: make(chan struct{})}
	for range 3 {
		out, err := e.CreateAccount(ctx, domain.CreateAccount{Name: "acct", KYC: domain.KYCApproved})
		require.NoError(t, err)
		var v struct{ ID string }
		require.NoError(t, json.Unmarshal(out.Reply.Body, &v))
		l.accts = append(l.accts, v.ID)
	}
	l.run(t, 6)
	l.recordChainHead(t, ch)
	l.waitFor(t, 300)
	m, err := Create(ctx, Source{State: e, Chain: ch, DataDir: data}, out)
	require.NoError(t, err)
	l.waitFor(t, l.count()+300) // writes after the backup
	close(l.stop)
	l.wg.Wait()
	require.NoError(t, ch.Close())
	require.NoError(t, e.Close())
	t.Logf("backup: applied %d, last %d, chain head %d; %d writes acknowledged in all", m.AppliedIndex, m.LastIndex, m.Chain.Head, l.count())
	require.Equal(t, connect.ModeEmbedded, m.Chain.Mode)
	require.Equal(t, ch.Genesis.Hex(), m.Genesis)
	return m, l
}

// requireRecordedHead: the last chain head the log recorded before the
// backup is a block of the restored chain, with the same hash.
func requireRecordedHead(t *testing.T, ctx context.Context, e *actors.Engine, ch *connect.Chain) {
	t.Helper()
	head, err := e.Meta(metaChainHead)
	require.NoError(t, err)
	num, hash, ok := strings.Cut(head, ":")
	require.True(t, ok, "a chain head was recorded before the backup: %q", head)
	n, err := strconv.ParseUint(num, 10, 64)
	require.NoError(t, err)
	requireChainAt(t, ctx, ch, n, common.HexToHash(hash))
}

// requireExactPrefix: the restored contacts are exactly the writes of the
// log prefix 1..last: each acknowledged at or below it present once, none
// above it, nothing never acknowledged.
func requireExactPrefix(t *testing.T, e *actors.Engine, l *load, last uint64) {
	t.Helper()
	present := map[string]int{}
	for _, acct := range l.accts {
		for name, n := range contactNames(t, e, acct) {
			present[acct+"/"+name] += n
		}
	}
	before, after := 0, 0
	for _, a := range l.acked {
		key := a.acct + "/" + a.name
		switch {
		case a.hi <= last:
			require.Equal(t, 1, present[key], "write %s (index ≤ %d) acknowledged before L=%d", key, a.hi, last)
			before++
		case a.lo > last:
			require.Zero(t, present[key], "write %s (index ≥ %d) came after L=%d", key, a.lo, last)
			after++
		}
		delete(present, key)
	}
	require.Empty(t, present, "contacts that were never acknowledged")
	require.Positive(t, before)
	require.Positive(t, after)
}

// contactNames lists every contact of acct: name → how many carry it.
func contactNames(t *testing.T, e *actors.Engine, acct string) map[string]int {
	t.Helper()
	names := map[string]int{}
	after := ""
	for {
		r, err := e.Ask(context.Background(), acct, domain.ListContacts{Page: domain.Page{Limit: 200, StartingAfter: after}})
		require.NoError(t, err)
		var page struct {
			Data    []struct{ ID, Name string }
			HasMore bool `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &page))
		for _, c := range page.Data {
			names[c.Name]++
			after = c.ID
		}
		if !page.HasMore {
			return names
		}
	}
}

// requireChainAt: the chain has block number with exactly that hash.
func requireChainAt(t *testing.T, ctx context.Context, ch *connect.Chain, number uint64, hash common.Hash) {
	t.Helper()
	h, err := ch.Client.HeaderByNumber(ctx, new(big.Int).SetUint64(number))
	require.NoError(t, err, "block %d", number)
	require.Equal(t, hash, h.Hash(), "block %d", number)
}

// requireNoSecrets: no token, address file or key file under dir.
func requireNoSecrets(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		require.False(t, secret(d.Name()), "%s is in %s", p, dir)
		return nil
	}))
}
