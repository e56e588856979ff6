package webhook

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook/secret"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// masterKey is a fixed test master key, one per name.
func masterKey(name string) []byte {
	k := sha256.Sum256([]byte("fxd webhook reseal test key " + name))
	return k[:]
}

func keyring(t *testing.T, current string, previous ...string) *secret.Sealer {
	t.Helper()
	prev := make([][]byte, len(previous))
	for i, p := range previous {
		prev[i] = masterKey(p)
	}
	s, err := secret.NewKeyring(masterKey(current), prev...)
	require.NoError(t, err)
	return s
}

// sealFormat1 seals as the sealer did before key rotation existed
// (version 1 | nonce | GCM, additional data version || endpoint id), so
// the test holds rows written by an older fxd.
func sealFormat1(t *testing.T, key []byte, plaintext, id string) []byte {
	t.Helper()
	block, err := aes.NewCipher(key)
	require.NoError(t, err)
	aead, err := cipher.NewGCM(block)
	require.NoError(t, err)
	out := make([]byte, 1+aead.NonceSize())
	out[0] = 1
	_, err = rand.Read(out[1:])
	require.NoError(t, err)
	return aead.Seal(out, out[1:], []byte(plaintext), append([]byte{1}, id...))
}

// createFormat1 creates an endpoint of acct at url whose secret was sealed
// in format 1 under key (as by an fxd before rotation), through the
// endpoint entity directly; it returns the id and the secret.
func (h *harness) createFormat1(acct, url string, key []byte) (string, string) {
	h.t.Helper()
	text, err := sign.NewSecret()
	require.NoError(h.t, err)
	id := h.e.NewID("wh_", acct)
	out, err := h.e.Create(ctxT(h.t), id, domain.Request{Cmd: domain.CreateEndpoint{ID: id, Account: acct, URL: url,
		Sealed: sealFormat1(h.t, key, text, id)}})
	require.NoError(h.t, err)
	require.Equal(h.t, 201, out.Reply.Status, "%s", out.Reply.Body)
	return id, text
}

// rotateSecret is POST /webhooks/{id}/rotate-secret; it returns the new
// secret.
func (h *harness) rotateSecret(acct, id string) string {
	h.t.Helper()
	out, err := h.d.RotateSecret(ctxT(h.t), acct, id, nil)
	require.NoError(h.t, err)
	require.Equal(h.t, 200, out.Reply.Status, "%s", out.Reply.Body)
	var v domain.SecretView
	require.NoError(h.t, json.Unmarshal(out.Reply.Body, &v))
	return v.Secret
}

// deliverTest sends a test event to endpoint id and returns the request
// its receiver got, once delivered.
func (h *harness) deliverTest(rc *receiver, id string) hit {
	h.t.Helper()
	dlv := h.sendTest(h.acct, id)
	h.waitDelivery(id, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	w, _ := h.delivery(id, dlv)
	hs := rc.hitsFor(w.ID)
	require.Len(h.t, hs, 1)
	return hs[0]
}

// sealedOf are the endpoint's sealed secrets, in order.
func (h *harness) sealedOf(id string) [][]byte {
	h.t.Helper()
	var out [][]byte
	for _, s := range h.endpoint(id).Secrets {
		out = append(out, s.Sealed)
	}
	return out
}

// TestResealAfterMasterKeyRotation walks the operator's rotation A → B:
// endpoints made under A (format 2, format 1, rotated) still deliver
// verifiable signatures with B current and A previous; a reseal moves
// them to B and leaves alone an endpoint made under B; with B alone,
// everything still delivers and verifies.
func TestResealAfterMasterKeyRotation(t *testing.T) {
	h := newHarness(t, Config{Sealer: keyring(t, "A")}, false)
	rc := newReceiver(t, 204)

	type ep struct {
		id      string
		secrets []string // each must verify every delivery
	}
	created := h.createEndpoint(h.acct, rc.URL()+"/plain")
	plain := ep{created.ID, []string{created.Secret}}
	created = h.createEndpoint(h.acct, rc.URL()+"/rotated")
	rotated := ep{created.ID, []string{created.Secret, h.rotateSecret(h.acct, created.ID)}}
	id, text := h.createFormat1(h.acct, rc.URL()+"/old", masterKey("A"))
	old := ep{id, []string{text}}
	underA := []ep{plain, rotated, old}
	retires := h.endpoint(rotated.id).Secrets[1].RetiresAt
	require.False(t, retires.IsZero())

	deliverAll := func(eps []ep) {
		t.Helper()
		for _, e := range eps {
			hh := h.deliverTest(rc, e.id)
			require.Len(t, strings.Split(hh.Header.Get("webhook-signature"), " "), len(e.secrets))
			for i, s := range e.secrets {
				require.NoError(t, verify(s, hh), "endpoint %s, secret %d", e.id, i)
			}
		}
	}
	deliverAll(underA)

	// The rotation: B current, A previous.
	h.restart(func() { h.cfg.Sealer = keyring(t, "B", "A") })
	require.Equal(t, 3, h.d.SecretsUnderPreviousKeys())
	deliverAll(underA)
	created = h.createEndpoint(h.acct, rc.URL()+"/new")
	fresh := ep{created.ID, []string{created.Secret}}
	freshSealed := h.sealedOf(fresh.id)
	require.True(t, h.cfg.Sealer.IsCurrent(freshSealed[0]), "a new endpoint is sealed under B")
	require.Equal(t, 3, h.d.SecretsUnderPreviousKeys(), "the new endpoint needs no reseal")

	res, err := h.d.Reseal(ctxT(t))
	require.NoError(t, err)
	require.Equal(t, ResealResult{Resealed: 3, AlreadyCurrent: 1}, res)
	require.Zero(t, h.d.SecretsUnderPreviousKeys())
	require.Equal(t, freshSealed, h.sealedOf(fresh.id), "an endpoint under B is untouched")
	for _, e := range underA {
		for i, s := range h.endpoint(e.id).Secrets {
			require.True(t, h.cfg.Sealer.IsCurrent(s.Sealed), "endpoint %s secret %d", e.id, i)
		}
	}
	r := h.endpoint(rotated.id)
	require.Len(t, r.Secrets, 2)
	require.True(t, r.Secrets[0].RetiresAt.IsZero())
	require.Equal(t, retires, r.Secrets[1].RetiresAt, "the previous secret retires when it did")

	again, err := h.d.Reseal(ctxT(t))
	require.NoError(t, err)
	require.Equal(t, ResealResult{AlreadyCurrent: 4}, again, "a second run finds nothing to do")

	// A retired: B alone opens everything and every delivery verifies.
	h.restart(func() { h.cfg.Sealer = keyring(t, "B") })
	require.Zero(t, h.d.SecretsUnderPreviousKeys())
	deliverAll(append(underA, fresh))
}

// TestResealCounts: an endpoint whose key is not configured fails (and
// stays as it was), a deleted one is in no count, and a desk without a
// master key has nothing to reseal with.
func TestResealCounts(t *testing.T) {
	h := newHarness(t, Config{Sealer: keyring(t, "B", "A")}, false)
	rc := newReceiver(t, 204)
	lostID, _ := h.createFormat1(h.acct, rc.URL()+"/lost", masterKey("C"))
	lost := h.sealedOf(lostID)
	gone, _ := h.createFormat1(h.acct, rc.URL()+"/gone", masterKey("A"))
	out, err := h.d.DeleteEndpoint(ctxT(t), h.acct, gone, nil)
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
	id, _ := h.createFormat1(h.acct, rc.URL()+"/ok", masterKey("A"))
	require.Equal(t, 2, h.d.SecretsUnderPreviousKeys(), "the deleted endpoint is not counted")

	res, err := h.d.Reseal(ctxT(t))
	require.NoError(t, err)
	require.Equal(t, ResealResult{Resealed: 1, Failed: 1}, res)
	require.Equal(t, lost, h.sealedOf(lostID), "a value no key opens is left as it is")
	require.True(t, h.cfg.Sealer.IsCurrent(h.sealedOf(id)[0]))
	require.Equal(t, 1, h.d.SecretsUnderPreviousKeys())

	// A cancelled run writes nothing and counts what it could not do.
	h.restart(func() { h.cfg.Sealer = keyring(t, "D", "B", "A") })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = h.d.Reseal(ctx)
	require.NoError(t, err)
	require.Equal(t, ResealResult{Failed: 2}, res)
	require.Equal(t, 2, h.d.SecretsUnderPreviousKeys())

	bare := newHarness(t, Config{}, true)
	_, err = bare.d.Reseal(ctxT(t))
	require.ErrorIs(t, err, ErrNoSealer)
	require.Zero(t, bare.d.SecretsUnderPreviousKeys())
}

// TestResealLeavesStoredAnswers: an idempotent replay of a create answer
// opens the secret sealed in the stored answer, which a reseal does not
// touch; it opens while the previous key is configured and fails, naming
// the key id, once it is not (so operators keep the previous key for the
// idempotency retention).
func TestResealLeavesStoredAnswers(t *testing.T) {
	h := newHarness(t, Config{Sealer: keyring(t, "A")}, false)
	rc := newReceiver(t, 204)
	body := []byte(`{"url":"` + rc.URL() + `"}`)
	idem := idemKey("create-before-rotation", "POST", "/webhooks", body)
	first, err := h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: rc.URL()}, idem)
	require.NoError(t, err)
	require.Equal(t, 201, first.Reply.Status)

	h.restart(func() { h.cfg.Sealer = keyring(t, "B", "A") })
	res, err := h.d.Reseal(ctxT(t))
	require.NoError(t, err)
	require.Equal(t, ResealResult{Resealed: 1}, res)
	replay, err := h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: rc.URL()}, idem)
	require.NoError(t, err)
	require.True(t, replay.Replayed)
	require.Equal(t, string(first.Reply.Body), string(replay.Reply.Body), "the replay still reveals the same secret")

	h.restart(func() { h.cfg.Sealer = keyring(t, "B") })
	_, err = h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: rc.URL()}, idem)
	require.ErrorIs(t, err, secret.ErrOpen)
	a, err2 := secret.NewSealer(masterKey("A"))
	require.NoError(t, err2)
	require.ErrorContains(t, err, "master key id "+a.CurrentKeyID().String())
	require.False(t, errors.Is(err, ErrNoSealer))
	require.NotContains(t, err.Error(), fmt.Sprintf("%x", masterKey("A")))
}
