package cluster

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// placementReads bounds the stream info requests in flight at once (the
// balancer's rounds, the operator's status).
const placementReads = 8

// streamInfos reads the info of each named stream, placementReads at a
// time, each request bounded by each (and by ctx). A stream whose info
// does not come (its leader being elected, a replica moving, ctx ended)
// is nil in the answer: the callers show or plan around it instead of
// failing for it. One request per stream: Stream fetches the info.
func streamInfos(ctx context.Context, js jetstream.JetStream, names []string, each time.Duration) []*jetstream.StreamInfo {
	out := make([]*jetstream.StreamInfo, len(names))
	var wg sync.WaitGroup
	slots := make(chan struct{}, placementReads)
	for i, name := range names {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			ctx, cancel := context.WithTimeout(ctx, each)
			defer cancel()
			if s, err := js.Stream(ctx, name); err == nil {
				out[i] = s.CachedInfo()
			}
		}()
	}
	wg.Wait()
	return out
}
