package actors

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// A refusal kept with a key (RecordAnswer) by an account and by an order
// it creates: the command stores it once and replays it after, Answered
// finds it without running anything (422 for another body, nothing for
// another key), and both hold after a restart, byte for byte.
func TestRecordAnswerAndAnsweredAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	e := openEngine(t, dir)
	acct := createAccount(t, e)
	ctx := context.Background()
	refusal := domain.ErrInvalid("request body must be a JSON object").Reply()
	cases := []struct {
		name string
		id   string
		kind domain.Kind
	}{
		{"account", acct, 0},
		{"order made for it", e.NewID("ord_", acct), domain.KindOrder},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := domain.Request{Cmd: domain.RecordAnswer{Reply: refusal, Kind: tc.kind}, Idem: idem("k1", "{")}
			exec := e.Create // the order's first record makes it
			if tc.kind == 0 {
				_, found, err := e.Answered(ctx, acct, req.Idem)
				require.NoError(t, err)
				require.False(t, found, "nothing stored yet")
				exec = e.Exec
			}
			out, err := exec(ctx, tc.id, req)
			require.NoError(t, err)
			require.Equal(t, refusal, out.Reply)
			require.False(t, out.Replayed)
			again, err := e.Exec(ctx, tc.id, req)
			require.NoError(t, err)
			require.Equal(t, domain.Outcome{Reply: refusal, Replayed: true}, again)
		})
	}
	require.NoError(t, e.Close())

	e = openEngine(t, dir)
	defer e.Close()
	for _, tc := range cases {
		t.Run(tc.name+" after restart", func(t *testing.T) {
			looks := []struct {
				name  string
				idem  *domain.IdemRequest
				found bool
				want  domain.Outcome
			}{
				{"same body replays", idem("k1", "{"), true, domain.Outcome{Reply: refusal, Replayed: true}},
				{"another body is 422", idem("k1", "{}"), true, domain.Outcome{Reply: domain.ErrKeyReused().Reply()}},
				{"another key finds nothing", idem("k2", "{"), false, domain.Outcome{}},
			}
			for _, l := range looks {
				got, found, err := e.Answered(ctx, tc.id, l.idem)
				require.NoError(t, err, l.name)
				require.Equal(t, l.found, found, l.name)
				require.Equal(t, l.want, got, l.name)
			}
			out, err := e.Exec(ctx, tc.id, domain.Request{Cmd: domain.RecordAnswer{Reply: refusal, Kind: tc.kind}, Idem: idem("k1", "{")})
			require.NoError(t, err)
			require.Equal(t, domain.Outcome{Reply: refusal, Replayed: true}, out)
		})
	}
	_, _, err := e.Answered(ctx, "acct_missing", idem("k1", "{"))
	require.ErrorIs(t, err, ErrNoAccount)
}
