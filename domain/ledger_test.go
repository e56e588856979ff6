package domain

import (
	"bytes"
	"encoding/csv"
	"math/big"
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
		{"", "", "2026-01-01T01:00:00+01:00", "2026-01-01T01:00:00+01:00", true}, // an offset, encoded
		{"", "", "2026-01-01T01:00:00 01:00", "", true},                          // its "+" decoded as a space
		{"", "", "2026-01-01T01:00:01 01:00", "", false},
		{"", "", "", "2025-12-31T23:59:59-00:00", false},
	} {
		f, err := ParseLedgerFilter(tc.typ, tc.cur, tc.from, tc.to)
		require.Nil(t, err)
		require.Equal(t, tc.match, f.Match(e), "%+v", tc)
	}
	for _, bad := range [][4]string{{"swap", "", "", ""}, {"", "BTC", "", ""}, {"", "", "yesterday", ""},
		{"", "", "", "2026-13-01T00:00:00Z"}, {"", "", "2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"},
		{"", "", "2026-01-01 00:00:00Z", ""}, {"", "", "2026-01-01T01:00:00 1:00", ""}, {"", "", " 01:00", ""},
		{"", "", "2026-01-01T1:00:00Z", ""}, {"", "", "", "9999-12-31T23:00:00-01:00"}} { // time.Parse takes both
		_, err := ParseLedgerFilter(bad[0], bad[1], bad[2], bad[3])
		require.NotNil(t, err, "%v", bad)
		require.Equal(t, 400, err.Status)
	}
}

// csvRow renders an entry through its stored bytes, as the export does.
func csvRow(t *testing.T, e *LedgerEntry) []string {
	t.Helper()
	var row LedgerRow
	require.NoError(t, ParseLedgerRow(MarshalLedger(nil, e), &row))
	cells, _ := CSVCells(nil, nil, &row)
	return append([]string(nil), cells...)
}

// TestCSVCellsNeutralizeFormulas: a description that a spreadsheet would
// run as a formula is written as text; amounts stay numbers; the row reads
// back with encoding/csv exactly as rendered.
func TestCSVCellsNeutralizeFormulas(t *testing.T) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	require.NoError(t, w.Write(LedgerCSVHeader[:]))
	descs := []string{`=HYPERLINK("http://x","pay")`, "+1+1", "-2", "@SUM(A1)", "\tx", "\rx", `plain, "quoted"` + "\nline", ""}
	for _, d := range descs {
		require.NoError(t, w.Write(csvRow(t, ledgerEntry(LedgerTransfer, "USDC", "USDC", d, t0))))
	}
	w.Flush()
	rows, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Equal(t, LedgerCSVHeader[:], rows[0])
	want := []string{`'=HYPERLINK("http://x","pay")`, "'+1+1", "'-2", "'@SUM(A1)", "'\tx", "'\rx", `plain, "quoted"` + "\nline", ""}
	for i, r := range rows[1:] {
		require.Equal(t, want[i], r[9], "description %d", i)
		require.Equal(t, "1.5", r[5], "amounts stay numbers")
		require.Equal(t, "1.38", r[6])
		require.Equal(t, "2026-01-01T00:00:00Z", r[10])
	}
}

// TestCSVCellsAreTheJSONView: every cell is its field of ViewLedger (the
// list's JSON), for amounts of every shape, with and without the optional
// fields (a null amount_out is an empty cell); the export reads in place
// what the list decodes.
func TestCSVCellsAreTheJSONView(t *testing.T) {
	for i, amt := range []string{"0", "1", "10", "100000", "1000000", "1000001", "1234567890123", "5", "999999999"} {
		e := ledgerEntry(LedgerFXAMM, "USDC", "EURC", "", t0.Add(time.Duration(i)*time.Second))
		e.AmountIn, e.AmountOut = bi(amt), bi(amt)
		if i%2 == 0 {
			e.TxHash, e.Description = hashFund, "note"
		}
		if i%3 == 0 {
			e.AmountOut = nil // not known yet
		}
		v := ViewLedger(e)
		opt := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		want := []string{v.ID, v.Type, v.State, v.FromCurrency, v.ToCurrency, v.AmountIn, opt(v.AmountOut), opt(v.TxHash), v.ReferenceID, opt(v.Description), v.CreatedAt}
		require.Equal(t, want, csvRow(t, e), "amount %s", amt)
		var row LedgerRow
		require.NoError(t, ParseLedgerRow(MarshalLedger(nil, e), &row))
		require.Equal(t, LedgerFilter{}.Match(e), LedgerFilter{}.MatchRow(&row))
		f, _ := ParseLedgerFilter("", "EURC", "", "2026-01-01T00:00:03Z")
		require.Equal(t, f.Match(e), f.MatchRow(&row))
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

// A transfer's entry shows amount_out exactly as the transfer does: the
// amount for a same-currency transfer, null for a cross-currency one until
// accept prices it, the pool's quote from then on; a zero stays "0".
func TestTransferLedgerAmountOut(t *testing.T) {
	cross := &Transfer{ID: "tr_1", Account: acctID, State: TransferCreated, FromCurrency: "USDC", Currency: "EURC",
		Amount: bi("1500000"), AmountOut: new(big.Int), MinAmountOut: new(big.Int), CreatedAt: t0}
	same := *cross
	same.Currency, same.AmountOut = "USDC", bi("1500000")
	priced := *cross
	priced.Gasless, priced.AmountOut = &GaslessTerms{}, bi("1380000")
	zero := ledgerEntry(LedgerPaymentLink, "EURC", "EURC", "", t0)
	zero.AmountOut = new(big.Int)
	for _, c := range []struct {
		name string
		e    LedgerEntry
		want *string
	}{
		{"cross-currency before accept", cross.Ledger()[0], nil},
		{"same currency", same.Ledger()[0], ptr("1.5")},
		{"cross-currency priced", priced.Ledger()[0], ptr("1.38")},
		{"a link that received nothing", *zero, ptr("0")},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := c.e
			back, err := UnmarshalLedger(MarshalLedger(nil, &e))
			require.NoError(t, err)
			require.Equal(t, c.want, ViewLedger(back).AmountOut, "as listed, after the store")
			want := ""
			if c.want != nil {
				want = *c.want
			}
			require.Equal(t, want, csvRow(t, &e)[6], "as exported")
		})
	}
	tv := ViewTransfer(cross)
	require.Nil(t, tv.AmountOut, "the transfer agrees")
}
