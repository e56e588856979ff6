package domain

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"
)

func TestDecideCreateAccount(t *testing.T) {
	s := NewAccountState()
	ev, r := mustDecide(t, s, CreateAccount{ID: acctID, Name: "Acme Ltd", KYC: KYCPending, Env: "test", Swap: true}, fixedEnv(t, t0))
	require.Equal(t, []Event{{Kind: EvAccountPut, Account: &Account{
		ID: acctID, Name: "Acme Ltd", KYC: KYCPending, Swap: true, Pay: false, Env: "test", CreatedAt: t0, UpdatedAt: t0,
	}}}, ev)
	require.Equal(t, 201, r.Status)
	require.Equal(t, `{"id":"acct_000001","name":"Acme Ltd","kyc_status":"pending","permissions":{"swap":true,"pay":false},"wallets":[],"created_at":"`+t0RFC+`"}`, string(r.Body))
	require.Nil(t, s.Account, "Decide must not create the account")

	applyAll(s, ev)
	require.Equal(t, ev[0].Account, s.Account)
	requireRefused(t, s, CreateAccount{ID: acctID, Name: "Again", KYC: KYCApproved}, fixedEnv(t, t0), 409, CodeInvalidState)
	requireRefused(t, s, CreateAccount{ID: "acct_000002", Name: "Other", KYC: KYCApproved}, fixedEnv(t, t0), 409, CodeInvalidState)
}

func TestDecideCreateAccountRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  CreateAccount
	}{
		{"missing id", CreateAccount{Name: "Acme", KYC: KYCApproved}},
		{"empty name", CreateAccount{ID: acctID, KYC: KYCApproved}},
		{"name 101 runes", CreateAccount{ID: acctID, Name: strings.Repeat("é", 101), KYC: KYCApproved}},
		{"name newline", CreateAccount{ID: acctID, Name: "Acme\nLtd", KYC: KYCApproved}},
		{"name NUL", CreateAccount{ID: acctID, Name: "Acme\x00", KYC: KYCApproved}},
		{"name DEL", CreateAccount{ID: acctID, Name: "Acme\x7f", KYC: KYCApproved}},
		{"name C1 control", CreateAccount{ID: acctID, Name: "Acme\u0085", KYC: KYCApproved}},
		{"name invalid utf-8", CreateAccount{ID: acctID, Name: "Acme\xff", KYC: KYCApproved}},
		{"kyc empty", CreateAccount{ID: acctID, Name: "Acme"}},
		{"kyc upper case", CreateAccount{ID: acctID, Name: "Acme", KYC: "APPROVED"}},
		{"kyc unknown", CreateAccount{ID: acctID, Name: "Acme", KYC: "verified"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireRefused(t, NewAccountState(), tc.cmd, fixedEnv(t, t0), 400, CodeInvalidRequest)
		})
	}
}

func TestDecideCreateAccountNameLimits(t *testing.T) {
	for _, name := range []string{"A", strings.Repeat("a", 100), strings.Repeat("€", 100), "Zoë & Co. — 株式会社"} {
		s := NewAccountState()
		ev, r := mustDecide(t, s, CreateAccount{ID: acctID, Name: name, KYC: KYCRejected}, fixedEnv(t, t0))
		require.Equal(t, name, ev[0].Account.Name)
		require.Equal(t, 201, r.Status)
	}
}

// Every command but CreateAccount needs the account to exist.
func TestDecideWithoutAccountIsNotFound(t *testing.T) {
	for _, cmd := range []Command{
		UpdateAccount{KYC: ptr(KYCApproved)},
		CreateKey{KeyID: keyID, PublicKey: pubKey, Scopes: ScopeRead},
		RevokeKey{KeyID: keyID},
		CreateContact{Name: "Alice", Address: addrSum},
		UpdateContact{ID: "ct_000001", Name: ptr("Bob")},
		DeleteContact{ID: "ct_000001"},
	} {
		t.Run(fmt.Sprintf("%T", cmd), func(t *testing.T) {
			err := requireRefused(t, NewAccountState(), cmd, fixedEnv(t, t0), 404, CodeNotFound)
			require.Equal(t, errBody(CodeNotFound, "account not found"), string(err.Body()))
		})
	}
}

func TestDecideUpdateAccount(t *testing.T) {
	later := t0.Add(time.Hour)
	base := Account{ID: acctID, Name: "Acme Ltd", KYC: KYCApproved, Swap: true, Pay: true, Env: "test", CreatedAt: t0, UpdatedAt: later}
	for _, tc := range []struct {
		name string
		cmd  UpdateAccount
		want func(a *Account)
		body string
	}{
		{"nothing", UpdateAccount{}, func(*Account) {}, `{"swap":true,"pay":true}`},
		{"kyc", UpdateAccount{KYC: ptr(KYCRejected)}, func(a *Account) { a.KYC = KYCRejected }, `{"swap":true,"pay":true}`},
		{"swap off", UpdateAccount{Swap: ptr(false)}, func(a *Account) { a.Swap = false }, `{"swap":false,"pay":true}`},
		{"pay off", UpdateAccount{Pay: ptr(false)}, func(a *Account) { a.Pay = false }, `{"swap":true,"pay":false}`},
		{"all", UpdateAccount{KYC: ptr(KYCPending), Swap: ptr(false), Pay: ptr(false)}, func(a *Account) { a.KYC, a.Swap, a.Pay = KYCPending, false, false }, `{"swap":false,"pay":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newAccountState(t)
			ev, r := mustDecide(t, s, tc.cmd, fixedEnv(t, later))
			want := base
			tc.want(&want)
			require.Equal(t, []Event{{Kind: EvAccountPut, Account: &want}}, ev)
			require.Equal(t, 200, r.Status)
			require.Equal(t, `{"id":"acct_000001","name":"Acme Ltd","kyc_status":"`+want.KYC+`","permissions":`+tc.body+`,"wallets":[],"created_at":"`+t0RFC+`"}`, string(r.Body))
			applyAll(s, ev)
			require.Equal(t, &want, s.Account)
		})
	}
	for _, kyc := range []string{"", "Approved", "none"} {
		requireRefused(t, newAccountState(t), UpdateAccount{KYC: ptr(kyc), Swap: ptr(false)}, fixedEnv(t, later), 400, CodeInvalidRequest)
	}
}

func TestDecideCreateKey(t *testing.T) {
	s := newAccountState(t)
	in := append([]byte(nil), pubKey...)
	ev, r := mustDecide(t, s, CreateKey{KeyID: keyID, PublicKey: in, Scopes: ScopeRead | ScopePay}, fixedEnv(t, t0))
	want := &APIKey{ID: keyID, Account: acctID, PublicKey: pubKey, Scopes: ScopeRead | ScopePay, CreatedAt: t0}
	require.Equal(t, []Event{{Kind: EvKeyPut, Key: want}}, ev)
	require.Equal(t, 201, r.Status)
	require.Equal(t, `{"key_id":"svc_test_000001","account":"acct_000001","scopes":["read","pay"],"revoked":false,"created_at":"`+t0RFC+`"}`, string(r.Body))
	in[0] ^= 0xff // the event owns its copy of the key
	require.Equal(t, pubKey, ev[0].Key.PublicKey)

	applyAll(s, ev)
	require.Equal(t, map[string]*APIKey{keyID: want}, s.Keys)

	_, r = mustDecide(t, s, CreateKey{KeyID: "svc_test_000002", PublicKey: pubKey, Scopes: AllScopes}, fixedEnv(t, t0))
	require.Contains(t, string(r.Body), `"scopes":["read","trade","pay","wallets","webhooks"]`)
}

func TestDecideCreateKeyRefusals(t *testing.T) {
	s := newAccountState(t)
	mustApply(t, s, CreateKey{KeyID: keyID, PublicKey: pubKey, Scopes: ScopeRead}, fixedEnv(t, t0))
	mustApply(t, s, RevokeKey{KeyID: keyID}, fixedEnv(t, t0))
	for _, tc := range []struct {
		name   string
		cmd    CreateKey
		status int
		code   string
	}{
		{"missing id", CreateKey{PublicKey: pubKey, Scopes: ScopeRead}, 400, CodeInvalidRequest},
		{"no public key", CreateKey{KeyID: "k2", Scopes: ScopeRead}, 400, CodeInvalidRequest},
		{"public key 31 bytes", CreateKey{KeyID: "k2", PublicKey: pubKey[:31], Scopes: ScopeRead}, 400, CodeInvalidRequest},
		{"public key 33 bytes", CreateKey{KeyID: "k2", PublicKey: append(append([]byte(nil), pubKey...), 0), Scopes: ScopeRead}, 400, CodeInvalidRequest},
		{"no scopes", CreateKey{KeyID: "k2", PublicKey: pubKey}, 400, CodeInvalidRequest},
		{"unknown scope bit", CreateKey{KeyID: "k2", PublicKey: pubKey, Scopes: 1 << 5}, 400, CodeInvalidRequest},
		{"known plus unknown bit", CreateKey{KeyID: "k2", PublicKey: pubKey, Scopes: AllScopes | 1<<31}, 400, CodeInvalidRequest},
		{"id exists (revoked)", CreateKey{KeyID: keyID, PublicKey: pubKey, Scopes: ScopeRead}, 409, CodeInvalidState},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireRefused(t, s, tc.cmd, fixedEnv(t, t0), tc.status, tc.code)
		})
	}
}

func TestDecideKeyLimit(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	for range MaxKeysPerAccount {
		fastApply(t, s, CreateKey{KeyID: c.newID("svc_test_"), PublicKey: pubKey, Scopes: ScopeRead}, c.env())
	}
	require.Len(t, s.Keys, MaxKeysPerAccount)
	err := requireRefused(t, s, CreateKey{KeyID: "svc_test_more", PublicKey: pubKey, Scopes: ScopeRead}, c.env(), 409, CodeInvalidState)
	require.Equal(t, "account has 1000 keys, the maximum", err.Message)
	// Revoked keys still count: revocation keeps the row.
	mustApply(t, s, RevokeKey{KeyID: "svc_test_000001"}, c.env())
	requireRefused(t, s, CreateKey{KeyID: "svc_test_more", PublicKey: pubKey, Scopes: ScopeRead}, c.env(), 409, CodeInvalidState)
}

func TestDecideRevokeKey(t *testing.T) {
	s := newAccountState(t)
	mustApply(t, s, CreateKey{KeyID: keyID, PublicKey: pubKey, Scopes: ScopeTrade}, fixedEnv(t, t0))
	later := t0.Add(time.Minute)
	ev, r := mustDecide(t, s, RevokeKey{KeyID: keyID}, fixedEnv(t, later))
	want := &APIKey{ID: keyID, Account: acctID, PublicKey: pubKey, Scopes: ScopeTrade, Revoked: true, CreatedAt: t0, RevokedAt: later}
	require.Equal(t, []Event{{Kind: EvKeyPut, Key: want}}, ev)
	wantBody := `{"key_id":"svc_test_000001","account":"acct_000001","scopes":["trade"],"revoked":true,"created_at":"` + t0RFC + `"}`
	require.Equal(t, Reply{Status: 200, Body: []byte(wantBody)}, r)
	applyAll(s, ev)
	require.Equal(t, want, s.Keys[keyID])

	// Revoking twice: the same answer, no event, RevokedAt kept.
	ev, r = mustDecide(t, s, RevokeKey{KeyID: keyID}, fixedEnv(t, later.Add(time.Hour)))
	require.Empty(t, ev)
	require.Equal(t, Reply{Status: 200, Body: []byte(wantBody)}, r)
	require.Equal(t, later, s.Keys[keyID].RevokedAt)

	err := requireRefused(t, s, RevokeKey{KeyID: "svc_test_nope"}, fixedEnv(t, later), 404, CodeNotFound)
	require.Equal(t, errBody(CodeNotFound, "key not found"), string(err.Body()))
}

func TestDecideCreateContact(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  CreateContact
		want Contact
		body string
	}{
		{
			"all fields",
			CreateContact{Name: "Alice", Address: addrSum, Currency: ptr("USDC"), Memo: ptr("rent")},
			Contact{Name: "Alice", Address: addrSum, Currency: "USDC", Memo: "rent"},
			`{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":"USDC","memo":"rent","created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`,
		},
		{
			"required only",
			CreateContact{Name: "Bob", Address: addr2Sum},
			Contact{Name: "Bob", Address: addr2Sum},
			`{"id":"ct_000001","name":"Bob","address":"` + addr2Sum + `","currency":null,"memo":null,"created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`,
		},
		{
			"empty optionals are unset",
			CreateContact{Name: "Bob", Address: addr2Sum, Currency: ptr(""), Memo: ptr("")},
			Contact{Name: "Bob", Address: addr2Sum},
			`{"id":"ct_000001","name":"Bob","address":"` + addr2Sum + `","currency":null,"memo":null,"created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`,
		},
		{
			"lower-case address is checksummed",
			CreateContact{Name: "Carol", Address: addrLower, Currency: ptr("EURC")},
			Contact{Name: "Carol", Address: addrSum, Currency: "EURC"},
			`{"id":"ct_000001","name":"Carol","address":"` + addrSum + `","currency":"EURC","memo":null,"created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`,
		},
		{
			"a memo may hold tabs and line breaks; a name may not",
			CreateContact{Name: "Erin", Address: addrSum, Memo: ptr("line 1\r\nline 2\tcol")},
			Contact{Name: "Erin", Address: addrSum, Memo: "line 1\r\nline 2\tcol"},
			`{"id":"ct_000001","name":"Erin","address":"` + addrSum + `","currency":null,"memo":"line 1\r\nline 2\tcol","created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`,
		},
		{
			"upper-case address is checksummed",
			CreateContact{Name: "Dave", Address: addrUpper, Currency: ptr("USDT"), Memo: ptr(strings.Repeat("m", 140))},
			Contact{Name: "Dave", Address: addrSum, Currency: "USDT", Memo: strings.Repeat("m", 140)},
			`{"id":"ct_000001","name":"Dave","address":"` + addrSum + `","currency":"USDT","memo":"` + strings.Repeat("m", 140) + `","created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newAccountState(t)
			c := newClock()
			ev, r := mustDecide(t, s, tc.cmd, c.env())
			want := tc.want
			want.ID, want.Account, want.CreatedAt, want.UpdatedAt = "ct_000001", acctID, t0, t0
			require.Equal(t, []Event{{Kind: EvContactPut, Contact: &want}}, ev)
			require.Equal(t, 201, r.Status)
			require.Equal(t, tc.body, string(r.Body))
			applyAll(s, ev)
			require.Equal(t, map[string]*Contact{"ct_000001": &want}, s.Contacts)
		})
	}
}

func TestDecideCreateContactRefusals(t *testing.T) {
	badSum := "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // one letter's case flipped
	for _, tc := range []struct {
		name string
		cmd  CreateContact
		code string
		msg  string
	}{
		{"bad checksum", CreateContact{Name: "A", Address: badSum}, CodeInvalidRequest, "address has a bad EIP-55 checksum"},
		{"41 chars", CreateContact{Name: "A", Address: addrSum[:41]}, CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"},
		{"43 chars", CreateContact{Name: "A", Address: addrLower + "0"}, CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"},
		{"missing 0x", CreateContact{Name: "A", Address: addrLower[2:]}, CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"},
		{"00 instead of 0x", CreateContact{Name: "A", Address: "00" + addrLower[2:]}, CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"},
		{"non-hex digit", CreateContact{Name: "A", Address: addrLower[:41] + "g"}, CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"},
		{"padded", CreateContact{Name: "A", Address: " " + addrLower[:41]}, CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"},
		{"empty address", CreateContact{Name: "A"}, CodeInvalidRequest, "address must be a 0x-prefixed 20-byte hex address"},
		{"zero address", CreateContact{Name: "A", Address: "0x0000000000000000000000000000000000000000"}, CodeInvalidRequest, "address must not be the zero address"},
		{"lower-case currency", CreateContact{Name: "A", Address: addrSum, Currency: ptr("usdc")}, CodeUnsupportedAsset, `currency "usdc" is not supported; see GET /currencies`},
		{"unknown currency", CreateContact{Name: "A", Address: addrSum, Currency: ptr("BTC")}, CodeUnsupportedAsset, `currency "BTC" is not supported; see GET /currencies`},
		{"empty name", CreateContact{Address: addrSum}, CodeInvalidRequest, "name is required"},
		{"name 101 runes", CreateContact{Name: strings.Repeat("ü", 101), Address: addrSum}, CodeInvalidRequest, "name is longer than 100 characters"},
		{"name tab", CreateContact{Name: "A\tB", Address: addrSum}, CodeInvalidRequest, "name contains a control character"},
		{"name only spaces", CreateContact{Name: "   ", Address: addrSum}, CodeInvalidRequest, "name is required"},
		{"name bidi override", CreateContact{Name: "Bob\u202Egnp.exe", Address: addrSum}, CodeInvalidRequest, "name contains a bidirectional override character"},
		{"name invalid utf-8", CreateContact{Name: "A\xc3", Address: addrSum}, CodeInvalidRequest, "name is not valid UTF-8"},
		{"memo 141 runes", CreateContact{Name: "A", Address: addrSum, Memo: ptr(strings.Repeat("ß", 141))}, CodeInvalidRequest, "memo is longer than 140 characters"},
		{"memo NUL", CreateContact{Name: "A", Address: addrSum, Memo: ptr("a\x00b")}, CodeInvalidRequest, "memo contains a control character"},
		{"memo escape", CreateContact{Name: "A", Address: addrSum, Memo: ptr("\x1b[31mred")}, CodeInvalidRequest, "memo contains a control character"},
		{"memo DEL", CreateContact{Name: "A", Address: addrSum, Memo: ptr("a\x7fb")}, CodeInvalidRequest, "memo contains a control character"},
		{"memo bidi override", CreateContact{Name: "A", Address: addrSum, Memo: ptr("\u202Eevil")}, CodeInvalidRequest, "memo contains a bidirectional override character"},
		{"memo invalid utf-8", CreateContact{Name: "A", Address: addrSum, Memo: ptr("\xed\xa0\x80")}, CodeInvalidRequest, "memo is not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newAccountState(t)
			err := requireRefused(t, s, tc.cmd, fixedEnv(t, t0), 400, tc.code)
			require.Equal(t, tc.msg, err.Message)
			require.Equal(t, Reply{Status: 400, Body: []byte(errBody(tc.code, tc.msg))}, err.Reply())
		})
	}
}

// A refusal draws no id: the next accepted contact gets the first one.
func TestDecideCreateContactRefusalDrawsNoID(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	requireRefused(t, s, CreateContact{Name: "A", Address: "nope"}, c.env(), 400, CodeInvalidRequest)
	requireRefused(t, s, CreateContact{Name: "A", Address: addrSum, Currency: ptr("BTC")}, c.env(), 400, CodeUnsupportedAsset)
	ev, _ := mustDecide(t, s, CreateContact{Name: "A", Address: addrSum}, c.env())
	require.Equal(t, "ct_000001", ev[0].Contact.ID)
}

func TestNormalizeAddress(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{addrSum, addrSum},
		{addrLower, addrSum},
		{addrUpper, addrSum},
		{strings.ToLower(addr2Sum), addr2Sum},
		{addr2Sum, addr2Sum},
		{"0x0000000000000000000000000000000000000000", "0x0000000000000000000000000000000000000000"},
	} {
		got, err := NormalizeAddress("address", tc.in)
		require.Nil(t, err, tc.in)
		require.Equal(t, tc.want, got)
	}
	for _, in := range []string{
		"0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfb6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		addrSum[:41], addrSum + "a", addrSum[2:], "0x", "", "0x" + strings.Repeat("0", 39) + "z",
		"5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00",
		"0X" + addrLower[2:], // the OpenAPI pattern, as ethers' getAddress: a lower-case x
	} {
		_, err := NormalizeAddress("address", in)
		require.NotNil(t, err, in)
		require.Equal(t, 400, err.Status)
		require.Equal(t, CodeInvalidRequest, err.Code)
	}
}

func TestDecideContactLimit(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	for range MaxContactsPerAccount {
		fastApply(t, s, CreateContact{Name: "A", Address: addrSum}, c.env())
	}
	require.Len(t, s.Contacts, MaxContactsPerAccount)
	err := requireRefused(t, s, CreateContact{Name: "A", Address: addrSum}, c.env(), 409, CodeInvalidState)
	require.Equal(t, "account has 10000 contacts, the maximum", err.Message)
	mustApply(t, s, DeleteContact{ID: "ct_000001"}, c.env())
	r := mustApply(t, s, CreateContact{Name: "A", Address: addrSum}, c.env())
	require.Equal(t, 201, r.Status)
}

func TestDecideUpdateContact(t *testing.T) {
	later := t0.Add(2 * time.Hour)
	orig := Contact{ID: "ct_000001", Account: acctID, Name: "Alice", Address: addrSum, Currency: "USDC", Memo: "rent", CreatedAt: t0, UpdatedAt: t0}
	for _, tc := range []struct {
		name string
		cmd  UpdateContact
		want func(*Contact)
		body string
	}{
		{"nothing", UpdateContact{}, func(*Contact) {},
			`{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":"USDC","memo":"rent","created_at":"` + t0RFC + `","updated_at":"2026-01-01T02:00:00Z"}`},
		{"name", UpdateContact{Name: ptr("Alicia")}, func(c *Contact) { c.Name = "Alicia" },
			`{"id":"ct_000001","name":"Alicia","address":"` + addrSum + `","currency":"USDC","memo":"rent","created_at":"` + t0RFC + `","updated_at":"2026-01-01T02:00:00Z"}`},
		{"address lower-case", UpdateContact{Address: ptr(strings.ToLower(addr2Sum))}, func(c *Contact) { c.Address = addr2Sum },
			`{"id":"ct_000001","name":"Alice","address":"` + addr2Sum + `","currency":"USDC","memo":"rent","created_at":"` + t0RFC + `","updated_at":"2026-01-01T02:00:00Z"}`},
		{"currency", UpdateContact{Currency: ptr("EURC")}, func(c *Contact) { c.Currency = "EURC" },
			`{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":"EURC","memo":"rent","created_at":"` + t0RFC + `","updated_at":"2026-01-01T02:00:00Z"}`},
		{"clear currency and memo", UpdateContact{Currency: ptr(""), Memo: ptr("")}, func(c *Contact) { c.Currency, c.Memo = "", "" },
			`{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":null,"memo":null,"created_at":"` + t0RFC + `","updated_at":"2026-01-01T02:00:00Z"}`},
		{"memo", UpdateContact{Memo: ptr("Miete für März")}, func(c *Contact) { c.Memo = "Miete für März" },
			`{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":"USDC","memo":"Miete für März","created_at":"` + t0RFC + `","updated_at":"2026-01-01T02:00:00Z"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newAccountState(t)
			mustApply(t, s, CreateContact{Name: "Alice", Address: addrLower, Currency: ptr("USDC"), Memo: ptr("rent")}, newClock().env())
			require.Equal(t, &orig, s.Contacts["ct_000001"])
			cmd := tc.cmd
			cmd.ID = "ct_000001"
			ev, r := mustDecide(t, s, cmd, fixedEnv(t, later))
			want := orig
			tc.want(&want)
			want.UpdatedAt = later
			require.Equal(t, []Event{{Kind: EvContactPut, Contact: &want}}, ev)
			require.Equal(t, 200, r.Status)
			require.Equal(t, tc.body, string(r.Body))
			applyAll(s, ev)
			require.Equal(t, &want, s.Contacts["ct_000001"])
		})
	}
}

func TestDecideUpdateContactRefusals(t *testing.T) {
	s := newAccountState(t)
	mustApply(t, s, CreateContact{Name: "Alice", Address: addrSum}, newClock().env())
	for _, tc := range []struct {
		name   string
		cmd    UpdateContact
		status int
		code   string
	}{
		{"unknown id", UpdateContact{ID: "ct_000002", Name: ptr("B")}, 404, CodeNotFound},
		{"empty id", UpdateContact{Name: ptr("B")}, 404, CodeNotFound},
		{"empty name", UpdateContact{ID: "ct_000001", Name: ptr("")}, 400, CodeInvalidRequest},
		{"name too long", UpdateContact{ID: "ct_000001", Name: ptr(strings.Repeat("x", 101))}, 400, CodeInvalidRequest},
		{"name control", UpdateContact{ID: "ct_000001", Name: ptr("a\rb")}, 400, CodeInvalidRequest},
		{"bad checksum", UpdateContact{ID: "ct_000001", Address: ptr("0xFb6916095ca1df60bB79Ce92cE3Ea74c37c5d359")}, 400, CodeInvalidRequest},
		{"empty address", UpdateContact{ID: "ct_000001", Address: ptr("")}, 400, CodeInvalidRequest},
		{"unsupported currency", UpdateContact{ID: "ct_000001", Currency: ptr("DAI")}, 400, CodeUnsupportedAsset},
		{"memo too long", UpdateContact{ID: "ct_000001", Memo: ptr(strings.Repeat("x", 141))}, 400, CodeInvalidRequest},
		{"memo invalid utf-8", UpdateContact{ID: "ct_000001", Memo: ptr("\x80")}, 400, CodeInvalidRequest},
		{"valid name, bad memo", UpdateContact{ID: "ct_000001", Name: ptr("Bob"), Memo: ptr("\x1b[31m")}, 400, CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireRefused(t, s, tc.cmd, fixedEnv(t, t0), tc.status, tc.code)
		})
	}
}

func TestDecideDeleteContact(t *testing.T) {
	s := newAccountState(t)
	c := newClock()
	mustApply(t, s, CreateContact{Name: "Alice", Address: addrSum}, c.env())
	mustApply(t, s, CreateContact{Name: "Bob", Address: addr2Sum}, c.env())
	ev, r := mustDecide(t, s, DeleteContact{ID: "ct_000001"}, fixedEnv(t, t0))
	require.Equal(t, []Event{{Kind: EvContactDeleted, ID: "ct_000001"}}, ev)
	require.Equal(t, Reply{Status: 200, Body: []byte(`{"id":"ct_000001","deleted":true}`)}, r)
	applyAll(s, ev)
	require.Len(t, s.Contacts, 1)
	require.Contains(t, s.Contacts, "ct_000002")

	err := requireRefused(t, s, DeleteContact{ID: "ct_000001"}, fixedEnv(t, t0), 404, CodeNotFound)
	require.Equal(t, errBody(CodeNotFound, "contact not found"), string(err.Body()))
	requireRefused(t, s, UpdateContact{ID: "ct_000001", Name: ptr("x")}, fixedEnv(t, t0), 404, CodeNotFound)
	requireRefused(t, s, DeleteContact{ID: "ct_999999"}, fixedEnv(t, t0), 404, CodeNotFound)
}

type bogusCommand struct{}

func (bogusCommand) Target() Kind { return KindAccount }

type bogusQuery struct{}

func (bogusQuery) queryName() string { return "bogus" }

func TestDecideUnknownCommandPanics(t *testing.T) {
	s := newAccountState(t)
	require.Panics(t, func() { s.Decide(bogusCommand{}, fixedEnv(t, t0)) })
	require.Panics(t, func() { s.Ask(bogusQuery{}) })
}

func TestAsk(t *testing.T) {
	require.Equal(t, Reply{Status: 404, Body: []byte(errBody(CodeNotFound, "account not found"))}, NewAccountState().Ask(GetAccount{}))
	require.Equal(t, 404, NewAccountState().Ask(ListContacts{Page: Page{Limit: 50}}).Status)

	s := newAccountState(t)
	c := newClock()
	mustApply(t, s, CreateKey{KeyID: keyID, PublicKey: pubKey, Scopes: ScopeRead | ScopeWebhooks}, c.env())
	mustApply(t, s, CreateContact{Name: "Alice", Address: addrSum, Currency: ptr("USDC")}, c.env())
	mustApply(t, s, CreateContact{Name: "Bob", Address: addr2Sum}, c.env())
	before := cloneState(s)

	for _, tc := range []struct {
		q      Query
		status int
		body   string
	}{
		{GetAccount{}, 200, `{"id":"acct_000001","name":"Acme Ltd","kyc_status":"approved","permissions":{"swap":true,"pay":true},"wallets":[],"created_at":"` + t0RFC + `"}`},
		{GetKey{KeyID: keyID}, 200, `{"key_id":"svc_test_000001","account":"acct_000001","scopes":["read","webhooks"],"revoked":false,"created_at":"` + t0RFC + `"}`},
		{GetKey{KeyID: "svc_test_x"}, 404, errBody(CodeNotFound, "key not found")},
		{GetContact{ID: "ct_000001"}, 200, `{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":"USDC","memo":null,"created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}`},
		{GetContact{ID: "ct_000003"}, 404, errBody(CodeNotFound, "contact not found")},
		{ListContacts{Page: Page{Limit: 1}}, 200, `{"data":[{"id":"ct_000002","name":"Bob","address":"` + addr2Sum + `","currency":null,"memo":null,"created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}],"has_more":true,"next_cursor":"ct_000002"}`},
		{ListContacts{Page: Page{Limit: 50, StartingAfter: "ct_000002"}}, 200, `{"data":[{"id":"ct_000001","name":"Alice","address":"` + addrSum + `","currency":"USDC","memo":null,"created_at":"` + t0RFC + `","updated_at":"` + t0RFC + `"}],"has_more":false,"next_cursor":null}`},
	} {
		r := s.Ask(tc.q)
		require.Equal(t, tc.status, r.Status, "%T", tc.q)
		require.Equal(t, tc.body, string(r.Body), "%T", tc.q)
	}
	require.Equal(t, before, s, "Ask mutated the state")
}

func TestParseScopes(t *testing.T) {
	s, err := ParseScopes([]string{"read", " pay ", "webhooks"})
	require.Nil(t, err)
	require.Equal(t, ScopeRead|ScopePay|ScopeWebhooks, s)
	require.Equal(t, "read,pay,webhooks", s.String())
	require.Equal(t, []string{"read", "trade", "pay", "wallets", "webhooks"}, AllScopes.Names())
	require.Equal(t, []string{}, Scopes(0).Names())
	for _, names := range [][]string{nil, {}, {"read", "read"}, {"admin"}, {"Read"}, {""}} {
		_, err := ParseScopes(names)
		require.NotNil(t, err, "%q", names)
		require.Equal(t, 400, err.Status)
		require.Equal(t, CodeInvalidRequest, err.Code)
	}
}

func TestCurrencyBySymbol(t *testing.T) {
	for _, sym := range []string{"USDC", "USDT", "EURC"} {
		c, err := CurrencyBySymbol(sym)
		require.Nil(t, err)
		require.Equal(t, Currency{Symbol: sym, Decimals: 6}, c)
	}
	for _, sym := range []string{"usdc", "", "ETH", "USDC "} {
		_, err := CurrencyBySymbol(sym)
		require.NotNil(t, err)
		require.Equal(t, 400, err.Status)
		require.Equal(t, CodeUnsupportedAsset, err.Code)
	}
	_, err := RequiredCurrency("to_currency", "")
	require.Equal(t, CodeInvalidRequest, err.Code, "a missing field is invalid_request")
	require.Contains(t, err.Message, "to_currency is required")
	_, err = RequiredCurrency("to_currency", "ETH")
	require.Equal(t, CodeUnsupportedAsset, err.Code)
	c, err := RequiredCurrency("to_currency", "EURC")
	require.Nil(t, err)
	require.Equal(t, "EURC", c.Symbol)
}

// TestNormalizeAddressCaseRules: on random addresses, the all-lower,
// all-upper and checksummed spellings all normalize to the EIP-55 form,
// and a checksummed address with one letter's case flipped is refused.
func TestNormalizeAddressCaseRules(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var a common.Address
		for i := range a {
			a[i] = byte(r.Uint32())
		}
		want := a.Hex()
		for _, in := range []string{want, strings.ToLower(want), "0x" + strings.ToUpper(want[2:])} {
			got, err := NormalizeAddress("address", in)
			require.Nil(t, err, in)
			require.Equal(t, want, got, in)
		}
		b := []byte(want)
		for i := 2; i < len(b); i++ {
			if b[i] > '9' {
				b[i] ^= 0x20
				if s := string(b); strings.ToLower(s) != s && strings.ToUpper(s[2:]) != s[2:] {
					_, err := NormalizeAddress("address", s)
					require.NotNil(t, err, s)
				}
				b[i] ^= 0x20
				break
			}
		}
	}
}
