package httpd

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestAppendCSVRecord: RFC 4180 quoting only where a cell needs it, every
// byte of a cell kept (CR and LF inside a cell included), CRLF after
// each record.
func TestAppendCSVRecord(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cells []string
		want  string
	}{
		{"plain", []string{"tr_1", "transfer", "100.5"}, "tr_1,transfer,100.5\r\n"},
		{"empty cells", []string{"", "a", ""}, ",a,\r\n"},
		{"comma", []string{"a,b"}, "\"a,b\"\r\n"},
		{"quote doubled", []string{`say "hi"`}, "\"say \"\"hi\"\"\"\r\n"},
		{"LF kept", []string{"line 1\nline 2"}, "\"line 1\nline 2\"\r\n"},
		{"CR kept", []string{"a\rb"}, "\"a\rb\"\r\n"},
		{"CRLF kept", []string{"a\r\nb"}, "\"a\r\nb\"\r\n"},
		{"tab needs no quotes", []string{"'\tx"}, "'\tx\r\n"},
		{"neutralized formula", []string{"'=1+1", "x"}, "'=1+1,x\r\n"},
		{"unicode", []string{"café ü"}, "café ü\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(appendCSVRecord([]byte("prefix|"), tc.cells))
			require.Equal(t, "prefix|"+tc.want, got)
		})
	}
}

// TestAppendCSVRecordReadsBack: what encoding/csv's Reader makes of the
// records is the cells (its Reader turns a quoted CRLF into LF, so cells
// here carry LF alone).
func TestAppendCSVRecordReadsBack(t *testing.T) {
	records := [][]string{
		{"id", "description"},
		{"pl_1", "line 1\nline 2, with \"quotes\""},
		{"tr_2", "'\tstarts with a tab"},
		{"tr_3", ""},
	}
	var b []byte
	for _, r := range records {
		b = appendCSVRecord(b, r)
	}
	got, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, records, got)
}

// BenchmarkCSVRecord: a ledger row's record by appendCSVRecord and by
// encoding/csv's Writer (what the export used before), into a reused
// buffer as the export writes a page.
func BenchmarkCSVRecord(b *testing.B) {
	row := []string{"tr_06H2P2BZK00003MTDH2ETH8A8MXGW5V6", "transfer", "confirmed", "USDC", "EURC", "1250.5", "1148.203117",
		"0x8904d2f4f04681272f8a4775d0f35fb4c9e0aa89bf49f885b15e0cbe7c4d7ec4", "tr_06H2P2BZK00003MTDH2ETH8A8MXGW5V6",
		"invoice 7, March", "2026-11-30T05:56:01Z"}
	b.Run("appendCSVRecord", func(b *testing.B) {
		var page bytes.Buffer
		for b.Loop() {
			page.Reset()
			page.Write(appendCSVRecord(page.AvailableBuffer(), row))
		}
	})
	b.Run("encoding/csv", func(b *testing.B) {
		var page bytes.Buffer
		w := csv.NewWriter(&page)
		w.UseCRLF = true
		for b.Loop() {
			page.Reset()
			_ = w.Write(row)
			w.Flush()
		}
	})
}

// FuzzCSVRecord: any cells (valid UTF-8; the ledger's texts are) read back
// through encoding/csv's Reader as written, but for the Reader's own
// normalization of a quoted CRLF to LF; the record ends in CRLF and a
// bare quote never ends a cell early.
func FuzzCSVRecord(f *testing.F) {
	f.Fuzz(func(t *testing.T, joined string) {
		if !utf8.ValidString(joined) {
			return
		}
		cells := strings.Split(joined, "|")
		if len(cells) == 1 && cells[0] == "" {
			return // an empty line: the Reader skips it, as RFC 4180 readers may
		}
		rec := appendCSVRecord(nil, cells)
		require.True(t, bytes.HasSuffix(rec, []byte("\r\n")))
		r := csv.NewReader(bytes.NewReader(rec))
		got, err := r.ReadAll()
		require.NoError(t, err, "%q", rec)
		want := make([]string, len(cells))
		for i, c := range cells {
			want[i] = strings.ReplaceAll(c, "\r\n", "\n")
		}
		require.Equal(t, [][]string{want}, got, "%q", rec)
	})
}
