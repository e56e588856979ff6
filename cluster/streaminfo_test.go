package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/natsnode/natstest"
)

// A stream whose info request goes unanswered (its leader being elected)
// holds a read slot for at most `each`, so the streams after it are read
// within the caller's deadline. Before, `fxd cluster status` read stream
// after stream under the admin request's 10 s alone: the first stream
// without a leader used them up and the whole status failed (503), as
// TestClusterFailover saw right after a kill.
func TestStreamInfosBoundEachRead(t *testing.T) {
	ns, err := natstest.StartJetStream(t.TempDir(), "stream-infos")
	require.NoError(t, err)
	t.Cleanup(ns.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = ns.JS.CreateStream(ctx, jetstream.StreamConfig{Name: "LIVE", Subjects: []string{"live"}})
	require.NoError(t, err)

	// A JetStream API in front of the real one that never answers for the
	// streams named ELECTING…, as JetStream does while their leader is
	// elected, and passes every other request through.
	const prefix = "ELECTION.API."
	sub, err := ns.Conn.Subscribe(prefix+"STREAM.INFO.*", func(m *nats.Msg) {
		name := strings.TrimPrefix(m.Subject, prefix+"STREAM.INFO.")
		if strings.HasPrefix(name, "ELECTING") {
			return
		}
		if r, err := ns.Conn.Request(jetstream.DefaultAPIPrefix+"STREAM.INFO."+name, m.Data, 5*time.Second); err == nil {
			_ = m.Respond(r.Data)
		}
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	js, err := jetstream.NewWithAPIPrefix(ns.Conn, prefix)
	require.NoError(t, err)

	var names []string
	for i := range 2 * placementReads {
		names = append(names, fmt.Sprintf("ELECTING%02d", i))
	}
	names = append(names, "LIVE")
	infos := streamInfos(ctx, js, names, 100*time.Millisecond)
	for i, info := range infos[:len(infos)-1] {
		require.Nil(t, info, names[i])
	}
	live := infos[len(infos)-1]
	require.NotNil(t, live, "read after every slot waited on an unanswered stream")
	require.Equal(t, "LIVE", live.Config.Name)
	require.NoError(t, ctx.Err())
}
