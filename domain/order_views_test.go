package domain

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestViewOrderAccepted(t *testing.T) {
	b, err := json.Marshal(ViewOrder(acceptedRow(RouteRFQ)))
	require.NoError(t, err)
	require.Equal(t, `{"order_id":"ord_000001","route":"rfq","state":"accepted",`+
		`"signing":{"type":"permit2_witness","order":{"amountIn":"1250500000"}},"quote_id":"q_000001",`+
		`"from_currency":"USDC","to_currency":"EURC","amount_in":"1250.5","amount_out":"1150.25","min_amount_out":"1144.49875",`+
		`"tx_hash":null,"failure_reason":null,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`, string(b))
}

func TestViewOrderEdges(t *testing.T) {
	o := fullOrder()
	o.Signing = nil
	o.FromCurrency = "XYZ" // unknown symbol from an old log: 6 decimals
	v := ViewOrder(o)
	require.Equal(t, json.RawMessage("null"), v.Signing)
	require.Equal(t, "0", v.AmountOut)
	require.Equal(t, "0.000001", v.MinAmountOut)
	require.Equal(t, "115792089237316195423570985008687907853269984665640564039457584007913129.639935", v.AmountIn)
	require.Equal(t, "maker — 遅延", *v.FailureReason)
	require.Equal(t, "1970-01-01T00:00:00Z", v.CreatedAt)
	_, err := json.Marshal(v)
	require.NoError(t, err)
}

func TestViewOrderLedger(t *testing.T) {
	amm := acceptedRow(RouteAMM)
	b, err := json.Marshal(ViewLedger(ptrLedger(amm)))
	require.NoError(t, err)
	require.Equal(t, `{"id":"ord_000001","type":"fx_amm","state":"accepted","from_currency":"USDC","to_currency":"EURC",`+
		`"amount_in":"1250.5","amount_out":"1150.25","tx_hash":null,"reference_id":"ord_000001","description":null,"created_at":"2026-01-01T00:00:00Z"}`, string(b))
	require.Equal(t, LedgerFXRFQ, ViewLedger(ptrLedger(acceptedRow(RouteRFQ))).Type)
}
