package httpd

import (
	"encoding/csv"
	"strings"
	"testing"

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
