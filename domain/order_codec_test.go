package domain

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

func TestOrderCodecRoundTrip(t *testing.T) {
	for _, o := range []*Order{fullOrder(), acceptedRow(RouteAMM), orderAt(RouteRFQ, OrderSettled).Order} {
		enc := MarshalOrder(nil, o)
		got, err := UnmarshalOrder(enc)
		require.NoError(t, err)
		require.Equal(t, o, got)
		require.Equal(t, enc, MarshalOrder(nil, got))
	}
	// Appends to dst.
	enc := MarshalOrder([]byte("x"), acceptedRow(RouteAMM))
	require.Equal(t, byte('x'), enc[0])
}

func TestOrderCodecRefuses(t *testing.T) {
	good := MarshalOrder(nil, acceptedRow(RouteRFQ))
	field := func(num protowire.Number, s string) []byte {
		b := protowire.AppendTag(nil, num, protowire.BytesType)
		return protowire.AppendString(b, s)
	}
	cases := map[string][]byte{
		"empty":        nil,
		"no id":        MarshalOrder(nil, func() *Order { o := acceptedRow(RouteAMM); o.ID = ""; return o }()),
		"bad route":    append(append([]byte(nil), good...), field(4, "otc")...),
		"bad state":    append(append([]byte(nil), good...), field(5, "pending")...),
		"amount sign":  append(append([]byte(nil), good...), field(8, "-1")...),
		"amount zero":  append(append([]byte(nil), good...), field(9, "01")...),
		"amount empty": append(append([]byte(nil), good...), field(10, "")...),
		"amount hex":   append(append([]byte(nil), good...), field(8, "0x10")...),
		"amount huge":  append(append([]byte(nil), good...), field(8, fmt.Sprintf("1%078d", 0))...),
		"truncated":    good[:len(good)-1],
		"fixed64 wire": append(append([]byte(nil), good...), protowire.AppendTag(nil, 30, protowire.Fixed64Type)...),
	}
	for name, b := range cases {
		o, err := UnmarshalOrder(b)
		require.ErrorIs(t, err, errCodec, name)
		require.Nil(t, o, name)
	}
	// Unknown fields are skipped (newer writers stay readable).
	o, err := UnmarshalOrder(append(append([]byte(nil), good...), field(99, "future")...))
	require.NoError(t, err)
	require.Equal(t, acceptedRow(RouteRFQ), o)
}

func orderFuzzSeeds() [][]byte {
	var out [][]byte
	for _, o := range []*Order{fullOrder(), acceptedRow(RouteAMM), orderAt(RouteRFQ, OrderSettled).Order} {
		enc := MarshalOrder(nil, o)
		out = append(out, enc, enc[:len(enc)/2], enc[:len(enc)-1])
	}
	return out
}

func FuzzUnmarshalOrder(f *testing.F) {
	for _, b := range orderFuzzSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := UnmarshalOrder(b)
		if err != nil {
			require.ErrorIs(t, err, errCodec)
			require.Nil(t, o)
			return
		}
		require.NotEmpty(t, o.ID)
		require.Contains(t, []string{RouteAMM, RouteRFQ}, o.Route)
		require.Contains(t, OrderStates, o.State)
		enc := MarshalOrder(nil, o)
		o2, err := UnmarshalOrder(enc)
		require.NoError(t, err)
		require.Equal(t, o, o2)
		require.Equal(t, enc, MarshalOrder(nil, o2))
		// Any decodable row renders.
		_ = ViewOrder(o)
		_ = ViewLedger(ptrLedger(o))
	})
}

// TestWriteOrderFuzzSeeds regenerates or checks testdata/fuzz/FuzzUnmarshalOrder.
func TestWriteOrderFuzzSeeds(t *testing.T) { checkFuzzSeeds(t, "FuzzUnmarshalOrder", orderFuzzSeeds()) }

func TestOrderEventsRoundTripInARecord(t *testing.T) {
	rec := Record{Entity: "ord_1", Events: OrderEvents("", []*Order{fullOrder(), acceptedRow(RouteRFQ)})}
	back, err := UnmarshalRecord(MarshalRecord(nil, &rec))
	require.NoError(t, err)
	require.Equal(t, rec, back)
	require.Equal(t, "order_put", back.Events[0].Kind.String())
}
