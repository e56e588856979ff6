package domain

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// KindClaim is the registry of on-chain logs that confirmed a record: one
// entity per transaction hash, so "one transaction log confirms at most one
// transfer, ever" (CONTRACT.md) holds across every account without one
// account's entity reading another's state. Its id is ClaimID(tx hash).
const KindClaim Kind = 5

// NumKinds bounds the kind numbers (hosts size per-kind tables by it).
const NumKinds = int(KindEvent) + 1

// ClaimID is the id of the claim entity of a transaction.
func ClaimID(txHash string) string { return "txc_" + strings.TrimPrefix(strings.ToLower(txHash), "0x") }

// Claim is one log of a transaction, claimed by the record it confirmed.
type Claim struct {
	TxHash   string // lower-case 0x hex
	LogIndex uint64
	By       string // the record (tr_…) the log confirmed
	At       time.Time
}

// ClaimLog asks the claim entity of TxHash to give log LogIndex to record
// By: granted once, ever; granted again to the same record (a retry after a
// crash between the claim and the record's own write); 409 tx_already_used
// for anyone else.
//
// With Probe it claims nothing (LogIndex is ignored): it asks whether any
// log of the transaction confirmed a record other than By, and answers 409
// tx_already_used if so. A submit whose transaction pays nothing the
// record asks for, but which already confirmed another record, is "a hash
// already used" (CONTRACT.md), not one that was never a payment.
type ClaimLog struct {
	TxHash   string
	LogIndex uint64
	By       string
	Probe    bool `json:",omitempty"`
}

func (ClaimLog) Target() Kind { return KindClaim }

// ClaimState is the claims of one transaction, by log index.
type ClaimState struct {
	Claims map[uint64]*Claim
}

// NewClaimState returns a transaction with no claimed log.
func NewClaimState() *ClaimState { return &ClaimState{Claims: map[uint64]*Claim{}} }

// ClaimedBy returns the record that holds log i ("" if none).
func (s *ClaimState) ClaimedBy(i uint64) string {
	if c := s.Claims[i]; c != nil {
		return c.By
	}
	return ""
}

// Handle decides a claim; claims take no Idempotency-Key (the host asks).
func (s *ClaimState) Handle(req Request, env Env) Outcome {
	c, ok := req.Cmd.(ClaimLog)
	if !ok {
		panic(fmt.Sprintf("domain: decide of unknown claim command %T", req.Cmd))
	}
	h, err := normTxHash("tx_hash", c.TxHash)
	if err != nil {
		return Outcome{Reply: err.Reply(), Err: err}
	}
	switch by := s.ClaimedBy(c.LogIndex); {
	case c.By == "":
		e := ErrInvalid("a claim needs a record")
		return Outcome{Reply: e.Reply(), Err: e}
	case c.Probe:
		return s.probe(h, c.By)
	case by == c.By:
		return Outcome{Reply: jsonReply(200, struct{}{})}
	case by != "":
		e := ErrTxAlreadyUsed("transaction %s log %d already confirmed another record", h, c.LogIndex)
		return Outcome{Reply: e.Reply(), Err: e}
	}
	claim := &Claim{TxHash: h, LogIndex: c.LogIndex, By: c.By, At: env.Now}
	return Outcome{Events: []Event{{Kind: EvClaimPut, Claim: claim}}, Reply: jsonReply(200, struct{}{})}
}

// probe answers ClaimLog.Probe: 409 if a log of the transaction confirmed
// a record other than by, with the lowest such log named (map order must
// not choose the message).
func (s *ClaimState) probe(h, by string) Outcome {
	var other *Claim
	for _, c := range s.Claims {
		if c.By != by && (other == nil || c.LogIndex < other.LogIndex) {
			other = c
		}
	}
	if other == nil {
		return Outcome{Reply: jsonReply(200, struct{}{})}
	}
	e := ErrTxAlreadyUsed("transaction %s log %d already confirmed another record", h, other.LogIndex)
	return Outcome{Reply: e.Reply(), Err: e}
}

// Apply records a claim; a second claim of one log is a broken invariant.
func (s *ClaimState) Apply(e *Event) {
	if e.Kind != EvClaimPut {
		panic(fmt.Sprintf("domain: apply of event kind %s to a claim", e.Kind))
	}
	if by := s.ClaimedBy(e.Claim.LogIndex); by != "" && by != e.Claim.By {
		panic(fmt.Sprintf("domain: log %s/%d claimed by %s and %s", e.Claim.TxHash, e.Claim.LogIndex, by, e.Claim.By))
	}
	s.Claims[e.Claim.LogIndex] = e.Claim
}

// InFlight is false: claims take no Idempotency-Key.
func (s *ClaimState) InFlight(Entity, string, time.Time) bool { return false }

// Clone copies the map; claims are immutable.
func (s *ClaimState) Clone() Entity {
	c := NewClaimState()
	for k, v := range s.Claims {
		c.Claims[k] = v
	}
	return c
}

// Exists reports whether any log of the transaction is claimed.
func (s *ClaimState) Exists() bool { return len(s.Claims) > 0 }

// MarshalClaim encodes a claim; field numbers are the format.
func MarshalClaim(dst []byte, c *Claim) []byte {
	dst = appendString(dst, 1, c.TxHash)
	dst = appendUint(dst, 2, c.LogIndex)
	dst = appendString(dst, 3, c.By)
	return appendTime(dst, 4, c.At)
}

// UnmarshalClaim decodes a claim; it never panics on bad input.
func UnmarshalClaim(b []byte) (*Claim, error) {
	c := &Claim{}
	err := walk(b, func(num protowire.Number, v value) error {
		switch num {
		case 1:
			c.TxHash = string(v.b)
		case 2:
			c.LogIndex = v.u
		case 3:
			c.By = string(v.b)
		case 4:
			c.At = v.time()
		}
		return nil
	})
	if err == nil && (c.TxHash == "" || c.By == "") {
		err = fmt.Errorf("%w: claim without tx hash or record", errCodec)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ClaimKey is the store key suffix of a claim: the log index, zero-padded
// so claims scan in index order.
func ClaimKey(i uint64) string {
	s := strconv.FormatUint(i, 10)
	return strings.Repeat("0", 20-len(s)) + s
}
