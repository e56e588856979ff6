package domain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const (
	trID      = "tr_000001"
	erc20JS   = `{"type":"erc20_transfer","tx":{"chainId":1337,"to":"0x0","data":"0x","value":"0"}}`
	tokenUSDC = "0x00000000000000000000000000000000000000A1"
	tokenEURC = "0x00000000000000000000000000000000000000e2"
	poolAddr  = "0x00000000000000000000000000000000000000F3"
)

func createTransferCmd(from, to string) CreateTransfer {
	c := CreateTransfer{ID: trID, Account: acctID, FromCurrency: from, Currency: to, Amount: bi("250000000"),
		Recipient: addr2Sum, SourceWallet: addrLower, Memo: "rent"}
	if from == to {
		c.Signing = []byte(erc20JS)
	}
	return c
}

func gaslessLeg() *GaslessTerms {
	return &GaslessTerms{Signer: addrSum, TokenIn: tokenUSDC, TokenOut: "0x00000000000000000000000000000000000000E2",
		AmountIn: bi("250000000"), MinAmountOut: bi("228000000"), Recipient: addr2Sum, Pool: poolAddr,
		Deadline: bi("1767225720"), Nonce: bi("77")}
}

// runTransfer decides and applies each command in turn and returns every
// reply; a refused command applies nothing.
func runTransfer(t *testing.T, c *clock, s *TransferState, cmds ...Command) []Reply {
	t.Helper()
	return runRows(t, c, s.Decide, s.applyRow, cmds...)
}

// runRows runs cmds through decide one second apart, applying the rows
// of each, and returns every reply (a refusal's rendered error).
func runRows[R any](t *testing.T, c *clock, decide func(Command, Env) ([]R, Reply, *Error), apply func(R), cmds ...Command) []Reply {
	t.Helper()
	var replies []Reply
	for _, cmd := range cmds {
		rows, reply, err := decide(cmd, c.env())
		if err != nil {
			reply = err.Reply()
		}
		for _, r := range rows {
			apply(r)
		}
		replies = append(replies, reply)
		c.advance(time.Second)
	}
	return replies
}

func TestTransferSameCurrency(t *testing.T) {
	c := newClock()
	s := NewTransferState()
	r := runTransfer(t, c, s, createTransferCmd("USDC", "USDC"))
	require.Equal(t, 201, r[0].Status, string(r[0].Body))
	require.JSONEq(t, `{"id":"tr_000001","state":"created","from_currency":"USDC","currency":"USDC","amount":"250",
		"amount_out":"250","min_amount_out":"250","recipient":"`+addr2Sum+`","contact_id":null,"source_wallet":"`+addrSum+`",
		"memo":"rent","signing":`+erc20JS+`,"tx_hash":null,"failure_reason":null,"expires_at":"2026-01-01T01:00:00Z",
		"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`, string(r[0].Body))

	r = runTransfer(t, c, s,
		SubmitTransferSignature{Signature: goodSig, Verified: true}, // wrong kind of submit
		SubmitTransferTx{TxHash: hashFund, Status: TxPending},       // not mined yet
		SubmitTransferTx{TxHash: hashFund, Status: TxPending},       // the same again: an answer
		SubmitTransferTx{TxHash: hashOther, Status: TxPending},      // another unmined tx while one is pending
		SubmitTransferTx{TxHash: hashOther, Status: TxUnchecked},    // not looked up: refused
		TransferMined{TxHash: hashFund, Success: true, LogIndex: 3}, // the watcher finishes it
		SubmitTransferTx{TxHash: hashFund, Status: TxVerified},      // the caller's submit after that
		SubmitTransferTx{TxHash: hashOther},                         // confirmed: another tx is not looked up
		ExpireTransfer{},
	)
	require.Equal(t, []int{400, 200, 200, 409, 409, 200, 200, 409, 409}, statuses(r))
	require.Equal(t, TransferConfirmed, s.Transfer.State)
	require.Equal(t, hashFund, s.Transfer.TxHash)
	require.Equal(t, uint64(3), s.Transfer.LogIndex)
	require.Equal(t, "evt_000001", s.Transfer.EventID)
}

// TestTransferSubmittedReplaced: a transfer submitted with a tx that is not
// mined is confirmed by another mined tx that pays it exactly (a wallet's
// speed-up changes the hash); the first tx no longer finishes it.
func TestTransferSubmittedReplaced(t *testing.T) {
	c := newClock()
	s := NewTransferState()
	r := runTransfer(t, c, s, createTransferCmd("USDC", "USDC"),
		SubmitTransferTx{TxHash: hashFund, Status: TxPending},
		SubmitTransferTx{TxHash: hashOther, Status: TxVerified, LogIndex: 2},
		TransferMined{TxHash: hashFund, Success: true, LogIndex: 3},
		SubmitTransferTx{TxHash: hashFund},
	)
	require.Equal(t, []int{201, 200, 200, 409, 409}, statuses(r))
	require.Equal(t, TransferConfirmed, s.Transfer.State)
	require.Equal(t, hashOther, s.Transfer.TxHash)
	require.Equal(t, uint64(2), s.Transfer.LogIndex)
	require.False(t, s.Transfer.WantsTx())
}

func TestTransferSameCurrencyVerifiedAtOnce(t *testing.T) {
	c := newClock()
	s := NewTransferState()
	r := runTransfer(t, c, s, createTransferCmd("EURC", "EURC"), SubmitTransferTx{TxHash: hashFund, Status: TxVerified, LogIndex: 1},
		SubmitTransferTx{TxHash: hashOther, Status: TxVerified})
	require.Equal(t, []int{201, 200, 409}, statuses(r))
	require.Equal(t, TransferConfirmed, s.Transfer.State)
}

func TestTransferCrossCurrency(t *testing.T) {
	c := newClock()
	s := NewTransferState()
	issues := Issues{Allowance: &AllowanceIssue{Token: tokenUSDC, Spender: "0xP", Actual: "0", Required: "250"}}
	accept := AcceptTransfer{Account: acctID, Gasless: gaslessLeg(), AmountOut: bi("229000000"), Signing: []byte(`{"type":"permit2_witness"}`), Issues: issues}
	r := runTransfer(t, c, s, createTransferCmd("USDC", "EURC"))
	require.Equal(t, 201, r[0].Status)
	require.Contains(t, string(r[0].Body), `"amount_out":null,"min_amount_out":null`)
	require.Contains(t, string(r[0].Body), `"signing":null`)

	other := accept
	other.Account = "acct_other"
	wrong := accept
	wrong.Gasless = gaslessLeg()
	wrong.Gasless.Recipient = addrSum // not the payee
	revoked := AcceptTransfer{Account: acctID, Refusal: ErrNotPermitted(MsgNotPermittedPay)}
	r = runTransfer(t, c, s, other, wrong, SubmitTransferTx{TxHash: hashFund, Status: TxPending},
		SubmitTransferSignature{Signature: goodSig, Verified: true}, // before accept
		accept, accept, revoked)
	require.Equal(t, []int{404, 400, 400, 409, 200, 200, 403}, statuses(r))
	require.Contains(t, string(r[4].Body), `"issues":{"allowance":{"token":"`+tokenUSDC+`","spender":"0xP","actual":"0","required":"250"},"balance":null}`)
	require.Contains(t, string(r[5].Body), `"state":"accepted"`, "a re-accept answers as it is")
	require.Contains(t, string(r[6].Body), MsgNotPermittedPay, "unless the account could not accept it now")
	require.Equal(t, TransferAccepted, s.Transfer.State)
	require.Equal(t, "2026-01-01T00:02:00Z", RFC3339(s.Transfer.ExpiresAt), "the leg's deadline")

	short := ErrPreflight(CodeInsufficientAllowance, "allowance short")
	r = runTransfer(t, c, s,
		SubmitTransferSignature{Signature: goodSig, Verified: false},
		SubmitTransferSignature{Signature: goodSig, Verified: true, Preflight: short},
		SubmitTransferSignature{Signature: goodSig, Verified: true},
		TransferMined{TxHash: hashOther, Success: true, AmountOut: bi("1")}, // below min_amount_out
		TransferMined{TxHash: hashOther, Success: true, AmountOut: bi("228500000")},
	)
	require.Equal(t, []int{400, 400, 200, 400, 200}, statuses(r))
	require.Contains(t, string(r[0].Body), CodeInvalidSignature)
	require.Contains(t, string(r[1].Body), CodeInsufficientAllowance)
	require.Equal(t, TransferConfirmed, s.Transfer.State)
	require.Equal(t, "228500000", s.Transfer.AmountOut.String())
	require.Equal(t, hashOther, s.Transfer.TxHash)
}

func TestTransferRelayFailsAndExpiry(t *testing.T) {
	c := newClock()
	s := NewTransferState()
	accept := AcceptTransfer{Account: acctID, Gasless: gaslessLeg(), AmountOut: bi("229000000"), Signing: []byte(`{}`)}
	runTransfer(t, c, s, createTransferCmd("USDC", "EURC"), accept, SubmitTransferSignature{Signature: goodSig, Verified: true},
		TransferMined{Reason: "InsufficientBalance(0xA, 0, 1)"})
	require.Equal(t, TransferFailed, s.Transfer.State)
	require.Equal(t, "InsufficientBalance(0xA, 0, 1)", s.Transfer.FailureReason)
	require.NotEmpty(t, s.Transfer.EventID)

	s = NewTransferState()
	c = newClock()
	r := runTransfer(t, c, s, createTransferCmd("USDC", "USDC"), ExpireTransfer{})
	require.Equal(t, []int{201, 409}, statuses(r), "not before its expiry")
	c.now = t0.Add(TransferTTL + time.Second)
	r = runTransfer(t, c, s, SubmitTransferTx{TxHash: hashFund, Status: TxPending}, ExpireTransfer{})
	require.Equal(t, []int{409, 200}, statuses(r))
	require.Equal(t, TransferExpired, s.Transfer.State)
	require.Empty(t, s.Transfer.EventID, "expiry fires no event")
}

func TestTransferCreateValidation(t *testing.T) {
	for name, edit := range map[string]func(*CreateTransfer){
		"refused":     func(c *CreateTransfer) { c.Refusal = ErrNotPermitted(MsgNotPermittedPay) },
		"zero amount": func(c *CreateTransfer) { c.Amount = bi("0") },
		"too much":    func(c *CreateTransfer) { c.Amount = bi("10000000000001") },
		"currency":    func(c *CreateTransfer) { c.Currency = "BTC" },
		"recipient":   func(c *CreateTransfer) { c.Recipient = "0x12" },
		"zero recipient": func(c *CreateTransfer) {
			c.Recipient = "0x0000000000000000000000000000000000000000"
		},
		"memo":  func(c *CreateTransfer) { c.Memo = string(make([]byte, 141)) },
		"no id": func(c *CreateTransfer) { c.ID = "" },
	} {
		cmd := createTransferCmd("USDC", "USDC")
		edit(&cmd)
		rows, _, err := NewTransferState().Decide(cmd, newClock().env())
		require.Nil(t, rows, name)
		require.NotNil(t, err, name)
	}
	rows, _, err := NewTransferState().Decide(createTransferCmd("USDC", "USDC"), newClock().env())
	require.Nil(t, err)
	created, err2 := time.Parse(time.RFC3339, RFC3339(rows[0].CreatedAt))
	require.NoError(t, err2)
	require.Equal(t, RFC3339(created.Add(time.Hour)), RFC3339(rows[0].ExpiresAt), "expires_at is created_at + 1 h exactly, as shown")
	require.Equal(t, rows[0].ExpiresAt, rows[0].ExpiresAt.Truncate(time.Second), "and the instant shown is the one checked")
	_, _, err = NewTransferState().Decide(ExpireTransfer{}, newClock().env())
	require.Equal(t, 404, err.Status)
}

func TestTransferCodecRoundTrip(t *testing.T) {
	c := newClock()
	s := NewTransferState()
	runTransfer(t, c, s, createTransferCmd("USDC", "EURC"),
		AcceptTransfer{Account: acctID, Gasless: gaslessLeg(), AmountOut: bi("229000000"), Signing: []byte(`{"a":1}`)},
		SubmitTransferSignature{Signature: goodSig, Verified: true})
	back, err := UnmarshalTransfer(MarshalTransfer(nil, s.Transfer))
	require.NoError(t, err)
	require.Equal(t, s.Transfer, back)
	rec := Record{Entity: trID, Events: TransferEvents("", []*Transfer{s.Transfer})}
	got, err := UnmarshalRecord(MarshalRecord(nil, &rec))
	require.NoError(t, err)
	require.Equal(t, rec, got)
	_, err = UnmarshalTransfer(MarshalTransfer(nil, &Transfer{ID: trID, State: "bogus"}))
	require.Error(t, err)
}

func TestTransferApplyRefusesOffGraph(t *testing.T) {
	c := newClock()
	s := NewTransferState()
	runTransfer(t, c, s, createTransferCmd("USDC", "USDC"))
	row := *s.Transfer
	row.State = TransferFailed // created → failed is not a transition
	row.EventID = "evt_x"
	require.Panics(t, func() { s.applyRow(&row) })
	row = *s.Transfer
	row.State = TransferConfirmed // an event state without its event id
	require.Panics(t, func() { s.applyRow(&row) })
}

func statuses(rs []Reply) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.Status
	}
	return out
}

// TestTransferAcceptByState: accept builds the leg once; every later accept
// of a transfer accepted once answers it as it is, wherever it went since,
// and one that expired unaccepted is 409, before and after its expiry is
// recorded alike.
func TestTransferAcceptByState(t *testing.T) {
	accept := AcceptTransfer{Account: acctID, Gasless: gaslessLeg(), AmountOut: bi("229000000"), Signing: []byte(`{}`)}
	signed := SubmitTransferSignature{Signature: goodSig, Verified: true}
	for _, tc := range []struct {
		name   string
		before []Command
		at     time.Duration // the clock's jump before the last steps (after before)
		then   []Command
		state  string
		status int
	}{
		{name: "created", state: TransferAccepted, status: 200},
		{name: "created past its expiry", at: TransferTTL + time.Second, state: TransferCreated, status: 409},
		{name: "expired unaccepted", at: TransferTTL + time.Second, then: []Command{ExpireTransfer{}}, state: TransferExpired, status: 409},
		{name: "accepted", before: []Command{accept}, state: TransferAccepted, status: 200},
		{name: "accepted, then expired", before: []Command{accept}, at: 3 * time.Minute, then: []Command{ExpireTransfer{}}, state: TransferExpired, status: 200},
		{name: "submitted", before: []Command{accept, signed}, state: TransferSubmitted, status: 200},
		{name: "failed", before: []Command{accept, signed, TransferMined{Reason: "Reverted()"}}, state: TransferFailed, status: 200},
		{name: "confirmed", before: []Command{accept, signed, TransferMined{TxHash: hashOther, Success: true, AmountOut: bi("228500000")}}, state: TransferConfirmed, status: 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			s := NewTransferState()
			r := runTransfer(t, c, s, append([]Command{createTransferCmd("USDC", "EURC")}, tc.before...)...)
			for i, rep := range r {
				require.Less(t, rep.Status, 300, "step %d: %s", i, rep.Body)
			}
			c.advance(tc.at)
			for i, rep := range runTransfer(t, c, s, tc.then...) {
				require.Less(t, rep.Status, 300, "then %d: %s", i, rep.Body)
			}
			r = runTransfer(t, c, s, accept)
			require.Equal(t, tc.status, r[0].Status, string(r[0].Body))
			require.Equal(t, tc.state, s.Transfer.State)
			if tc.status == 200 {
				require.Contains(t, string(r[0].Body), `"state":"`+tc.state+`"`)
				require.Contains(t, string(r[0].Body), `"issues":`)
			} else {
				require.Contains(t, string(r[0].Body), CodeInvalidState)
			}
		})
	}
}
