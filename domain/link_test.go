package domain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const (
	plID    = "pl_000001"
	fwdAddr = "0x00000000000000000000000000000000000000C4"
)

func createLinkCmd() CreateLink {
	return CreateLink{ID: plID, Account: acctID, Currency: "USDC", Amount: bi("100000000"), Description: "invoice 9",
		PayoutWallet: addrSum, ReceiveAddress: fwdAddr, TokenAddress: tokenUSDC, ChainID: 1337,
		URL: "http://127.0.0.1:8080/public/v1/pay/" + plID}
}

func pay(tx string, i uint64, amount string) PayLink {
	return PayLink{Payments: []LinkPayment{{TxHash: tx, LogIndex: i, Amount: bi(amount)}}}
}

func runLink(t *testing.T, c *clock, s *LinkState, cmds ...Command) []Reply {
	t.Helper()
	return runRows(t, c, s.Decide, s.applyRow, cmds...)
}

// A link paid in two parts: the second reaches the amount and fires the
// event once; a log counted twice changes nothing; money after that is
// late, with its own ledger entry, and all of it is forwarded.
func TestLinkPaidInParts(t *testing.T) {
	c := newClock()
	s := NewLinkState()
	r := runLink(t, c, s, createLinkCmd())
	require.Equal(t, 201, r[0].Status, string(r[0].Body))
	require.JSONEq(t, `{"id":"pl_000001","url":"http://127.0.0.1:8080/public/v1/pay/pl_000001","state":"open","currency":"USDC",
		"amount":"100","amount_received":"0","receive_address":"`+fwdAddr+`","payout_wallet":"`+addrSum+`","description":"invoice 9",
		"expires_at":null,"paid_at":null,"tx_hashes":[],"created_at":"2026-01-01T00:00:00Z"}`, string(r[0].Body))

	r = runLink(t, c, s, pay(hashFund, 0, "40000000"), pay(hashFund, 0, "40000000"), pay(hashOther, 3, "60000000"))
	require.Equal(t, []int{200, 200, 200}, statuses(r))
	require.Contains(t, string(r[1].Body), `"amount_received":"40"`, "a log counts once")
	l := s.Link
	require.Equal(t, LinkPaid, l.State)
	require.Equal(t, "100", FormatAmount(l.Received, 6))
	require.Equal(t, "evt_000001", l.EventID)
	require.Equal(t, t0.Add(3*time.Second), l.PaidAt)
	require.True(t, l.Live(), "money not forwarded yet keeps it live")

	r = runLink(t, c, s, pay(hashMaker, 1, "5000000"), CancelLink{Account: acctID})
	require.Equal(t, []int{200, 409}, statuses(r))
	require.Equal(t, "100", FormatAmount(s.Link.Received, 6), "late money does not count toward the amount")
	entries := s.Link.Ledger()
	require.Len(t, entries, 2)
	require.Equal(t, LinkPaid, entries[0].State)
	require.Equal(t, hashOther, entries[0].TxHash)
	require.Equal(t, LedgerLate, entries[1].State)
	require.Equal(t, "plp_000002", entries[1].ID)
	require.Equal(t, "5000000", entries[1].AmountIn.String())
	require.Equal(t, []string{hashFund, hashOther}, ViewLink(s.Link).TxHashes)

	require.Equal(t, "105000000", s.Link.Unforwarded().String())
	r = runLink(t, c, s, LinkForwarded{Total: bi("100000000"), TxHash: hashRefnd}, LinkForwarded{Total: bi("100000000")},
		LinkForwarded{Total: bi("105000000")})
	require.Equal(t, []int{200, 200, 200}, statuses(r))
	require.False(t, s.Link.Live(), "paid and fully forwarded")
	require.Equal(t, hashRefnd, s.Link.ForwardTxHash)
}

func TestLinkCancelAndExpire(t *testing.T) {
	c := newClock()
	s := NewLinkState()
	cmd := createLinkCmd()
	cmd.ExpiresAt = t0.Add(time.Hour)
	runLink(t, c, s, cmd)
	r := runLink(t, c, s, CancelLink{Account: "acct_other"}, ExpireLink{}, CancelLink{Account: acctID}, CancelLink{Account: acctID})
	require.Equal(t, []int{404, 409, 200, 409}, statuses(r))
	require.Equal(t, LinkCancelled, s.Link.State)
	require.False(t, s.Link.Live())

	s = NewLinkState()
	runLink(t, c, s, createLinkCmd())
	c.now = t0.Add(2 * time.Hour)
	require.Equal(t, []int{409}, statuses(runLink(t, c, s, ExpireLink{})), "a link without expires_at never expires")
	s = NewLinkState()
	c = newClock()
	runLink(t, c, s, cmd)
	c.now = t0.Add(time.Hour + time.Second)
	require.Equal(t, []int{200}, statuses(runLink(t, c, s, ExpireLink{})))
	require.Equal(t, LinkExpired, s.Link.State)
	require.Empty(t, s.Link.EventID)

	// Past expires_at the link cannot be cancelled, though its expiry is
	// recorded later (the expiry job waits a grace for payments mined in
	// time): at expires_at itself it still can.
	for _, tc := range []struct {
		at     time.Duration
		status int
		state  string
	}{
		{time.Hour, 200, LinkCancelled},
		{time.Hour + time.Second, 409, LinkOpen},
		{2 * time.Hour, 409, LinkOpen},
	} {
		s = NewLinkState()
		c = newClock()
		runLink(t, c, s, cmd)
		c.now = t0.Add(tc.at)
		r := runLink(t, c, s, CancelLink{Account: acctID})
		require.Equal(t, tc.status, r[0].Status, "cancel at expires_at%+v: %s", tc.at-time.Hour, r[0].Body)
		require.Equal(t, tc.state, s.Link.State)
		if tc.status == 409 {
			require.Contains(t, string(r[0].Body), `"code":"invalid_state"`)
			require.Contains(t, string(r[0].Body), "expired at 2026-01-01T01:00:00Z")
		}
	}
}

func TestLinkCreateValidationAndCodec(t *testing.T) {
	for name, edit := range map[string]func(*CreateLink){
		"refused":  func(c *CreateLink) { c.Refusal = ErrNotPermitted(MsgNotPermittedPay) },
		"amount":   func(c *CreateLink) { c.Amount = bi("0") },
		"currency": func(c *CreateLink) { c.Currency = "DOGE" },
		"expired":  func(c *CreateLink) { c.ExpiresAt = t0 },
		"payout":   func(c *CreateLink) { c.PayoutWallet = "0x1" },
		"desc":     func(c *CreateLink) { c.Description = "bell\a" },
	} {
		cmd := createLinkCmd()
		edit(&cmd)
		rows, _, err := NewLinkState().Decide(cmd, newClock().env())
		require.Nil(t, rows, name)
		require.NotNil(t, err, name)
	}
	c := newClock()
	s := NewLinkState()
	runLink(t, c, s, createLinkCmd(), pay(hashFund, 0, "100000000"), pay(hashOther, 1, "1"), LinkForwarded{Total: bi("7"), TxHash: hashMaker})
	back, err := UnmarshalLink(MarshalLink(nil, s.Link))
	require.NoError(t, err)
	require.Equal(t, s.Link, back)
	rec := Record{Entity: plID, Events: LinkEvents("", []*Link{s.Link})}
	got, err := UnmarshalRecord(MarshalRecord(nil, &rec))
	require.NoError(t, err)
	require.Equal(t, rec, got)
	row := *s.Link
	row.Forwarded = bi("1") // less than before: not a successor
	require.Panics(t, func() { s.applyRow(&row) })
}

// From expires_at on the link is expired (even before the expiry job ran,
// as every view shows it: Link.At) and money counted then is late, also
// when it was mined before; money mined after it is late whenever it is
// counted. A Transfer of nothing is skipped.
func TestLinkPaymentTimeAndZero(t *testing.T) {
	expires := t0.Add(time.Hour)
	at := func(p PayLink, mined time.Time) PayLink { p.Payments[0].MinedAt = mined; return p }
	for _, c := range []struct {
		name      string
		now       time.Time // the decision's clock
		payment   PayLink
		wantState string
		wantLate  int
		wantEvent bool
	}{
		{"paid in time", t0.Add(time.Minute), pay(hashFund, 0, "100000000"), LinkPaid, 0, true},
		{"mined after expiry, counted before the job", expires.Add(2 * time.Second), at(pay(hashFund, 0, "100000000"), expires.Add(time.Second)), LinkExpired, 1, false},
		{"no block time: the clock decides", expires.Add(2 * time.Second), pay(hashFund, 0, "100000000"), LinkExpired, 1, false},
		{"mined in time, counted after expiry: shown expired already", expires.Add(3 * time.Second), at(pay(hashFund, 0, "100000000"), expires.Add(-time.Second)), LinkExpired, 1, false},
		{"mined and counted at the expiry instant", expires, at(pay(hashFund, 0, "100000000"), expires), LinkPaid, 0, true},
		{"mined in time, counted one tick late", expires.Add(time.Nanosecond), at(pay(hashFund, 0, "100000000"), expires), LinkExpired, 1, false},
		{"a Transfer of nothing", t0.Add(time.Minute), pay(hashFund, 0, "0"), LinkOpen, 0, false},
	} {
		clk := newClock()
		s := NewLinkState()
		cmd := createLinkCmd()
		cmd.ExpiresAt = expires
		runLink(t, clk, s, cmd)
		clk.now = c.now
		r := runLink(t, clk, s, c.payment)
		require.Equal(t, 200, r[0].Status, c.name)
		require.Equal(t, c.wantState, s.Link.State, c.name)
		late := 0
		for _, p := range s.Link.Payments {
			if p.Late {
				late++
			}
		}
		require.Equal(t, c.wantLate, late, c.name)
		require.Equal(t, c.wantEvent, s.Link.EventID != "", c.name)
		if c.wantState == LinkOpen {
			require.Empty(t, s.Link.Payments, c.name)
		}
	}
}

// TestLinkAt: a view of an open link past its expires_at says expired
// before the expiry job records it; any other link reads as stored, and
// the stored link is never changed by a view.
func TestLinkAt(t *testing.T) {
	expires := t0.Add(time.Hour)
	for _, c := range []struct {
		name, state string
		expiresAt   time.Time
		now         time.Time
		want        string
	}{
		{"open, before expiry", LinkOpen, expires, expires.Add(-time.Second), LinkOpen},
		{"open, at the expiry instant", LinkOpen, expires, expires, LinkOpen},
		{"open, past expiry", LinkOpen, expires, expires.Add(time.Millisecond), LinkExpired},
		{"open, no expiry", LinkOpen, time.Time{}, expires.Add(24 * time.Hour), LinkOpen},
		{"paid, past expiry", LinkPaid, expires, expires.Add(time.Hour), LinkPaid},
		{"cancelled, past expiry", LinkCancelled, expires, expires.Add(time.Hour), LinkCancelled},
	} {
		l := &Link{ID: "pl_x", State: c.state, ExpiresAt: c.expiresAt}
		require.Equal(t, c.want, l.At(c.now).State, c.name)
		require.Equal(t, c.want, ViewLink(l.At(c.now)).State, c.name)
		require.Equal(t, c.want, ViewPublicLink(l.At(c.now)).State, c.name)
		require.Equal(t, c.state, l.State, c.name)
	}
}
