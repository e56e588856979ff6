package bench

import (
	"flag"
	"strconv"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/httpd/ratelimit"
)

// MicroResult is one testing.Benchmark result.
type MicroResult struct {
	Name        string  `json:"name"`
	N           int     `json:"n"`
	NsPerOp     float64 `json:"ns_per_op"`
	AllocsPerOp int64   `json:"allocs_per_op"`
	BytesPerOp  int64   `json:"bytes_per_op"`
	// Target says whether the row carries the ≤200 ns, 0 allocs target.
	Target bool `json:"target"`
}

// SetBenchTime sets the run time of testing.Benchmark (the -test.benchtime
// flag), registering the testing flags first outside `go test`.
func SetBenchTime(d time.Duration) {
	if flag.Lookup("test.benchtime") == nil {
		testing.Init()
	}
	_ = flag.Set("test.benchtime", d.String())
}

// t0 is an arbitrary instant on a whole second (unix nanoseconds).
const rlT0 = int64(1_795_000_000) * int64(time.Second)

// RunRateLimit measures ratelimit.Limiter.Allow with testing.Benchmark.
func RunRateLimit() []MicroResult {
	lim := ratelimit.DefaultLimits
	cases := []struct {
		name   string
		target bool
		fn     func(b *testing.B)
	}{
		{"Limiter.Allow read, admitted (window full, sliding)", true, func(b *testing.B) {
			l := ratelimit.New(lim)
			// One request every window/limit: once the window is full each
			// call expires the oldest admission and admits itself.
			step := int64(lim.Window) / int64(lim.Read)
			now := rlT0
			for range lim.Read {
				l.Allow(now, ratelimit.Read)
				now += step
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if !l.Allow(now, ratelimit.Read).Allowed {
					b.Fatal("refused")
				}
				now += step
			}
		}},
		{"Limiter.Allow read, refused (over limit)", true, func(b *testing.B) {
			l := ratelimit.New(lim)
			for range lim.Read {
				l.Allow(rlT0, ratelimit.Read)
			}
			now := rlT0
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if l.Allow(now, ratelimit.Read).Allowed {
					b.Fatal("admitted")
				}
				now++
			}
		}},
		{"Limiter.Allow heavy (heavy and write windows)", true, func(b *testing.B) {
			l := ratelimit.New(lim)
			step := int64(lim.Window) / int64(lim.Heavy)
			now := rlT0
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if !l.Allow(now, ratelimit.Heavy).Allowed {
					b.Fatal("refused")
				}
				now += step
			}
		}},
		{"PerKey.Allow, 1000 keys, parallel", false, func(b *testing.B) {
			p := ratelimit.NewPerKey(lim)
			ids := make([][]byte, 1000)
			for i := range ids {
				ids[i] = []byte("svc_test_" + strconv.Itoa(100000+i))
				p.Allow(ids[i], rlT0, ratelimit.Read)
			}
			step := int64(lim.Window) / int64(lim.Read)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				now, i := rlT0, 0
				for pb.Next() {
					p.Allow(ids[i%len(ids)], now, ratelimit.Read)
					i++
					now += step
				}
			})
		}},
	}
	out := make([]MicroResult, 0, len(cases))
	for _, c := range cases {
		r := testing.Benchmark(c.fn)
		out = append(out, MicroResult{Name: c.name, N: r.N, NsPerOp: float64(r.T.Nanoseconds()) / float64(max(r.N, 1)),
			AllocsPerOp: r.AllocsPerOp(), BytesPerOp: r.AllocedBytesPerOp(), Target: c.target})
	}
	return out
}
