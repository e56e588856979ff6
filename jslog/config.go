package jslog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Defaults for the zero values of Config.
const (
	DefaultReplicas       = 3
	DefaultMaxQueue       = 65536
	DefaultMaxQueueBytes  = 256 << 20
	DefaultMaxBatch       = 4096
	DefaultMaxBatchBytes  = 4 << 20
	DefaultPublishTimeout = 10 * time.Second
	DefaultRequestTimeout = 10 * time.Second
)

// headerRoom is what a message's headers take of the server's max_payload
// (NATS counts headers and data together), beyond the stream's name: the
// status line and our two headers plus the expected-last-sequence and
// expected-stream headers, each at most a few dozen bytes.
const headerRoom = 512

// publishRetryWait is the pause before a publish that found no responder
// (no stream leader: an election) is sent again. Such a message reached no
// stream, so resending it cannot store it twice; the fence would refuse a
// second copy anyway.
const publishRetryWait = 100 * time.Millisecond

// Config names the stream and bounds the log's queue and batches. Zero
// values take the defaults.
type Config struct {
	// Stream is the JetStream stream holding the log, one per partition.
	// Required.
	Stream string
	// Subject is the stream's only subject. Default "fxd.log.<Stream>".
	Subject string
	// Replicas of a stream Open creates. Default 3 (production); a single
	// node takes 1. A bound stream keeps its own (a difference is logged).
	Replicas int
	// MaxQueue is the most appends that may wait for the writer; beyond it
	// Append and Enqueue return ErrQueueFull. Default 65536.
	MaxQueue int
	// MaxQueueBytes is the most payload bytes that may wait; beyond it
	// ErrQueueFull (a payload is always accepted into an empty queue).
	// Default 256 MiB.
	MaxQueueBytes int64
	// MaxBatch is the most entries in one message. Default 4096.
	MaxBatch int
	// MaxBatchBytes is the most frame bytes in one message, lowered to
	// what the server's max_payload leaves room for; a single larger
	// entry is a message of its own. Default 4 MiB.
	MaxBatchBytes int
	// PublishTimeout bounds one message's wait for its PubAck (an election
	// included); past it the outcome is unknown and the log fails.
	// Default 10 s.
	PublishTimeout time.Duration
	// RequestTimeout bounds each read and purge request. Default 10 s.
	RequestTimeout time.Duration
}

func (c Config) withDefaults() (Config, error) {
	if c.Stream == "" {
		return c, errors.New("config: Stream is required")
	}
	if c.Subject == "" {
		c.Subject = "fxd.log." + c.Stream
	}
	if c.Replicas <= 0 {
		c.Replicas = DefaultReplicas
	}
	if c.MaxQueue <= 0 {
		c.MaxQueue = DefaultMaxQueue
	}
	if c.MaxQueueBytes <= 0 {
		c.MaxQueueBytes = DefaultMaxQueueBytes
	}
	if c.MaxBatch <= 0 {
		c.MaxBatch = DefaultMaxBatch
	}
	if c.MaxBatchBytes <= 0 {
		c.MaxBatchBytes = DefaultMaxBatchBytes
	}
	if c.PublishTimeout <= 0 {
		c.PublishTimeout = DefaultPublishTimeout
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	return c, nil
}

// streamConfig is the stream Open creates: file storage, every write
// persisted before its PubAck (DefaultPersistMode), no limit that would
// let the server drop a message, no deletes of single messages (a gap),
// purges allowed (TruncateFront), reads answered by the leader (no
// AllowDirect).
func (c Config) streamConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        c.Stream,
		Description: "fxd partition log",
		Subjects:    []string{c.Subject},
		Retention:   jetstream.LimitsPolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    c.Replicas,
		PersistMode: jetstream.DefaultPersistMode,
		Discard:     jetstream.DiscardOld,
		DenyDelete:  true,
	}
}

// checkStream refuses a stream the log cannot be durable or consistent on.
// Durability: memory storage or AsyncPersistMode acknowledge writes that
// are not on disk. Keeping every message: limits, TTLs, rollups, mirrors
// and sources let the server drop, replace or add messages behind the
// log's back, and DenyPurge would stop TruncateFront. Consistency: direct
// gets may be answered by a follower that lags, so a read could miss an
// acknowledged entry. Subjects: the stream must hold our subject and no
// other, so that every message in it is ours.
func checkStream(got jetstream.StreamConfig, c Config) error {
	var bad []string
	add := func(cond bool, why string) {
		if cond {
			bad = append(bad, why)
		}
	}
	add(got.Storage != jetstream.FileStorage, "storage is "+got.Storage.String()+", not file")
	add(got.PersistMode == jetstream.AsyncPersistMode, "persist mode is async (acknowledged writes may not be on disk)")
	add(!slices.Equal(got.Subjects, []string{c.Subject}), fmt.Sprintf("subjects are %q, want only %q", got.Subjects, c.Subject))
	add(got.Retention != jetstream.LimitsPolicy, "retention is "+got.Retention.String()+", not limits")
	add(got.MaxMsgs > 0 || got.MaxBytes > 0 || got.MaxAge > 0 || got.MaxMsgsPerSubject > 0, "a limit (max msgs, bytes, age or per subject) would drop messages")
	add(got.AllowMsgTTL, "message TTLs would drop messages")
	add(got.AllowRollup, "rollups would drop messages")
	add(got.Mirror != nil || len(got.Sources) > 0, "a mirror or sources would add messages")
	add(got.Sealed, "sealed")
	add(got.DenyPurge, "deny purge (TruncateFront purges)")
	add(got.AllowDirect, "allow direct (a lagging follower may answer reads)")
	add(got.NoAck, "no ack")
	if len(bad) > 0 {
		return fmt.Errorf("stream %s refused: %s", got.Name, strings.Join(bad, "; "))
	}
	return nil
}
