package domain

import (
	"crypto/ecdsa"
	"encoding/json"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/fxd-labs/fxd/chain/siwe"
	"github.com/stretchr/testify/require"
)

func walletKey(t *testing.T, b byte) (*ecdsa.PrivateKey, string) {
	t.Helper()
	raw := make([]byte, 32)
	for i := range raw {
		raw[i] = b
	}
	k, err := crypto.ToECDSA(raw)
	require.NoError(t, err)
	return k, crypto.PubkeyToAddress(k.PublicKey).Hex()
}

// challenge issues a SIWE challenge for addr and returns its message.
func challenge(t *testing.T, s *AccountState, c *clock, addr string) ChallengeView {
	t.Helper()
	r := mustApply(t, s, CreateChallenge{Address: addr, Domain: "127.0.0.1:8080", URI: "http://127.0.0.1:8080/public/v1", ChainID: 1337}, c.env())
	require.Equal(t, 200, r.Status)
	var v ChallengeView
	require.NoError(t, json.Unmarshal(r.Body, &v))
	return v
}

// register signs the challenge message with key as a wallet would.
func register(t *testing.T, key *ecdsa.PrivateKey, msg string) RegisterWallet {
	t.Helper()
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	require.NoError(t, err)
	sig[64] += 27
	parsed, err := siwe.Parse(msg)
	require.NoError(t, err)
	signer, err := siwe.Recover(msg, sig)
	require.NoError(t, err)
	return RegisterWallet{Message: msg, Parsed: parsed, Signer: signer.Hex()}
}

func TestWalletLifecycle(t *testing.T) {
	c := newClock()
	s := newAccountState(t)
	k1, a1 := walletKey(t, 0x11)
	k2, a2 := walletKey(t, 0x22)

	ch := challenge(t, s, c, a1)
	m, err := siwe.Parse(ch.Message)
	require.NoError(t, err)
	require.Equal(t, a1, m.Address)
	require.Equal(t, uint64(1337), m.ChainID)
	require.Equal(t, "127.0.0.1:8080", m.Domain)
	require.Equal(t, c.now.Truncate(time.Second).Add(ChallengeLifetime), m.ExpirationTime)

	r := mustApply(t, s, register(t, k1, ch.Message), c.env())
	require.Equal(t, 201, r.Status)
	require.JSONEq(t, `{"address":"`+a1+`","primary":true,"label":null,"created_at":"`+t0RFC+`"}`, string(r.Body))
	require.Empty(t, s.Challenges, "the nonce is single use")

	// Reusing the same signed message is refused: the nonce is gone.
	requireRefused(t, s, register(t, k1, ch.Message), c.env(), 400, CodeInvalidRequest)

	ch2 := challenge(t, s, c, a2)
	r = mustApply(t, s, register(t, k2, ch2.Message), c.env())
	require.Contains(t, string(r.Body), `"primary":false`)

	// The primary cannot go while another wallet remains.
	requireRefused(t, s, DeleteWallet{Address: a1}, c.env(), 409, CodeInvalidState)
	// Making a2 primary demotes a1 in the same decision.
	ev, _ := mustDecide(t, s, UpdateWallet{Address: a2, Primary: ptr(true), Label: ptr("ops")}, c.env())
	require.Len(t, ev, 2)
	applyAll(s, ev)
	require.False(t, s.Wallets[a1].Primary)
	require.True(t, s.Wallets[a2].Primary)
	require.Equal(t, "ops", s.Wallets[a2].Label)
	requireRefused(t, s, UpdateWallet{Address: a2, Primary: ptr(false)}, c.env(), 400, CodeInvalidRequest)

	r = mustApply(t, s, DeleteWallet{Address: a1}, c.env())
	require.JSONEq(t, `{"id":"`+a1+`","deleted":true}`, string(r.Body))
	mustApply(t, s, DeleteWallet{Address: a2}, c.env())
	require.Empty(t, s.Wallets)
	requireRefused(t, s, DeleteWallet{Address: a2}, c.env(), 404, CodeNotFound)
}

func TestRegisterWalletRefusals(t *testing.T) {
	c := newClock()
	s := newAccountState(t)
	k1, a1 := walletKey(t, 0x11)
	k2, _ := walletKey(t, 0x22)
	ch := challenge(t, s, c, a1)

	t.Run("signed by another key", func(t *testing.T) {
		requireRefused(t, s, register(t, k2, ch.Message), c.env(), 400, CodeInvalidSignature)
	})
	t.Run("message changed after issue", func(t *testing.T) {
		cmd := register(t, k1, ch.Message)
		cmd.Message += " "
		requireRefused(t, s, cmd, c.env(), 400, CodeInvalidRequest)
	})
	t.Run("unknown nonce", func(t *testing.T) {
		cmd := register(t, k1, ch.Message)
		cmd.Parsed.Nonce = "ZZZZZZZZZZ"
		requireRefused(t, s, cmd, c.env(), 400, CodeInvalidRequest)
	})
	t.Run("expired", func(t *testing.T) {
		env := c.env()
		env.Now = env.Now.Add(ChallengeLifetime)
		requireRefused(t, s, register(t, k1, ch.Message), env, 400, CodeInvalidRequest)
	})
	t.Run("bad address", func(t *testing.T) {
		requireRefused(t, s, CreateChallenge{Address: "0x12"}, c.env(), 400, CodeInvalidRequest)
	})
	t.Run("zero address", func(t *testing.T) { // no key signs for it
		requireRefused(t, s, CreateChallenge{Address: "0x0000000000000000000000000000000000000000"}, c.env(), 400, CodeInvalidRequest)
	})
}

func TestChallengesStayBounded(t *testing.T) {
	c := newClock()
	s := newAccountState(t)
	_, a1 := walletKey(t, 0x11)
	for i := 0; i < 3*MaxChallengesPerAccount; i++ {
		challenge(t, s, c, a1)
		c.advance(time.Second)
		require.LessOrEqual(t, len(s.Challenges), MaxChallengesPerAccount)
	}
	c.advance(ChallengeLifetime)
	challenge(t, s, c, a1)
	require.Len(t, s.Challenges, 1, "expired challenges are dropped when a new one is issued")
}

func TestWalletRowsRoundTrip(t *testing.T) {
	w := &Wallet{Address: addrSum, Account: acctID, Primary: true, Label: "x", CreatedAt: t0, UpdatedAt: t0}
	got, err := UnmarshalWallet(MarshalWallet(nil, w))
	require.NoError(t, err)
	require.Equal(t, w, got)
	ch := &Challenge{Nonce: "N1234567", Address: addrSum, Message: "m", CreatedAt: t0, ExpiresAt: t0.Add(time.Minute)}
	gotc, err := UnmarshalChallenge(MarshalChallenge(nil, ch))
	require.NoError(t, err)
	require.Equal(t, ch, gotc)
	rec := Record{Entity: acctID, Events: []Event{{Kind: EvWalletPut, Wallet: w}, {Kind: EvWalletDeleted, ID: addrSum},
		{Kind: EvChallengePut, Challenge: ch}, {Kind: EvChallengeDeleted, ID: "N1234567"}}}
	back, err := UnmarshalRecord(MarshalRecord(nil, &rec))
	require.NoError(t, err)
	require.Equal(t, rec, back)
}
