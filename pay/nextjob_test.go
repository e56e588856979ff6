package pay

import (
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func TestNextTransferJob(t *testing.T) {
	exp := t0.Add(time.Hour)
	for _, tc := range []struct {
		name        string
		state, from string
		now         time.Time
		want        jobKind
	}{
		{"created, in time", domain.TransferCreated, "USDC", t0, jobNone},
		{"created, just past expiry (grace)", domain.TransferCreated, "USDC", exp.Add(time.Second), jobNone},
		{"created, past expiry and grace", domain.TransferCreated, "USDC", exp.Add(expiryGrace + time.Second), jobExpire},
		{"accepted, past expiry", domain.TransferAccepted, "EURC", exp.Add(time.Minute), jobExpire},
		{"accepted, in time", domain.TransferAccepted, "EURC", t0, jobNone},
		{"submitted cross: relay", domain.TransferSubmitted, "EURC", t0, jobRelay},
		{"submitted cross past expiry: still relay", domain.TransferSubmitted, "EURC", exp.Add(time.Hour), jobRelay},
		{"submitted same: confirm", domain.TransferSubmitted, "USDC", t0, jobConfirm},
		{"confirmed", domain.TransferConfirmed, "USDC", exp.Add(time.Hour), jobNone},
		{"failed", domain.TransferFailed, "EURC", t0, jobNone},
	} {
		tr := &domain.Transfer{State: tc.state, FromCurrency: tc.from, Currency: "USDC", ExpiresAt: exp}
		require.Equal(t, tc.want, nextJob(tr, tc.now), tc.name)
	}
}

func TestNextLinkJob(t *testing.T) {
	exp := t0.Add(time.Hour)
	paid := []domain.LinkPayment{{TxHash: "0x1", Amount: big.NewInt(10)}}
	link := func(state string, expires time.Time, payments []domain.LinkPayment, forwarded int64) *domain.Link {
		return &domain.Link{State: state, ExpiresAt: expires, Payments: payments, Forwarded: big.NewInt(forwarded)}
	}
	for _, tc := range []struct {
		name     string
		l        *domain.Link
		lastScan time.Time
		now      time.Time
		want     linkJob
	}{
		{"open, just scanned", link(domain.LinkOpen, exp, nil, 0), t0, t0.Add(time.Second), linkNone},
		{"open, scan due", link(domain.LinkOpen, exp, nil, 0), t0, t0.Add(linkScanEvery), linkScan},
		{"open, never expires", link(domain.LinkOpen, time.Time{}, nil, 0), t0, t0.Add(48 * time.Hour), linkScan},
		{"open, at the expiry instant", link(domain.LinkOpen, exp, nil, 0), exp, exp, linkNone},
		{"open, past expiry: no grace, views show it expired already", link(domain.LinkOpen, exp, nil, 0), exp, exp.Add(time.Millisecond), linkExpire},
		{"open, partly paid: wait for the rest", link(domain.LinkOpen, time.Time{}, paid, 0), t0, t0.Add(time.Second), linkNone},
		{"paid, not forwarded", link(domain.LinkPaid, exp, paid, 0), t0, t0, linkForward},
		{"paid, forwarded", link(domain.LinkPaid, exp, paid, 10), t0, t0, linkNone},
		{"expired with money", link(domain.LinkExpired, exp, paid, 0), t0, t0, linkForward},
		{"cancelled, empty", link(domain.LinkCancelled, exp, nil, 0), t0, t0, linkNone},
	} {
		require.Equal(t, tc.want, nextLinkJob(&linkTracked{l: tc.l, lastScan: tc.lastScan}, tc.now), tc.name)
	}
}
