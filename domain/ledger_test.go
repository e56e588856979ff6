package domain

import (
	"bytes"
	"encoding/csv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func ledgerEntry(typ, from, to, desc string, at time.Time) *LedgerEntry {
	return &LedgerEntry{ID: "tr_1", Account: acctID, Type: typ, State: "confirmed", FromCurrency: from, ToCurrency: to,
		AmountIn: bi("1500000"), AmountOut: bi("1380000"), ReferenceID: "tr_1", Description: desc, CreatedAt: at}
}

func TestLedgerFilter(t *testing.T) {
	e := ledgerEntry(LedgerTransfer, "USDC", "EURC", "", t0)
	for _, tc := range []struct {
		typ, cur, from, to string
		match              bool
	}{
		{"", "", "", "", true},
		{LedgerTransfer, "", "", "", true},
		{LedgerFXAMM, "", "", "", false},
		{"", "EURC", "", "", true}, // either side
		{"", "USDT", "", "", false},
		{"", "", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", true}, // inclusive bounds
		{"", "", "2026-01-01T00:00:01Z", "", false},
		{"", "", "", "2025-12-31T23:59:59Z", false},
	} {
		f, err := ParseLedgerFilter(tc.typ, tc.cur, tc.from, tc.to)
		require.Nil(t, err)
		require.Equal(t, tc.match, f.Match(e), "%+v", tc)
	}
	for _, bad := range [][4]string{{"swap", "", "", ""}, {"", "BTC", "", ""}, {"", "", "yesterday", ""},
		{"", "", "", "2026-13-01T00:00:00Z"}, {"", "", "2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"}} {
		_, err := ParseLedgerFilter(bad[0], bad[1], bad[2], bad[3])
		require.NotNil(t, err, "%v", bad)
		require.Equal(t, 400, err.Status)
	}
}

// TestCSVRecordNeutralizesFormulas: a description that a spreadsheet
// would run as a formula is written as text; amounts stay numbers; the
// row reads back with encoding/csv exactly as rendered.
func TestCSVRecordNeutralizesFormulas(t *testing.T) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	require.NoError(t, w.Write(LedgerCSVHeader))
	descs := []string{`=HYPERLINK("http://x","pay")`, "+1+1", "-2", "@SUM(A1)", "\tx", "\rx", `plain, "quoted"` + "\nline", ""}
	var row []string
	for _, d := range descs {
		row = CSVRecord(row, ledgerEntry(LedgerTransfer, "USDC", "USDC", d, t0))
		require.NoError(t, w.Write(row))
	}
	w.Flush()
	rows, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Equal(t, LedgerCSVHeader, rows[0])
	want := []string{`'=HYPERLINK("http://x","pay")`, "'+1+1", "'-2", "'@SUM(A1)", "'\tx", "'\rx", `plain, "quoted"` + "\nline", ""}
	for i, r := range rows[1:] {
		require.Equal(t, want[i], r[9], "description %d", i)
		require.Equal(t, "1.5", r[5], "amounts stay numbers")
		require.Equal(t, "1.38", r[6])
		require.Equal(t, "2026-01-01T00:00:00Z", r[10])
	}
}

func TestLedgerCodecRoundTrip(t *testing.T) {
	e := ledgerEntry(LedgerPaymentLink, "EURC", "EURC", "invoice 7", t0)
	e.TxHash = hashFund
	back, err := UnmarshalLedger(MarshalLedger(nil, e))
	require.NoError(t, err)
	require.Equal(t, e, back)
	_, err = UnmarshalLedger([]byte{0xff})
	require.Error(t, err)
}
