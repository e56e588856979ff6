package httpd

import "strings"

// appendCSVRecord appends one RFC 4180 record to dst: the cells joined by
// commas, a cell quoted (its quotes doubled) when it holds a comma, a
// quote, a CR or an LF, and CRLF, RFC 4180's record separator, at the end.
//
// Hand-written because encoding/csv's Writer with UseCRLF (the only way
// it ends records in CRLF) also rewrites an LF inside a quoted cell as
// CRLF and drops a CR that no LF follows: a memo with line breaks would
// not read back as the JSON ledger shows it. Here every byte of a cell is
// kept, so any RFC 4180 reader returns the cell exactly.
func appendCSVRecord(dst []byte, cells []string) []byte {
	for i, c := range cells {
		if i > 0 {
			dst = append(dst, ',')
		}
		if !strings.ContainsAny(c, ",\"\r\n") {
			dst = append(dst, c...)
			continue
		}
		dst = append(dst, '"')
		for j := 0; j < len(c); j++ {
			if c[j] == '"' {
				dst = append(dst, '"')
			}
			dst = append(dst, c[j])
		}
		dst = append(dst, '"')
	}
	return append(dst, '\r', '\n')
}
