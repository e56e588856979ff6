package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireNoKey checks out for every spelling of testKey we can think of.
func requireNoKey(t *testing.T, what, out string) {
	t.Helper()
	requireNoKeyOf(t, testKey(), what, out)
}

// requireNoKeyOf checks out for every spelling of key we can think of.
func requireNoKeyOf(t *testing.T, key []byte, what, out string) {
	t.Helper()
	for _, form := range []string{
		string(key),
		hex.EncodeToString(key),
		fmt.Sprintf("% x", key),
		fmt.Sprint(key), // [0 1 2 …]
		fmt.Sprintf("%#v", key),
		base64.StdEncoding.EncodeToString(key),
		base64.RawStdEncoding.EncodeToString(key),
	} {
		require.NotContains(t, out, form, "%s shows the key", what)
	}
}

func TestSealerPrintsNothingSecret(t *testing.T) {
	s := mustSealer(t, testKey())
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%100v", "%-8s"}
	for _, verb := range verbs {
		for _, arg := range []any{s, *s} {
			out := fmt.Sprintf(verb, arg)
			require.Equal(t, sealerText, out, "%s of %T", verb, arg)
		}
	}
	require.Equal(t, sealerText, s.String())
	require.Equal(t, sealerText, s.GoString())

	// Inside other values (a config struct logged whole), exported or not,
	// by value or by pointer.
	type config struct {
		Exported   *Sealer
		ExportedV  Sealer
		unexported *Sealer
		unexpV     Sealer
	}
	c := config{s, *s, s, *s}
	for _, verb := range verbs {
		for _, arg := range []any{c, &c, []*Sealer{s}, map[string]Sealer{"k": *s}} {
			requireNoKey(t, verb, fmt.Sprintf(verb, arg))
		}
	}
	j, err := json.Marshal(c)
	require.NoError(t, err)
	requireNoKey(t, "json", string(j))

	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		slog.New(h).Info("config", "sealer", s, "config", c)
	}
	requireNoKey(t, "slog", buf.String())
	require.Contains(t, buf.String(), sealerText)

	var nilSealer *Sealer
	require.NotPanics(t, func() { _ = fmt.Sprintf("%v %+v %#v", nilSealer, nilSealer, nilSealer) })
}
