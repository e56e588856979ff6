package e2e

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type ratesBody struct {
	Date string `json:"date"`
	Data []struct {
		Pair string `json:"pair"`
		Rate string `json:"rate"`
		AsOf string `json:"as_of"`
	} `json:"data"`
}

// TestFXRatesDailyBaseline: the day's baseline is each pool's mid price at
// the first observation, recorded in the log: it does not move on later
// reads and survives a kill -9.
func TestFXRatesDailyBaseline(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	srv := startServer(t, dataDir)
	key := srv.createKey(t, srv.createAccount(t, "rates"), "read")

	read := func(s *server) ratesBody {
		r := call(t, s.client(t, key), "GET", basePath+"/fx/rates", "", nil)
		require.Equal(t, 200, r.Status, "%s", r.Body)
		var b ratesBody
		require.NoError(t, json.Unmarshal(r.Body, &b))
		return b
	}
	first := read(srv)
	require.Equal(t, time.Now().UTC().Format(time.DateOnly), first.Date)
	require.Len(t, first.Data, 3)
	want := map[string]string{"USDC/EURC": "0.920000", "USDC/USDT": "1.000000", "USDT/EURC": "0.920000"}
	for _, d := range first.Data {
		require.Equal(t, want[d.Pair], d.Rate, "seeded pools' mid price of %s", d.Pair)
		require.Regexp(t, regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`), d.AsOf)
	}
	time.Sleep(1100 * time.Millisecond)
	require.Equal(t, first, read(srv), "the baseline does not move within the day")

	srv.Kill()
	srv = startServer(t, dataDir)
	require.Equal(t, first, read(srv), "the baseline survives a kill -9")
}
