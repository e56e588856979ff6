package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// printJSON writes v as one JSON object on one line (CONTRACT.md: every
// operator command prints one JSON object on stdout).
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode output: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// printRaw writes a JSON answer of the admin listener on one line.
func printRaw(w io.Writer, b json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return fmt.Errorf("admin answer is not JSON: %w", err)
	}
	buf.WriteByte('\n')
	_, err := w.Write(buf.Bytes())
	return err
}
