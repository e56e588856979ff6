package httpd

import (
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/backup"
	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/connect"
)

// TestAdminBackups drives POST /admin/backups over a real engine and a
// chain reached over RPC (whose backup is its contracts.json): the
// answers, their status and contract codes, and a backup that verifies.
func TestAdminBackups(t *testing.T) {
	dataDir := t.TempDir()
	e, err := actors.Open(actors.Config{DataDir: dataDir, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	defer e.Close()
	genesis := common.HexToHash("0x1234")
	require.NoError(t, e.BindChain(genesis.Hex()))
	addrs := &bind.Addresses{USDC: common.HexToAddress("0x01"), USDT: common.HexToAddress("0x02"), EURC: common.HexToAddress("0x03"),
		Permit2: bind.CanonicalPermit2Address, RelayRouter: common.HexToAddress("0x05"), RfqEscrow: common.HexToAddress("0x06"),
		PaymentLinkFactory: common.HexToAddress("0x07")}
	chain := &connect.Chain{ChainID: big.NewInt(31337), Genesis: genesis, Contracts: addrs}
	const token = "0123456789abcdef0123456789abcdef"
	admin := NewAdmin(e, chain, nil, token, dataDir)
	post := func(tok, body string) (int, []byte) {
		req := httptest.NewRequest("POST", "/admin/backups", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		admin.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes()
	}
	out := filepath.Join(t.TempDir(), "b1")
	tests := []struct {
		name   string
		token  string
		body   string
		status int
		code   string
	}{
		{"no token", "wrong", `{"out":"` + out + `"}`, 401, "auth_failed"},
		{"unknown field", token, `{"out":"` + out + `","x":1}`, 400, "invalid_request"},
		{"no out", token, `{}`, 400, "invalid_request"},
		{"relative out", token, `{"out":"backups/b1"}`, 400, "invalid_request"},
		{"inside the data dir", token, `{"out":"` + filepath.Join(dataDir, "b") + `"}`, 400, "invalid_request"},
		{"not empty", token, `{"out":"` + dataDir + `/.."}`, 400, "invalid_request"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := post(tc.token, tc.body)
			require.Equal(t, tc.status, status, "%s", body)
			var e struct{ Error struct{ Code string } }
			require.NoError(t, json.Unmarshal(body, &e), "%s", body)
			require.Equal(t, tc.code, e.Error.Code, "%s", body)
		})
	}
	require.NoDirExists(t, out)

	status, body := post(token, `{"out":"`+out+`"}`)
	require.Equal(t, 201, status, "%s", body)
	var m backup.Summary
	require.NoError(t, json.Unmarshal(body, &m))
	require.Equal(t, out, m.Dir)
	require.Positive(t, m.Files)
	require.Equal(t, genesis.Hex(), m.Genesis)
	require.Equal(t, connect.ModeRPC, m.Chain.Mode)
	rep, err := backup.Verify(out)
	require.NoError(t, err)
	require.True(t, rep.OK)
	require.Equal(t, m.LastIndex, rep.LastIndex)

	status, body = post(token, `{"out":"`+out+`"}`)
	require.Equal(t, 400, status, "a second backup into the same directory: %s", body)
}
