package domain

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The payment rows' decoders (transfer, payment link, claim, ledger entry)
// share one fuzz target: the first byte picks the decoder, the rest is
// its input. Whatever decodes must re-encode to bytes that decode to the
// same row.
var paymentCodecs = []struct {
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

// paymentFuzzSeeds are real encodings of each row and truncations of them.
func paymentFuzzSeeds(t testing.TB) [][]byte {
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
	encs := [][]byte{MarshalTransfer(nil, rows[0]), MarshalLink(nil, links[0]),
		MarshalClaim(nil, &Claim{TxHash: hashFund, LogIndex: 2, By: trID, At: t0}), MarshalLedger(nil, &entry)}
	var out [][]byte
	for i, enc := range encs {
		for _, b := range [][]byte{enc, enc[:len(enc)/2], enc[:len(enc)-1]} {
			out = append(out, append([]byte{byte(i)}, b...))
		}
	}
	return out
}

func FuzzUnmarshalPaymentRows(f *testing.F) {
	for _, b := range paymentFuzzSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		codec := paymentCodecs[int(b[0])%len(paymentCodecs)]
		ok, enc, enc2, err := codec.roundTrip(b[1:])
		if !ok {
			require.ErrorIs(t, err, errCodec, codec.name)
			return
		}
		require.NoError(t, err, "%s: a decoded row re-encodes to something decodable", codec.name)
		require.Equal(t, enc, enc2, "%s: the encoding is stable", codec.name)
	})
}

// TestWritePaymentFuzzSeeds regenerates or checks
// testdata/fuzz/FuzzUnmarshalPaymentRows.
func TestWritePaymentFuzzSeeds(t *testing.T) {
	checkFuzzSeeds(t, "FuzzUnmarshalPaymentRows", paymentFuzzSeeds(t))
}
