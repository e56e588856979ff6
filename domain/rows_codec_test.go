package domain

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The entity rows' decoders (transfer, payment link, claim, ledger entry,
// webhook endpoint, webhook event) share one fuzz target: the first byte picks the decoder, the rest is
// its input. Whatever decodes must re-encode to bytes that decode to the
// same row.
var rowCodecs = []struct {
	name      string
	roundTrip func(b []byte) (ok bool, enc, enc2 []byte, err error)
}{
	{"transfer", func(b []byte) (bool, []byte, []byte, error) {
		v, err := UnmarshalTransfer(b)
		if err != nil {
			return false, nil, nil, err
		}
		enc := MarshalTransfer(nil, v)
		v2, err := UnmarshalTransfer(enc)
		if err != nil {
			return true, enc, nil, err
		}
		_ = ViewTransfer(v)
		return true, enc, MarshalTransfer(nil, v2), nil
	}},
	{"link", func(b []byte) (bool, []byte, []byte, error) {
		v, err := UnmarshalLink(b)
		if err != nil {
			return false, nil, nil, err
		}
		enc := MarshalLink(nil, v)
		v2, err := UnmarshalLink(enc)
		if err != nil {
			return true, enc, nil, err
		}
		_, _ = ViewLink(v), v.Ledger()
		return true, enc, MarshalLink(nil, v2), nil
	}},
	{"claim", func(b []byte) (bool, []byte, []byte, error) {
		v, err := UnmarshalClaim(b)
		if err != nil {
			return false, nil, nil, err
		}
		enc := MarshalClaim(nil, v)
		v2, err := UnmarshalClaim(enc)
		if err != nil {
			return true, enc, nil, err
		}
		return true, enc, MarshalClaim(nil, v2), nil
	}},
	{"endpoint", func(b []byte) (bool, []byte, []byte, error) {
		v, err := UnmarshalEndpoint(b)
		if err != nil {
			return false, nil, nil, err
		}
		enc := MarshalEndpoint(nil, v)
		v2, err := UnmarshalEndpoint(enc)
		if err != nil {
			return true, enc, nil, err
		}
		_ = ViewEndpoint(v)
		return true, enc, MarshalEndpoint(nil, v2), nil
	}},
	{"event", func(b []byte) (bool, []byte, []byte, error) {
		v, err := UnmarshalWebhookEvent(b)
		if err != nil {
			return false, nil, nil, err
		}
		enc := MarshalWebhookEvent(nil, v)
		v2, err := UnmarshalWebhookEvent(enc)
		if err != nil {
			return true, enc, nil, err
		}
		for i := range v.Deliveries {
			_ = ViewAttempts(v.ID, &v.Deliveries[i])
		}
		return true, enc, MarshalWebhookEvent(nil, v2), nil
	}},
	{"ledger", func(b []byte) (bool, []byte, []byte, error) {
		v, err := UnmarshalLedger(b)
		if err != nil {
			return false, nil, nil, err
		}
		enc := MarshalLedger(nil, v)
		v2, err := UnmarshalLedger(enc)
		if err != nil {
			return true, enc, nil, err
		}
		var row LedgerRow
		if err := ParseLedgerRow(enc, &row); err != nil {
			return true, enc, nil, err
		}
		_, _ = CSVCells(nil, nil, &row)
		return true, enc, MarshalLedger(nil, v2), nil
	}},
}

// rowFuzzSeeds are real encodings of each row and truncations of them.
func rowFuzzSeeds(t testing.TB) [][]byte {
	c := newClock()
	tr := NewTransferState()
	rows, _, err := tr.Decide(createTransferCmd("USDC", "EURC"), c.env())
	require.Nil(t, err)
	tr.applyRow(rows[0])
	rows, _, err = tr.Decide(AcceptTransfer{Account: acctID, Gasless: gaslessLeg(), AmountOut: bi("229000000"), Signing: []byte(`{}`)}, c.env())
	require.Nil(t, err)
	ls := NewLinkState()
	links, _, lerr := ls.Decide(createLinkCmd(), c.env())
	require.Nil(t, lerr)
	ls.applyRow(links[0])
	links, _, lerr = ls.Decide(pay(hashFund, 2, "100000000"), c.env())
	require.Nil(t, lerr)
	entry := links[0].Ledger()[0]
	ep := &Endpoint{ID: whID, Account: acctID, URL: hookURL, Events: []string{"*"}, State: EndpointEnabled,
		Secrets: []SealedSecret{{Sealed: sealedB}, {Sealed: sealedA, RetiresAt: t0}}, Failures: 3, CreatedAt: t0, UpdatedAt: t0}
	ev := bornEvent(EventTransferConfirmed)
	ev.FannedOut = true
	ev.Deliveries = []Delivery{{ID: "dlv_a", Endpoint: whID, State: DeliveryPending, NextAt: t0,
		Attempts: []Attempt{{N: 1, StatusCode: 500, DurationMs: 12, At: t0}, {N: 2, Error: "timeout", At: t0}}}}
	encs := [][]byte{MarshalTransfer(nil, rows[0]), MarshalLink(nil, links[0]),
		MarshalClaim(nil, &Claim{TxHash: hashFund, LogIndex: 2, By: trID, At: t0}), MarshalEndpoint(nil, ep),
		MarshalWebhookEvent(nil, ev), MarshalLedger(nil, &entry)}
	var out [][]byte
	for i, enc := range encs {
		for _, b := range [][]byte{enc, enc[:len(enc)/2], enc[:len(enc)-1]} {
			out = append(out, append([]byte{byte(i)}, b...))
		}
	}
	return out
}

func FuzzUnmarshalRows(f *testing.F) {
	for _, b := range rowFuzzSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		codec := rowCodecs[int(b[0])%len(rowCodecs)]
		ok, enc, enc2, err := codec.roundTrip(b[1:])
		if !ok {
			require.ErrorIs(t, err, errCodec, codec.name)
			return
		}
		require.NoError(t, err, "%s: a decoded row re-encodes to something decodable", codec.name)
		require.Equal(t, enc, enc2, "%s: the encoding is stable", codec.name)
	})
}

// TestWriteRowFuzzSeeds regenerates or checks
// testdata/fuzz/FuzzUnmarshalRows.
func TestWriteRowFuzzSeeds(t *testing.T) {
	checkFuzzSeeds(t, "FuzzUnmarshalRows", rowFuzzSeeds(t))
}
