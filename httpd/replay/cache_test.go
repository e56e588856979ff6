package replay

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// t0 is an arbitrary unix second.
const t0 = int64(1_795_000_000)

func sigOf(n uint64) *[SigSize]byte {
	var s [SigSize]byte
	binary.LittleEndian.PutUint64(s[:], n)
	binary.LittleEndian.PutUint64(s[56:], ^n)
	return &s
}

func TestRememberOnce(t *testing.T) {
	c := New(60*time.Second, 100)
	fresh, err := c.Remember(sigOf(1), t0, t0)
	require.NoError(t, err)
	require.True(t, fresh)

	tests := []struct {
		name  string
		sig   uint64
		ts    int64
		now   int64
		fresh bool
	}{
		{"same signature, same time", 1, t0, t0, false},
		{"same signature, later", 1, t0, t0 + 59, false},
		{"other signature", 2, t0, t0 + 1, true},
	}
	for _, tc := range tests {
		fresh, err := c.Remember(sigOf(tc.sig), tc.ts, tc.now)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.fresh, fresh, tc.name)
	}
	require.Equal(t, 2, c.Len())
}

func TestWindowBounds(t *testing.T) {
	tests := []struct {
		name string
		ts   int64
		err  error
	}{
		{"oldest accepted", t0 - 59, nil},
		{"expired", t0 - 60, ErrOutOfWindow},
		{"newest accepted", t0 + 60, nil},
		{"too far ahead", t0 + 61, ErrOutOfWindow},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := New(60*time.Second, 10)
			fresh, err := c.Remember(sigOf(uint64(i)), tc.ts, t0)
			require.ErrorIs(t, err, tc.err)
			require.Equal(t, tc.err == nil, fresh)
		})
	}
}

func TestExpiry(t *testing.T) {
	c := New(60*time.Second, 10)
	_, err := c.Remember(sigOf(1), t0, t0)
	require.NoError(t, err)
	_, err = c.Remember(sigOf(2), t0+30, t0) // future-dated: lives until t0+90
	require.NoError(t, err)

	fresh, err := c.Remember(sigOf(3), t0+1, t0+59)
	require.NoError(t, err)
	require.True(t, fresh)
	require.Equal(t, 3, c.Len(), "nothing has expired at t0+59")

	// At t0+60 sig 1 (ts t0) is gone; presenting it again with its own
	// timestamp is out of window, which the freshness check refuses anyway.
	fresh, err = c.Remember(sigOf(1), t0, t0+60)
	require.ErrorIs(t, err, ErrOutOfWindow)
	require.False(t, fresh)
	require.Equal(t, 2, c.Len())

	fresh, err = c.Remember(sigOf(2), t0+30, t0+89)
	require.NoError(t, err)
	require.False(t, fresh, "future-dated signature remembered until ts+window")
}

func TestFull(t *testing.T) {
	c := New(60*time.Second, 3)
	for i := uint64(0); i < 3; i++ {
		fresh, err := c.Remember(sigOf(i), t0+int64(i), t0+int64(i))
		require.NoError(t, err)
		require.True(t, fresh)
	}
	fresh, err := c.Remember(sigOf(9), t0+3, t0+3)
	require.ErrorIs(t, err, ErrFull)
	require.False(t, fresh)
	require.Equal(t, 3, c.Len(), "never grows beyond maxEntries")

	// A replay is still reported as a replay when full.
	fresh, err = c.Remember(sigOf(1), t0+1, t0+3)
	require.NoError(t, err)
	require.False(t, fresh)

	// At t0+60 the first expires and frees a place.
	fresh, err = c.Remember(sigOf(9), t0+60, t0+60)
	require.NoError(t, err)
	require.True(t, fresh)
	require.Equal(t, 3, c.Len())
}

func TestTimeNeverRunsBackwards(t *testing.T) {
	c := New(60*time.Second, 10)
	_, err := c.Remember(sigOf(1), t0+100, t0+100)
	require.NoError(t, err)
	// now from the past is taken as t0+100: ts t0+10 is out of window there.
	_, err = c.Remember(sigOf(2), t0+10, t0)
	require.ErrorIs(t, err, ErrOutOfWindow)
	fresh, err := c.Remember(sigOf(1), t0+100, t0)
	require.NoError(t, err)
	require.False(t, fresh)
}

func TestLongIdleGapClearsAll(t *testing.T) {
	c := New(60*time.Second, 100)
	for i := uint64(0); i < 50; i++ {
		_, err := c.Remember(sigOf(i), t0+int64(i%60)-30, t0)
		require.NoError(t, err)
	}
	require.Equal(t, 50, c.Len())
	fresh, err := c.Remember(sigOf(1000), t0+10_000, t0+10_000)
	require.NoError(t, err)
	require.True(t, fresh)
	require.Equal(t, 1, c.Len())
	checkInvariants(t, c)
}

func TestWindowRoundsUpToSeconds(t *testing.T) {
	c := New(1500*time.Millisecond, 10)
	require.Equal(t, int64(2), c.windowSec)
}

func TestNewPanicsOnBadConfig(t *testing.T) {
	require.Panics(t, func() { New(0, 10) })
	require.Panics(t, func() { New(MaxWindow+time.Second, 10) })
	require.Panics(t, func() { New(time.Minute, 0) })
	require.Panics(t, func() { New(time.Minute, MaxEntries+1) })
}

func TestSharding(t *testing.T) {
	small := New(time.Minute, 2000)
	require.Len(t, small.shards, 1)
	require.Equal(t, 2000, small.Cap())

	big := New(time.Minute, 1_000_000)
	require.Len(t, big.shards, 64)
	require.LessOrEqual(t, big.Cap(), 1_000_000)
	require.Greater(t, big.Cap(), 1_000_000-64)
}

// TestMatchesReference drives random sequences (signatures from a small
// pool, so replays are frequent; a small capacity, so ErrFull is too)
// against a plain map and requires the same answers and size throughout.
func TestMatchesReference(t *testing.T) {
	for seed := uint64(0); seed < 4; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		const window, max = 10, 40
		c := New(window*time.Second, max)
		ref := map[uint64]int64{} // sig → expiry
		now := t0
		for step := 0; step < 50_000; step++ {
			if rng.IntN(8) == 0 {
				now += rng.Int64N(4)
			}
			if rng.IntN(2000) == 0 {
				now += 100 // a gap longer than the ring
			}
			sig := rng.Uint64N(200)
			ts := now + rng.Int64N(2*window+5) - window - 2

			for k, exp := range ref {
				if exp <= now {
					delete(ref, k)
				}
			}
			var wantFresh bool
			var wantErr error
			switch _, seen := ref[sig]; {
			case ts <= now-window || ts > now+window:
				wantErr = ErrOutOfWindow
			case seen:
			case len(ref) == max:
				wantErr = ErrFull
			default:
				wantFresh = true
				ref[sig] = ts + window
			}

			fresh, err := c.Remember(sigOf(sig), ts, now)
			require.Equal(t, wantErr, err, "seed %d step %d", seed, step)
			require.Equal(t, wantFresh, fresh, "seed %d step %d", seed, step)
			require.Equal(t, len(ref), c.Len(), "seed %d step %d", seed, step)
			if step%997 == 0 {
				checkInvariants(t, c)
			}
		}
		checkInvariants(t, c)
	}
}

func TestConcurrentEachSignatureFreshOnce(t *testing.T) {
	c := New(time.Minute, 200_000)
	const workers, sigs = 8, 5000
	var fresh [sigs]int32
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < sigs; i++ {
				ok, err := c.Remember(sigOf(uint64(i)), t0, t0+int64(i%3))
				if err != nil {
					panic(err)
				}
				if ok {
					mu.Lock()
					fresh[i]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for i, n := range fresh {
		require.Equal(t, int32(1), n, "signature %d", i)
	}
	require.Equal(t, sigs, c.Len())
	checkInvariants(t, c)
}

func TestSteadyStateZeroAlloc(t *testing.T) {
	c := New(time.Minute, 10_000)
	now, n := t0, uint64(0)
	step := func() {
		n++
		if n%50 == 0 {
			now++
		}
		if _, err := c.Remember(sigOf(n), now, now); err != nil {
			panic(err)
		}
	}
	for i := 0; i < 20_000; i++ { // fill the slab to its working size
		step()
	}
	require.Zero(t, testing.AllocsPerRun(10_000, step))
}

// checkInvariants verifies shard.go's invariants.
func checkInvariants(t *testing.T, c *Cache) {
	t.Helper()
	for si := range c.shards {
		s := &c.shards[si]
		s.mu.Lock()
		inSlots := 0
		for pos, i := range s.slots {
			if i == empty {
				continue
			}
			inSlots++
			e := &s.entries[i]
			// No empty slot between its home and its slot.
			for p := e.home; p != uint32(pos); p = (p + 1) & s.mask {
				require.NotEqual(t, empty, s.slots[p], "hole on a probe path")
			}
			got, found := s.find(&e.sig, e.home)
			require.True(t, found)
			require.Equal(t, uint32(pos), got)
		}
		inBuckets := 0
		for b, i := range s.buckets {
			for ; i != empty; i = s.entries[i].next {
				inBuckets++
				_ = b
			}
		}
		free := 0
		for i := s.free; i != empty; i = s.entries[i].next {
			free++
		}
		require.Equal(t, s.live, inSlots)
		require.Equal(t, s.live, inBuckets)
		require.Equal(t, len(s.entries), s.live+free)
		require.LessOrEqual(t, s.live, s.capacity)
		require.LessOrEqual(t, len(s.entries), s.capacity)
		s.mu.Unlock()
	}
}

func BenchmarkRemember(b *testing.B) {
	// Steady state of a 60 s window at a given accepted-request rate: the
	// cache is warmed for 2 windows first, so the slab has its working size
	// and every new entry reuses an expired one.
	for _, perSec := range []uint64{1_000, 10_000} {
		b.Run(fmt.Sprintf("%d_per_s", perSec), func(b *testing.B) {
			c := New(time.Minute, int(perSec)*130)
			now, n := t0, uint64(0)
			step := func() {
				n++
				if n%perSec == 0 {
					now++
				}
				if _, err := c.Remember(sigOf(n), now, now); err != nil {
					b.Fatal(err)
				}
			}
			for i := uint64(0); i < 120*perSec; i++ {
				step()
			}
			b.ReportAllocs()
			for b.Loop() {
				step()
			}
		})
	}
}

func BenchmarkRememberParallel(b *testing.B) {
	// Every goroutine adds perG signatures per simulated second; warm at
	// the same total rate so the slab is at its working size.
	const perG = 2_500
	total := uint64(perG * runtime.GOMAXPROCS(0))
	c := New(time.Minute, int(total)*130)
	for i := uint64(0); i < 120*total; i++ {
		now := t0 + int64(i/total)
		if _, err := c.Remember(sigOf(1<<63|i), now, now); err != nil {
			b.Fatal(err)
		}
	}
	var ctr sync.Mutex
	next := uint64(0)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ctr.Lock()
		base := next << 40
		next++
		ctr.Unlock()
		n := uint64(0)
		for pb.Next() {
			n++
			now := t0 + 120 + int64(n/perG)
			if _, err := c.Remember(sigOf(base|n), now, now); err != nil {
				b.Fatal(err)
			}
		}
	})
}
