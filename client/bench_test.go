package client

import (
	"context"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// BenchmarkDo measures a signed round trip over loopback to a server that
// does not verify (so the number is the client's cost plus the network).
func BenchmarkDo(b *testing.B) {
	base := serve(b, &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		ctx.SetBodyString(`{"ok":true}`)
	}})
	priv, _ := testKey()
	c, err := New(base, "svc_test_bench", priv, WithMaxConns(16), WithTimeout(5*time.Second))
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"from_currency":"USDC","to_currency":"EURC","amount":"100"}`)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := c.Do(context.Background(), "POST", "/public/v1/fx/quotes", body, nil)
			if err != nil || resp.Status != 200 {
				b.Fatal(err)
			}
		}
	})
}
