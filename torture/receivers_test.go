package torture

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/webhook/sign"
)

// receiverClient trusts the receivers' CA, as the server does with
// --webhook-ca.
func receiverClient(t *testing.T, caFile string, timeout time.Duration) *http.Client {
	pem, err := os.ReadFile(caFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	return &http.Client{Timeout: timeout, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// deliver posts a Standard Webhooks delivery signed with secret.
func deliverTo(t *testing.T, hc *http.Client, url, secret, id string, body []byte) (*http.Response, error) {
	key, err := sign.ParseSecret(secret)
	require.NoError(t, err)
	ts := time.Now().Unix()
	sig, err := sign.Header([][]byte{key}, id, ts, body)
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	return hc.Do(req)
}

// TestReceivers: every behaviour over real TLS. The good one answers 200
// and records the delivery, its signature checked once the secret is
// known (also for deliveries that came before it); a second copy with
// another body is noticed; the reset one records the request and resets
// the connection; the late one has not answered when a sender's deadline
// passes.
func TestReceivers(t *testing.T) {
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	cert, err := receiverTLS(caFile)
	require.NoError(t, err)
	secret, err := sign.NewSecret()
	require.NoError(t, err)
	hc := receiverClient(t, caFile, 30*time.Second)
	body := []byte(`{"id":"evt_1","type":"transfer.confirmed","data":{"object":{"id":"tr_9","state":"confirmed"}}}`)

	good, err := startReceiver(recvGood, cert, 1)
	require.NoError(t, err)
	defer good.close()
	good.register("/h1")
	resp, err := deliverTo(t, hc, good.url+"/h1", secret, "evt_1", body)
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	resp.Body.Close()
	good.setSecret("/h1", secret)
	ev := good.seen("/h1", "evt_1")
	require.NotNil(t, ev)
	require.Equal(t, 1, ev.count)
	require.Equal(t, 0, ev.badSig, "verified when the secret came")
	require.Equal(t, "transfer.confirmed", ev.typ)
	require.Equal(t, "tr_9", ev.objectID)
	require.Equal(t, compactHash([]byte(" {\n"+string(body[1:]))), ev.hash, "whitespace does not count")

	other, err := sign.NewSecret()
	require.NoError(t, err)
	resp, err = deliverTo(t, hc, good.url+"/h1", other, "evt_1", append([]byte(nil), bytes.Replace(body, []byte("tr_9"), []byte("tr_8"), 1)...))
	require.NoError(t, err)
	resp.Body.Close()
	ev = good.seen("/h1", "evt_1")
	require.Equal(t, 2, ev.count)
	require.True(t, ev.differs)
	require.Equal(t, 1, ev.badSig)
	require.Nil(t, good.seen("/h2", "evt_1"), "another endpoint saw nothing")

	reset, err := startReceiver(recvReset, cert, 2)
	require.NoError(t, err)
	defer reset.close()
	reset.register("/h")
	_, err = deliverTo(t, hc, reset.url+"/h", secret, "evt_2", body)
	require.Error(t, err, "the connection is reset")
	require.NotNil(t, reset.seen("/h", "evt_2"), "the request was read before the reset")
	require.Equal(t, 1, reset.stats().Resets)

	// The late receiver answers 2xx, after its wait: lateAnswer, past the
	// service's 10 s deadline (shortened here, not to wait 11 s).
	require.Greater(t, lateAnswer, 10*time.Second, "CONTRACT.md: any 2xx within 10 s is success")
	late, err := startReceiver(recvLate, cert, 3)
	require.NoError(t, err)
	defer late.close()
	late.mu.Lock()
	late.lateBy = time.Millisecond
	late.mu.Unlock()
	late.register("/h")
	resp, err = deliverTo(t, hc, late.url+"/h", secret, "evt_3", body)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	require.NotNil(t, late.seen("/h", "evt_3"))
	require.Equal(t, 1, late.stats().LateAnswers)
}

// TestEventHead: the type and the record an event body is about.
func TestEventHead(t *testing.T) {
	for body, want := range map[string][2]string{
		`{"type":"fx.order.settled","data":{"object":{"order_id":"ord_1","state":"settled"}}}`: {"fx.order.settled", "ord_1"},
		`{"type":"payment_link.paid","data":{"object":{"id":"pl_1"}}}`:                         {"payment_link.paid", "pl_1"},
		`{"type":"webhook.test","data":{"object":{"endpoint_id":"wh_1"}}}`:                     {"webhook.test", "wh_1"},
		`not json`: {"", ""},
	} {
		typ, obj := eventHead([]byte(body))
		require.Equal(t, want, [2]string{typ, obj}, body)
	}
}

// TestEventFor: the events CONTRACT.md fires, and none for other states.
func TestEventFor(t *testing.T) {
	for in, want := range map[[2]string]string{
		{kindOrder, "settled"}: "fx.order.settled", {kindOrder, "failed"}: "fx.order.failed",
		{kindOrder, "refunded"}: "fx.order.refunded", {kindOrder, "expired"}: "",
		{kindTransfer, "confirmed"}: "transfer.confirmed", {kindTransfer, "failed"}: "transfer.failed",
		{kindTransfer, "expired"}: "", {kindLink, "paid"}: "payment_link.paid", {kindLink, "cancelled"}: "",
		{kindEndpoint, "disabled"}: "",
	} {
		require.Equal(t, want, eventFor(in[0], in[1]), in)
	}
}

// TestCheckFields: addresses compare without case, the rest exactly.
func TestCheckFields(t *testing.T) {
	a := "0x00000000000000000000000000000000000000aB"
	require.NoError(t, checkFields([]field{{"signer", a, "0x00000000000000000000000000000000000000AB"}, {"amount", "5", "5"}}))
	require.ErrorContains(t, checkFields([]field{{"amount", "50", "5"}}), "amount is 50, want 5")
	require.ErrorContains(t, checkFields([]field{{"recipient", a, "0x00000000000000000000000000000000000000ac"}}), "recipient is")
}
