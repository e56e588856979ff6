package actors

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
)

const (
	payeeAddr = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	walletSum = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	txHash    = "0x1111111111111111111111111111111111111111111111111111111111111111"
)

// TestEveryKindOnOneHost: a transfer, a payment link and a log claim go
// through the same host as accounts and orders: durable, rebuilt exactly
// after a restart, listed per account, found by lookup key, in the ledger,
// and refused with the right error value when their kind says no.
func TestEveryKindOnOneHost(t *testing.T) {
	dir := t.TempDir()
	e := openEngine(t, dir)
	ctx := context.Background()
	acct := createAccount(t, e)

	trID := e.NewID("tr_", acct)
	out, err := e.Create(ctx, trID, domain.Request{Cmd: domain.CreateTransfer{ID: trID, Account: acct, FromCurrency: "USDC", Currency: "USDC",
		Amount: big.NewInt(5_000_000), Recipient: payeeAddr, SourceWallet: walletSum, Signing: []byte(`{}`)}})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))
	plID := e.NewID("pl_", acct)
	out, err = e.Create(ctx, plID, domain.Request{Cmd: domain.CreateLink{ID: plID, Account: acct, Currency: "EURC", Amount: big.NewInt(7),
		PayoutWallet: walletSum, ReceiveAddress: payeeAddr, TokenAddress: walletSum, URL: "http://x/pay/" + plID}})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))

	claim := domain.ClaimLog{TxHash: txHash, LogIndex: 1, By: trID}
	out, err = e.Create(ctx, domain.ClaimID(txHash), domain.Request{Cmd: claim})
	require.NoError(t, err)
	require.Nil(t, out.Err)
	claim.By = "tr_other"
	out, err = e.Create(ctx, domain.ClaimID(txHash), domain.Request{Cmd: claim})
	require.NoError(t, err)
	require.Equal(t, domain.CodeTxAlreadyUsed, out.Err.Code, "the refusal is a value")

	_, err = e.Exec(ctx, e.NewID("tr_", acct), domain.Request{Cmd: domain.ExpireTransfer{}})
	require.ErrorIs(t, err, ErrNoEntity, "an unknown transfer spawns nothing")
	require.Panics(t, func() { _, _ = e.Exec(ctx, trID, domain.Request{Cmd: domain.ExpireLink{}}) }, "a link command never reaches a transfer")
	require.NoError(t, e.Close())

	e = openEngine(t, dir)
	defer e.Close()
	v, err := e.Read(ctx, trID, func(s domain.Entity) any { return s.(*domain.TransferState).Transfer })
	require.NoError(t, err)
	require.Equal(t, domain.TransferCreated, v.(*domain.Transfer).State)
	out, err = e.Create(ctx, domain.ClaimID(txHash), domain.Request{Cmd: claim})
	require.NoError(t, err)
	require.Equal(t, domain.CodeTxAlreadyUsed, out.Err.Code, "claims survive a restart")

	rows, err := e.AccountRows(ctx, acct, domain.KindLink, "", 10)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.Equal(t, plID, rows[0].RowID())
	require.NoError(t, e.CatchUp(ctx))
	byKey, err := e.RowByKey(domain.AddressKey(payeeAddr))
	require.NoError(t, err)
	require.Equal(t, plID, byKey.RowID())
	var live []string
	require.NoError(t, e.LiveRows(domain.KindTransfer, nil, 10, func(r domain.Row) error { live = append(live, r.RowID()); return nil }))
	require.Equal(t, []string{trID}, live)
	var ledger []string
	require.NoError(t, e.Ledger(ctx, acct, "", domain.LedgerFilter{}, func(en *domain.LedgerEntry) bool { ledger = append(ledger, en.ID); return true }))
	require.Equal(t, []string{plID, trID}, ledger, "newest first, every kind in one ledger")
}

// TestFreshIDsSkipTheStore: an id Reserve draws without a key is fresh,
// one reserved under a key is not. A fresh record is created without a
// read of the store, and is durable like any other: after a restart it is
// loaded from the store. That the fresh path does not read is shown by
// misusing it once: Fresh set on an id the store holds starts empty, and
// the create decides as for a new record, where Create, which reads,
// refuses it.
func TestFreshIDsSkipTheStore(t *testing.T) {
	dir := t.TempDir()
	e := openEngine(t, dir)
	ctx := context.Background()
	acct := createAccount(t, e)
	create := func(id string) domain.Request {
		return domain.Request{Cmd: domain.CreateTransfer{ID: id, Account: acct, FromCurrency: "USDC", Currency: "USDC",
			Amount: big.NewInt(5_000_000), Recipient: payeeAddr, SourceWallet: walletSum, Signing: []byte(`{}`)}}
	}

	keyed, _, err := e.Reserve(ctx, acct, domain.KindTransfer, idem("k", "body"))
	require.NoError(t, err)
	require.False(t, keyed.Fresh, "a retry with the key learns the id")
	r, _, err := e.Reserve(ctx, acct, domain.KindTransfer, nil)
	require.NoError(t, err)
	require.True(t, r.Fresh)
	out, err := e.CreateReserved(ctx, r, create(r.ID))
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))
	require.NoError(t, e.Close())

	e = openEngine(t, dir)
	out, err = e.Create(ctx, r.ID, create(r.ID))
	require.NoError(t, err)
	require.Equal(t, domain.CodeInvalidState, out.Err.Code, "the stored transfer was loaded: it exists")
	require.NoError(t, e.Close())

	e = openEngine(t, dir)
	out, err = e.CreateReserved(ctx, Reserved{ID: r.ID, Fresh: true}, create(r.ID))
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, "a fresh activation does not read the store: %s", out.Reply.Body)
	require.NoError(t, e.Close())
}

// TestIDsCarryTheAccountPartition: every id the engine makes for an
// account's records (drawn fresh, reserved under an Idempotency-Key, minted
// inside a decision: a contact's, a transfer's event's) carries the
// account's partition, so a request naming any of them can be routed to
// the account's owner without a lookup (DESIGN.md, "Beyond one machine").
func TestIDsCarryTheAccountPartition(t *testing.T) {
	e := openEngine(t, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	seen := map[int]bool{}
	for i := range 8 {
		acct := createAccount(t, e)
		p, ok := ids.Partition(acct)
		require.True(t, ok, acct)
		seen[p] = true
		minted := []string{e.NewID("pl_", acct)}

		reserved, out, err := e.Reserve(ctx, acct, domain.KindTransfer, idem(fmt.Sprintf("r%d", i), "body"))
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, string(out.Reply.Body))
		require.False(t, reserved.Fresh, "reserved under a key")
		minted = append(minted, reserved.ID)

		out, err = e.Exec(ctx, acct, domain.Request{Cmd: contactCmd(i)})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))
		var ct struct{ ID string }
		require.NoError(t, json.Unmarshal(out.Reply.Body, &ct))
		minted = append(minted, ct.ID)

		out, err = e.CreateReserved(ctx, reserved, domain.Request{Cmd: domain.CreateTransfer{ID: reserved.ID, Account: acct, FromCurrency: "USDC",
			Currency: "USDC", Amount: big.NewInt(5_000_000), Recipient: payeeAddr, SourceWallet: walletSum, Signing: []byte(`{}`)}})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status, string(out.Reply.Body))
		out, err = e.Exec(ctx, reserved.ID, domain.Request{Cmd: domain.SubmitTransferTx{TxHash: txHash, Status: domain.TxVerified}})
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, string(out.Reply.Body))
		v, err := e.Read(ctx, reserved.ID, func(s domain.Entity) any { return s.(*domain.TransferState).Transfer.EventID })
		require.NoError(t, err)
		minted = append(minted, v.(string))

		for _, id := range minted {
			got, ok := ids.Partition(id)
			require.True(t, ok, id)
			require.Equal(t, p, got, "%s of account %s", id, acct)
		}
	}
	require.Greater(t, len(seen), 1, "accounts spread over partitions")
}

// TestGuardedCreateAcrossRestart: a create whose signature is guarded
// (httpd: stamped ahead of the clock, no Idempotency-Key) reserves its id
// through the account, which stores the guard; after a restart the same
// signature's Reserve is 401 replayed, so no second record is made. A
// look-only guard (the new process's view of the same signature) finds
// it too; the first use with a look-only guard stores nothing and is
// fresh to the account (its reserve has no record to write).
func TestGuardedCreateAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	e := openEngine(t, dir)
	ctx := context.Background()
	acct := createAccount(t, e)
	var sig [64]byte
	sig[1] = 9
	guard := func(lookOnly bool) *domain.IdemRequest {
		return &domain.IdemRequest{Scope: domain.GuardScope("svc_test_k", "POST", "/public/v1/transfers", &sig),
			BodyHash: sha256.Sum256([]byte("body")), Until: time.Now().Add(time.Minute), LookOnly: lookOnly}
	}
	create := func(id string) domain.Request {
		return domain.Request{Cmd: domain.CreateTransfer{ID: id, Account: acct, FromCurrency: "USDC", Currency: "USDC",
			Amount: big.NewInt(5_000_000), Recipient: payeeAddr, SourceWallet: walletSum, Signing: []byte(`{}`)}, Idem: guard(false)}
	}
	r, out, err := e.Reserve(ctx, acct, domain.KindTransfer, guard(false))
	require.NoError(t, err)
	require.NotEmpty(t, r.ID, "%s", out.Reply.Body)
	require.True(t, r.Fresh, "no request learns a guarded id: its create need not read the store")
	require.Len(t, out.Events, 1, "the account stores the guard")
	out, err = e.CreateReserved(ctx, r, create(r.ID))
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, "%s", out.Reply.Body)
	require.NoError(t, e.Close())

	e = openEngine(t, dir)
	defer e.Close()
	for _, lookOnly := range []bool{false, true} {
		again, out, err := e.Reserve(ctx, acct, domain.KindTransfer, guard(lookOnly))
		require.NoError(t, err)
		require.Empty(t, again.ID, "look-only %v: no id for a replay", lookOnly)
		require.Equal(t, 401, out.Reply.Status, "%s", out.Reply.Body)
		require.Equal(t, domain.CodeReplayed, out.Err.Code)
	}
	rows, err := e.AccountRows(ctx, acct, domain.KindTransfer, "", 10)
	require.NoError(t, err)
	require.Len(t, rows, 1, "one transfer")

	sig[1] = 10 // another signature, first seen by a process that only looks
	r, out, err = e.Reserve(ctx, acct, domain.KindTransfer, guard(true))
	require.NoError(t, err)
	require.NotEmpty(t, r.ID, "%s", out.Reply.Body)
	require.True(t, r.Fresh)
	require.Empty(t, out.Events, "a look-only reserve writes nothing")
}
