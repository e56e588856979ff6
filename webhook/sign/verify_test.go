package sign

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fixture is one delivery signed during a rotation: oldSecret is the
// endpoint's previous secret, newSecret the current one.
type fixture struct {
	oldSecret, newSecret string
	id                   string
	ts                   int64
	body                 []byte
	header               string // newest first
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	f := fixture{id: "evt_01", ts: 1795000000, body: []byte(`{"id":"evt_01","type":"webhook.test"}`)}
	var err error
	f.oldSecret, err = NewSecret()
	require.NoError(t, err)
	f.newSecret, err = NewSecret()
	require.NoError(t, err)
	oldKey, err := ParseSecret(f.oldSecret)
	require.NoError(t, err)
	newKey, err := ParseSecret(f.newSecret)
	require.NoError(t, err)
	f.header, err = Header([][]byte{newKey, oldKey}, f.id, f.ts, f.body)
	require.NoError(t, err)
	require.Equal(t, Sign(newKey, f.id, f.ts, f.body)+" "+Sign(oldKey, f.id, f.ts, f.body), f.header)
	return f
}

func (f fixture) tsHeader() string { return strconv.FormatInt(f.ts, 10) }

func TestHeaderBounds(t *testing.T) {
	key := make([]byte, 32)
	_, err := Header(nil, "evt_01", 1, nil)
	require.ErrorContains(t, err, "no key")
	_, err = Header([][]byte{key, key, key}, "evt_01", 1, nil)
	require.ErrorContains(t, err, "at most 2")
}

func TestVerifyRotation(t *testing.T) {
	f := newFixture(t)
	now := time.Unix(f.ts, 0)
	for _, secret := range []string{f.newSecret, f.oldSecret} {
		require.NoError(t, Verify(secret, f.id, f.tsHeader(), f.header, f.body, now, time.Minute))
	}
	third, err := NewSecret()
	require.NoError(t, err)
	require.ErrorIs(t, Verify(third, f.id, f.tsHeader(), f.header, f.body, now, time.Minute), ErrNoMatch)
}

func TestVerifyRefuses(t *testing.T) {
	f := newFixture(t)
	ts := f.tsHeader()
	now := time.Unix(f.ts, 0)
	other, err := NewSecret()
	require.NoError(t, err)
	newSig, oldSig, _ := strings.Cut(f.header, " ")

	tests := []struct {
		name       string
		secret, id string
		ts, sig    string
		body       string
		now        time.Time
		want       error // nil: accepted
	}{
		{"as sent", f.newSecret, f.id, ts, f.header, string(f.body), now, nil},
		{"one signature", f.oldSecret, f.id, ts, oldSig, string(f.body), now, nil},
		{"other versions skipped", f.newSecret, f.id, ts, "v2,xyz v1a,abc " + newSig, string(f.body), now, nil},
		{"doubled space", f.newSecret, f.id, ts, oldSig + "  " + newSig, string(f.body), now, nil},
		{"edge of tolerance, late", f.newSecret, f.id, ts, newSig, string(f.body), now.Add(time.Minute), nil},
		{"edge of tolerance, early", f.newSecret, f.id, ts, newSig, string(f.body), now.Add(-time.Minute), nil},

		{"tampered body", f.newSecret, f.id, ts, f.header, string(f.body) + " ", now, ErrNoMatch},
		{"empty body", f.newSecret, f.id, ts, f.header, "", now, ErrNoMatch},
		{"tampered id", f.newSecret, "evt_02", ts, f.header, string(f.body), now, ErrNoMatch},
		{"tampered timestamp", f.newSecret, f.id, "1795000001", f.header, string(f.body), now, ErrNoMatch},
		{"wrong secret", other, f.id, ts, f.header, string(f.body), now, ErrNoMatch},
		{"old signature only, new secret", f.newSecret, f.id, ts, oldSig, string(f.body), now, ErrNoMatch},
		{"signature of another version", f.newSecret, f.id, ts, "v2" + newSig[2:], string(f.body), now, ErrMalformed},
		{"upper-case version", f.newSecret, f.id, ts, "V1" + newSig[2:], string(f.body), now, ErrMalformed},
		{"unpadded signature", f.newSecret, f.id, ts, strings.TrimRight(newSig, "="), string(f.body), now, ErrNoMatch},
		{"raw MAC bytes", f.newSecret, f.id, ts, "v1," + strings.Repeat("\x00", 32), string(f.body), now, ErrNoMatch},

		{"too old", f.newSecret, f.id, ts, f.header, string(f.body), now.Add(time.Minute + time.Second), ErrTimestamp},
		{"too new", f.newSecret, f.id, ts, f.header, string(f.body), now.Add(-time.Minute - time.Second), ErrTimestamp},
		{"far future", f.newSecret, f.id, "999999999999", f.header, string(f.body), now, ErrTimestamp},
		{"zero", f.newSecret, f.id, "0", f.header, string(f.body), now, ErrTimestamp},

		{"empty id", f.newSecret, "", ts, f.header, string(f.body), now, ErrMalformed},
		{"empty timestamp", f.newSecret, f.id, "", f.header, string(f.body), now, ErrMalformed},
		{"leading zero", f.newSecret, f.id, "0" + ts, f.header, string(f.body), now, ErrMalformed},
		{"plus sign", f.newSecret, f.id, "+" + ts, f.header, string(f.body), now, ErrMalformed},
		{"negative", f.newSecret, f.id, "-" + ts, f.header, string(f.body), now, ErrMalformed},
		{"milliseconds", f.newSecret, f.id, ts + "000", f.header, string(f.body), now, ErrMalformed},
		{"fraction", f.newSecret, f.id, ts + ".5", f.header, string(f.body), now, ErrMalformed},
		{"space", f.newSecret, f.id, " " + ts, f.header, string(f.body), now, ErrMalformed},
		{"overflow", f.newSecret, f.id, "99999999999999999999999", f.header, string(f.body), now, ErrMalformed},
		{"empty signature", f.newSecret, f.id, ts, "", string(f.body), now, ErrMalformed},
		{"spaces only", f.newSecret, f.id, ts, "   ", string(f.body), now, ErrMalformed},
		{"no comma", f.newSecret, f.id, ts, "v1" + newSig[3:], string(f.body), now, ErrMalformed},
		{"comma only", f.newSecret, f.id, ts, ",", string(f.body), now, ErrMalformed},
		{"version only", f.newSecret, f.id, ts, "v1,", string(f.body), now, ErrNoMatch},
		{"huge header", f.newSecret, f.id, ts, strings.Repeat(newSig+" ", 100), string(f.body), now, ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify(tc.secret, tc.id, tc.ts, tc.sig, []byte(tc.body), tc.now, time.Minute)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tc.want)
			require.NotContains(t, err.Error(), tc.secret[len(SecretPrefix):])
		})
	}
}

func TestVerifyBadSecret(t *testing.T) {
	f := newFixture(t)
	err := Verify("whsec_short", f.id, f.tsHeader(), f.header, f.body, time.Unix(f.ts, 0), 0)
	require.Error(t, err)
	for _, sentinel := range []error{ErrMalformed, ErrTimestamp, ErrNoMatch} {
		require.False(t, errors.Is(err, sentinel), "a bad secret is the receiver's fault, not the delivery's")
	}
}

func TestVerifyDefaultTolerance(t *testing.T) {
	f := newFixture(t)
	now := time.Unix(f.ts, 0)
	require.NoError(t, Verify(f.newSecret, f.id, f.tsHeader(), f.header, f.body, now.Add(DefaultTolerance), 0))
	require.ErrorIs(t, Verify(f.newSecret, f.id, f.tsHeader(), f.header, f.body, now.Add(DefaultTolerance+time.Second), 0), ErrTimestamp)
}
