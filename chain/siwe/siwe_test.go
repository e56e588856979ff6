package siwe

import (
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

func sample() Message {
	return Message{
		Domain: "127.0.0.1:8080", Address: "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A",
		Statement: "Link this wallet to your fxd account.", URI: "http://127.0.0.1:8080/public/v1",
		Version: "1", ChainID: 1337, Nonce: "a1B2c3D4e5F6g7H8",
		IssuedAt:       time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC),
		ExpirationTime: time.Date(2026, 11, 22, 0, 10, 0, 0, time.UTC),
	}
}

func TestStringMatchesEIP4361(t *testing.T) {
	want := "127.0.0.1:8080 wants you to sign in with your Ethereum account:\n" +
		"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A\n\n" +
		"Link this wallet to your fxd account.\n\n" +
		"URI: http://127.0.0.1:8080/public/v1\n" +
		"Version: 1\n" +
		"Chain ID: 1337\n" +
		"Nonce: a1B2c3D4e5F6g7H8\n" +
		"Issued At: 2026-11-22T00:00:00Z\n" +
		"Expiration Time: 2026-11-22T00:10:00Z"
	require.Equal(t, want, sample().String())
}

func TestParseRoundTrip(t *testing.T) {
	for _, m := range []Message{sample(), func() Message { m := sample(); m.Statement = ""; m.ExpirationTime = time.Time{}; return m }()} {
		got, err := Parse(m.String())
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
}

func TestParseRefuses(t *testing.T) {
	good := sample().String()
	cases := map[string]string{
		"empty":         "",
		"lower address": replace(good, "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A", "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"),
		"bad header":    replace(good, "wants you to sign in", "wants you to log in"),
		"version 2":     replace(good, "Version: 1", "Version: 2"),
		"chain id text": replace(good, "Chain ID: 1337", "Chain ID: x"),
		"chain id zero": replace(good, "Chain ID: 1337", "Chain ID: 01337"),
		"short nonce":   replace(good, "a1B2c3D4e5F6g7H8", "abc"),
		"nonce symbol":  replace(good, "a1B2c3D4e5F6g7H8", "a1B2c3D4-5F6g7H8"),
		"bad time":      replace(good, "2026-11-22T00:00:00Z", "yesterday"),
		// time.Parse takes both; neither reads back once written in UTC.
		"one-digit hour":  replace(good, "2026-11-22T00:00:00Z", "2026-11-22T0:00:00Z"),
		"year 10000 UTC":  replace(good, "2026-11-22T00:00:00Z", "9999-12-31T23:00:00-01:00"),
		"extra line":      good + "\nResources:",
		"missing uri":     replace(good, "URI: http://127.0.0.1:8080/public/v1\n", ""),
		"two statements":  replace(good, "account.\n\n", "account.\nmore\n\n"),
		"domain w/ space": replace(good, "127.0.0.1:8080 wants", "evil .com wants"),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(text)
			require.ErrorIs(t, err, ErrMalformed)
		})
	}
}

func replace(s, old, new string) string { return strings.Replace(s, old, new, 1) }

func TestRecover(t *testing.T) {
	key, err := crypto.HexToECDSA("1111111111111111111111111111111111111111111111111111111111111111")
	require.NoError(t, err)
	text := sample().String()
	sig, err := crypto.Sign(accounts.TextHash([]byte(text)), key)
	require.NoError(t, err)
	sig[64] += 27 // wallets send v as 27/28
	addr, err := Recover(text, sig)
	require.NoError(t, err)
	require.Equal(t, crypto.PubkeyToAddress(key.PublicKey), addr)

	other, err := Recover(text+" ", sig)
	require.NoError(t, err)
	require.NotEqual(t, addr, other, "a different text recovers someone else")

	_, err = Recover(text, sig[:64])
	require.ErrorIs(t, err, ErrSignature)
	bad := append([]byte(nil), sig...)
	bad[64] = 29
	_, err = Recover(text, bad)
	require.ErrorIs(t, err, ErrSignature)
}

func FuzzParse(f *testing.F) {
	f.Add(sample().String())
	f.Add("x wants you to sign in with your Ethereum account:\n")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(m.String())
		require.NoError(t, err)
		require.Equal(t, m, again)
	})
}
