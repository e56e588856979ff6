package cluster

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/jslog"
)

// The relay journal (DESIGN.md: the relayer logs "nonce n, raw tx" on the
// system stream before it broadcasts, and a new leader re-broadcasts what
// is pending).
const (
	// RelayStream is the journal's stream; its leader runs the relayer.
	RelayStream  = "FXD_RELAY"
	relaySubject = "fxd.relay.journal"
	// relayJournalMax bounds the journal: the newest messages are kept.
	// It is far above what can be pending at once (relay.DefaultMaxInFlight
	// transactions, each sent again at most a few times), so what a new
	// leader reads back covers everything not mined.
	relayJournalMax = 4096
	// relayNonceHeader carries a message's nonce.
	relayNonceHeader = "Fxd-Nonce"
	// relayPublishTimeout bounds one record.
	relayPublishTimeout = 5 * time.Second
)

// RelayJournal is the relay journal on RelayStream (relay.Journal): every
// record is fenced on the last sequence this writer knows, so a relayer
// deposed by a new stream leader can no longer record, and so no longer
// broadcast. It is not safe for concurrent use; the relayer records under
// its send lock.
type RelayJournal struct {
	js      jetstream.JetStream
	stream  jetstream.Stream
	lastSeq uint64
	deposed atomic.Bool // a record was fenced: another relayer recorded
}

// Deposed reports whether a record was fenced: another relayer recorded
// after this journal's last record, so this one records nothing more.
func (j *RelayJournal) Deposed() bool { return j.deposed.Load() }

// OpenRelayJournal binds RelayStream (created on first use with replicas
// copies, file storage, the newest relayJournalMax messages kept) and
// learns its last sequence.
func OpenRelayJournal(ctx context.Context, js jetstream.JetStream, replicas int) (*RelayJournal, error) {
	cfg := jetstream.StreamConfig{Name: RelayStream, Description: "fxd relay journal: signed transactions before broadcast",
		Subjects: []string{relaySubject}, Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage,
		Replicas: replicas, MaxMsgs: relayJournalMax, Discard: jetstream.DiscardOld, DenyDelete: true}
	stream, err := js.Stream(ctx, RelayStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		stream, err = js.CreateStream(ctx, cfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			stream, err = js.Stream(ctx, RelayStream)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: relay journal: %w", err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: relay journal: %w", err)
	}
	if got := info.Config; got.Storage != jetstream.FileStorage || got.PersistMode == jetstream.AsyncPersistMode {
		return nil, fmt.Errorf("cluster: relay journal: stream %s is not file storage persisted before its acks", RelayStream)
	}
	return &RelayJournal{js: js, stream: stream, lastSeq: info.State.LastSeq}, nil
}

// Record appends raw with its nonce, durably on a quorum, fenced.
func (j *RelayJournal) Record(ctx context.Context, nonce uint64, raw []byte) error {
	ctx, cancel := context.WithTimeout(ctx, relayPublishTimeout)
	defer cancel()
	msg := &nats.Msg{Subject: relaySubject, Header: nats.Header{relayNonceHeader: []string{strconv.FormatUint(nonce, 10)}}, Data: raw}
	ack, err := j.js.PublishMsg(ctx, msg, jetstream.WithExpectLastSequence(j.lastSeq), jetstream.WithExpectStream(RelayStream))
	switch {
	case jslog.Fenced(err):
		j.deposed.Store(true)
		return fmt.Errorf("cluster: relay journal: another relayer recorded after sequence %d (this one is deposed): %w", j.lastSeq, err)
	case err != nil:
		// Outcome unknown: the record may be stored. Nothing is broadcast;
		// the next record's fence fails if it was, and a new journal
		// (a new leader) reads it back and sends it again.
		return fmt.Errorf("cluster: relay journal: record nonce %d: %w", nonce, err)
	}
	j.lastSeq = ack.Sequence
	return nil
}

// Latest reads the journal back: by nonce, the raw transaction recorded
// last (relay.Rebroadcast's input).
func (j *RelayJournal) Latest(ctx context.Context) (map[uint64][]byte, error) {
	info, err := j.stream.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: relay journal: %w", err)
	}
	out := map[uint64][]byte{}
	st := info.State
	if st.Msgs == 0 {
		return out, nil
	}
	cons, err := j.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		return nil, fmt.Errorf("cluster: relay journal: read: %w", err)
	}
	// Exactly what is left per fetch: a fetch asking for more waits its
	// whole max wait for messages that will not come.
	for got := uint64(0); got < st.Msgs; {
		batch, err := cons.Fetch(int(min(256, st.Msgs-got)), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			return nil, fmt.Errorf("cluster: relay journal: read: %w", err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			meta, err := m.Metadata()
			if err != nil {
				return nil, fmt.Errorf("cluster: relay journal: read: %w", err)
			}
			nonce, err := strconv.ParseUint(m.Headers().Get(relayNonceHeader), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("cluster: relay journal: sequence %d: bad nonce header: %w", meta.Sequence.Stream, err)
			}
			out[nonce] = m.Data()
		}
		if err := batch.Error(); err != nil {
			return nil, fmt.Errorf("cluster: relay journal: read: %w", err)
		}
		if n == 0 {
			return nil, fmt.Errorf("cluster: relay journal: read stopped after %d of %d messages", got, st.Msgs)
		}
		got += uint64(n)
	}
	return out, nil
}
