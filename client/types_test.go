package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// schemaTypes is the Go type of each body schema of the document.
var schemaTypes = map[string]reflect.Type{
	"Error":                  reflect.TypeFor[errorBody](),
	"Health":                 reflect.TypeFor[Health](),
	"Time":                   reflect.TypeFor[ServerTime](),
	"Deleted":                reflect.TypeFor[Deleted](),
	"QuoteRequest":           reflect.TypeFor[QuoteRequest](),
	"Quote":                  reflect.TypeFor[Quote](),
	"QuoteList":              reflect.TypeFor[QuoteList](),
	"AcceptRequest":          reflect.TypeFor[AcceptQuoteRequest](),
	"SubmitRequest":          reflect.TypeFor[SubmitRequest](),
	"Order":                  reflect.TypeFor[Order](),
	"OrderList":              reflect.TypeFor[Page[Order]](),
	"OrderAccepted":          reflect.TypeFor[AcceptedOrder](),
	"Issues":                 reflect.TypeFor[Issues](),
	"TypedData":              reflect.TypeFor[TypedData](),
	"AbiFunction":            reflect.TypeFor[ABIFunction](),
	"AbiParameter":           reflect.TypeFor[ABIParameter](),
	"Rates":                  reflect.TypeFor[Rates](),
	"CurrencyList":           reflect.TypeFor[CurrencyList](),
	"Account":                reflect.TypeFor[Account](),
	"Balances":               reflect.TypeFor[Balances](),
	"Wallet":                 reflect.TypeFor[Wallet](),
	"WalletList":             reflect.TypeFor[Page[Wallet]](),
	"WalletChallengeRequest": reflect.TypeFor[WalletChallengeRequest](),
	"WalletChallenge":        reflect.TypeFor[WalletChallenge](),
	"WalletRegisterRequest":  reflect.TypeFor[WalletRegisterRequest](),
	"WalletUpdateRequest":    reflect.TypeFor[WalletUpdateRequest](),
	"Transaction":            reflect.TypeFor[Transaction](),
	"TransactionList":        reflect.TypeFor[Page[Transaction]](),
	"TransferRequest":        reflect.TypeFor[TransferRequest](),
	"Transfer":               reflect.TypeFor[Transfer](),
	"TransferAccepted":       reflect.TypeFor[AcceptedTransfer](),
	"TransferList":           reflect.TypeFor[Page[Transfer]](),
	"PaymentLinkRequest":     reflect.TypeFor[PaymentLinkRequest](),
	"PaymentLink":            reflect.TypeFor[PaymentLink](),
	"PaymentLinkList":        reflect.TypeFor[Page[PaymentLink]](),
	"PaymentLinkUpdate":      reflect.TypeFor[PaymentLinkUpdate](),
	"PublicPaymentLink":      reflect.TypeFor[PublicPaymentLink](),
	"TxHashRequest":          reflect.TypeFor[TxHashRequest](),
	"ContactCreate":          reflect.TypeFor[ContactCreate](),
	"ContactUpdate":          reflect.TypeFor[ContactUpdate](),
	"Contact":                reflect.TypeFor[Contact](),
	"ContactList":            reflect.TypeFor[Page[Contact]](),
	"WebhookCreate":          reflect.TypeFor[WebhookCreate](),
	"WebhookCreated":         reflect.TypeFor[WebhookCreated](),
	"Webhook":                reflect.TypeFor[Webhook](),
	"WebhookList":            reflect.TypeFor[Page[Webhook]](),
	"WebhookUpdate":          reflect.TypeFor[WebhookUpdate](),
	"WebhookTest":            reflect.TypeFor[WebhookTest](),
	"WebhookResend":          reflect.TypeFor[WebhookResend](),
	"WebhookSecret":          reflect.TypeFor[WebhookSecret](),
	"Delivery":               reflect.TypeFor[Delivery](),
	"DeliveryList":           reflect.TypeFor[Page[Delivery]](),
	"WebhookTestObject":      reflect.TypeFor[WebhookTestObject](),
	"Event":                  reflect.TypeFor[Event](),
	"EventList":              reflect.TypeFor[Page[Event]](),
	// One Go type for the three signing shapes (Signing's doc says which
	// fields each has).
	"AmmSigning":           reflect.TypeFor[Signing](),
	"RfqSigning":           reflect.TypeFor[Signing](),
	"Erc20TransferSigning": reflect.TypeFor[Signing](),
}

// notBodies are the component schemas that are wire formats or parts
// checked through the schemas that use them, not bodies of their own.
var notBodies = []string{"Amount", "BaseUnits", "Address", "Bytes32", "HexBytes", "Signature", "CurrencySymbol",
	"DateTime", "EventType", "OrderState", "WebhookURL", "WebhookEvents", "WebhookDescription", "AbiTupleMember",
	"OrderEvent", "TransferEvent", "PaymentLinkEvent", "WebhookTestEvent"}

// signingUnion is what Signing stands for wherever a schema names one of
// the signing shapes.
var signingUnion = map[string]any{"anyOf": []any{
	map[string]any{"$ref": "#/components/schemas/AmmSigning"},
	map[string]any{"$ref": "#/components/schemas/RfqSigning"},
	map[string]any{"$ref": "#/components/schemas/Erc20TransferSigning"},
}}

// TestTypesMatchSchemas: every body schema has a Go type whose JSON
// fields are exactly the schema's properties, all the way down, and
// whose scalar kinds fit the schema's types (a money amount is never a
// number).
func TestTypesMatchSchemas(t *testing.T) {
	doc := openAPIDoc(t)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	for _, name := range sortedKeys(schemas) {
		if typ, ok := schemaTypes[name]; ok {
			t.Run(name, func(t *testing.T) { compareSchema(t, schemas, schemas[name], typ, name) })
			continue
		}
		require.Contains(t, notBodies, name, "schema %s has no Go type in schemaTypes", name)
	}
	for name := range schemaTypes {
		require.Contains(t, schemas, name)
	}
}

// compareSchema requires typ to hold exactly what schema describes.
func compareSchema(t *testing.T, schemas map[string]any, schema any, typ reflect.Type, where string) {
	t.Helper()
	typ = deref(typ)
	if typ == reflect.TypeFor[Signing]() {
		schema = signingUnion
	}
	branches := flatten(schemas, schema)
	switch {
	case typ == reflect.TypeFor[json.RawMessage]():
		return // kept as sent
	case typ.Kind() == reflect.Map:
		return // TypedData.types: named lists of fields
	case typ.Kind() == reflect.Slice:
		items := firstKey(branches, "items")
		if items == nil && firstKey(branches, "prefixItems") != nil && typ.Elem() == reflect.TypeFor[json.RawMessage]() {
			return // signing.call.args: a tuple of differently shaped values, kept as sent
		}
		require.NotNil(t, items, "%s: a Go slice for a schema without items", where)
		compareSchema(t, schemas, items, typ.Elem(), where+"[]")
		return
	case typ.Kind() == reflect.Struct:
		props := properties(schemas, branches)
		if len(props) == 0 && firstKey(branches, "type") == "object" {
			return // a free-form object
		}
		fields := jsonFields(typ)
		require.Equal(t, sortedKeys(props), sortedKeys(fields), "%s: fields", where)
		for name, f := range fields {
			compareSchema(t, schemas, props[name], f, where+"."+name)
		}
		return
	}
	kinds := schemaTypesOf(branches)
	want := map[reflect.Kind]string{reflect.String: "string", reflect.Bool: "boolean",
		reflect.Int: "integer", reflect.Int64: "integer", reflect.Uint64: "integer"}[typ.Kind()]
	require.NotEmpty(t, want, "%s: Go kind %s", where, typ.Kind())
	if len(kinds) > 0 {
		require.Contains(t, kinds, want, "%s: Go %s for schema types %v", where, typ, kinds)
	}
}

// flatten resolves references and collects a schema with its oneOf,
// anyOf and allOf branches, recursively.
func flatten(schemas map[string]any, schema any) []map[string]any {
	m, ok := schema.(map[string]any)
	if !ok {
		return nil
	}
	if name := refName(m); name != "" {
		return flatten(schemas, schemas[name])
	}
	out := []map[string]any{m}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		for _, b := range asSlice(m[k]) {
			out = append(out, flatten(schemas, b)...)
		}
	}
	return out
}

// properties merges the branches' properties; a name in several
// branches stands for any of its schemas. A property whose schema is
// false is one the object must not have.
func properties(schemas map[string]any, branches []map[string]any) map[string]any {
	many := map[string][]any{}
	for _, b := range branches {
		for name, p := range asMap(b["properties"]) {
			if p != false {
				many[name] = append(many[name], p)
			}
		}
	}
	out := map[string]any{}
	for name, ps := range many {
		out[name] = map[string]any{"anyOf": ps}
	}
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func firstKey(branches []map[string]any, key string) any {
	for _, b := range branches {
		if v, ok := b[key]; ok {
			return v
		}
	}
	return nil
}

// schemaTypesOf are the JSON types the branches allow ("null" aside).
func schemaTypesOf(branches []map[string]any) []string {
	var out []string
	for _, b := range branches {
		switch v := b["type"].(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, s := range v {
				out = append(out, s.(string))
			}
		}
		if c, ok := b["const"].(string); ok && c != "" {
			out = append(out, "string")
		}
	}
	return out
}

// jsonFields are a struct's JSON fields by name, embedded structs
// flattened as encoding/json does.
func jsonFields(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// Example values of the wire formats.
var exampleValues = strings.NewReplacer(
	"{{q}}", "q_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{q2}}", "q_01JBX6Q0ZKE4ZB3Q3G4D4HTN6N000000",
	"{{ord}}", "ord_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{acct}}", "acct_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{tr}}", "tr_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{pl}}", "pl_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{ct}}", "ct_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{wh}}", "wh_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{evt}}", "evt_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{evt2}}", "evt_01JBX6Q0ZKE4ZB3Q3G4D4HTN6N000000",
	"{{dlv}}", "dlv_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
	"{{A1}}", "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A",
	"{{A2}}", "0x5FbDB2315678afecb367f032d93F642f64180aa3",
	"{{A3}}", "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
	"{{P2}}", "0x000000000022D473030F116dDEE9F6B43aC78BA3",
	"{{H}}", "0x"+strings.Repeat("ab", 32),
	"{{SIG}}", "0x"+strings.Repeat("cd", 65),
	"{{T}}", "2026-11-01T12:00:00Z",
	"{{SECRET}}", "whsec_"+strings.Repeat("A", 43)+"=",
	"{{GASLESS}}", `GaslessOrder witness)GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)`,
	"{{RFQWIT}}", `RfqEscrowFunding witness)RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)`,
)

const (
	exTypedData = `{"domain":{"name":"Permit2","chainId":1337,"verifyingContract":"{{P2}}"},
		"types":{"PermitWitnessTransferFrom":[{"name":"permitted","type":"TokenPermissions"},{"name":"spender","type":"address"},{"name":"nonce","type":"uint256"},{"name":"deadline","type":"uint256"},{"name":"witness","type":"GaslessOrder"}],
			"TokenPermissions":[{"name":"token","type":"address"},{"name":"amount","type":"uint256"}],"GaslessOrder":[{"name":"signer","type":"address"}]},
		"primaryType":"PermitWitnessTransferFrom",
		"message":{"permitted":{"token":"{{A2}}","amount":"1250500000"},"spender":"{{A3}}","nonce":"1","deadline":"1793534520","witness":{"signer":"{{A1}}","tokenIn":"{{A2}}"}}}`
	exAmmSigning = `{"type":"permit2_witness",
		"order":{"signer":"{{A1}}","tokenIn":"{{A2}}","tokenOut":"{{A3}}","amountIn":"1250500000","minAmountOut":"1144490000","recipient":"{{A1}}","pool":"{{A3}}","deadline":"1793534520","nonce":"12345678901234567890"},
		"relay":{"chainId":1337,"permit2":"{{P2}}","relayRouter":"{{A3}}","witnessTypeString":"{{GASLESS}}"},
		"typed_data":` + exTypedData + `}`
	exRfqSigning = `{"type":"permit2_witness",
		"funding":{"escrow":"{{A3}}","token":"{{A2}}","amount":"1250500000","executionId":"{{H}}","quoteHash":"{{H}}","deadline":"1793534520","nonce":"7","signer":"{{A1}}"},
		"relay":{"chainId":1337,"permit2":"{{P2}}","witnessTypeString":"{{RFQWIT}}"},
		"typed_data":` + exTypedData + `,
		"call":{"to":"{{A3}}","abi":{"type":"function","name":"escrowQuoteWithPermit2",
			"inputs":[{"name":"quote","type":"tuple","internalType":"struct RfqEscrow.Quote","components":[{"name":"maker","type":"address","internalType":"address"}]},{"name":"providerSignature","type":"bytes","internalType":"bytes"}],
			"outputs":[],"stateMutability":"nonpayable"},
			"args":[{"maker":"{{A1}}","amountIn":"1250500000"},"0xabcd",{"signer":"{{A1}}","amount":"1250500000"}]}}`
	exOrderFields = `"quote_id":"{{q}}","from_currency":"USDC","to_currency":"EURC","amount_in":"1250.5","amount_out":"1150.25","min_amount_out":"1144.49","created_at":"{{T}}","updated_at":"{{T}}"`
	exOrderRFQ    = `{"order_id":"{{ord}}","route":"rfq","state":"settled","signing":` + exRfqSigning + `,"tx_hash":"{{H}}","failure_reason":null,` + exOrderFields + `}`
	exTransfer    = `{"id":"{{tr}}","state":"created","from_currency":"USDC","currency":"USDC","amount":"25.5","amount_out":"25.5","min_amount_out":"25.5",
		"recipient":"{{A1}}","contact_id":"{{ct}}","source_wallet":"{{A2}}","memo":"rent",
		"signing":{"type":"erc20_transfer","tx":{"chainId":1337,"to":"{{A3}}","data":"0xa9059cbb00","value":"0"}},
		"tx_hash":null,"failure_reason":null,"expires_at":"{{T}}","created_at":"{{T}}","updated_at":"{{T}}"}`
	exTransferCrossFields = `"id":"{{tr}}","from_currency":"USDC","currency":"EURC","amount":"25.5","recipient":"{{A1}}","contact_id":null,"source_wallet":"{{A2}}","memo":null,
		"tx_hash":null,"failure_reason":"InsufficientBalance(0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A, 0, 100000000)","expires_at":"{{T}}","created_at":"{{T}}","updated_at":"{{T}}"`
	exWallet   = `{"address":"{{A1}}","primary":true,"label":null,"created_at":"{{T}}"}`
	exWallet2  = `{"address":"{{A2}}","primary":false,"label":"ops","created_at":"{{T}}"}`
	exLink     = `{"id":"{{pl}}","url":"http://127.0.0.1:8080/public/v1/pay/{{pl}}","state":"paid","currency":"USDC","amount":"100","amount_received":"100","receive_address":"{{A3}}","payout_wallet":"{{A1}}","description":"Invoice 7","expires_at":null,"paid_at":"{{T}}","tx_hashes":["{{H}}"],"created_at":"{{T}}"}`
	exContact  = `{"id":"{{ct}}","name":"Ada","address":"{{A1}}","currency":null,"memo":"rent","created_at":"{{T}}","updated_at":"{{T}}"}`
	exWebhook  = `{"id":"{{wh}}","url":"https://example.com/hook","events":["fx.order.settled","transfer.confirmed"],"description":"ops","state":"disabled","created_at":"{{T}}"}`
	exDelivery = `{"id":"{{dlv}}","event_id":"{{evt}}","attempt":2,"status_code":null,"error":"connection refused","duration_ms":3,"at":"{{T}}"},
		{"id":"{{dlv}}","event_id":"{{evt}}","attempt":1,"status_code":500,"error":null,"duration_ms":12,"at":"{{T}}"}`
	exEvents = `{"id":"{{evt}}","type":"webhook.test","created_at":"{{T}}","api_version":"1.0.0","data":{"object":{"endpoint_id":"{{wh}}"}}},
		{"id":"{{evt2}}","type":"transfer.confirmed","created_at":"{{T}}","api_version":"1.0.0","data":{"object":` + exTransfer + `}}`
)

// typeExamples are bodies of every schema with every field set (and
// null where the API sends null), valid against the document.
var typeExamples = []struct {
	schema  string
	example string
}{
	{"Error", `{"error":{"code":"not_found","message":"no such order"}}`},
	{"Health", `{"status":"ok","version":"1.0.0","wal_index":42,"chain":{"chain_id":1337,"head":99}}`},
	{"Health", `{"status":"recovering","version":"1.0.0","wal_index":0,"chain":null}`},
	{"Time", `{"unix":1795000000}`},
	{"Deleted", `{"id":"{{ct}}","deleted":true}`},
	{"QuoteRequest", `{"from_currency":"USDC","to_currency":"EURC","amount":"1250.50","source_wallet":"{{A1}}"}`},
	{"QuoteList", `{"quotes":[
		{"id":"{{q}}","route":"amm","firm":false,"taker":"{{A1}}","from_currency":"USDC","to_currency":"EURC","amount_in":"1250.5","amount_out":"1150.25","rate":"0.91983206","expires_at":"{{T}}"},
		{"id":"{{q2}}","route":"rfq","firm":true,"provider":"maker1","taker":"{{A1}}","from_currency":"USDC","to_currency":"EURC","amount_in":"1250.5","amount_out":"1151","rate":"0.92043182","expires_at":"{{T}}"}],
		"best_quote_id":"{{q2}}"}`},
	{"AcceptRequest", `{"source_wallet":"{{A1}}"}`},
	{"SubmitRequest", `{"signature":"{{SIG}}"}`},
	{"SubmitRequest", `{"tx_hash":"{{H}}"}`},
	{"OrderAccepted", `{"order_id":"{{ord}}","route":"amm","state":"accepted","signing":` + exAmmSigning + `,"tx_hash":null,"failure_reason":null,` + exOrderFields + `,
		"issues":{"allowance":{"token":"{{A2}}","spender":"{{P2}}","actual":"0","required":"1250.5"},"balance":{"token":"{{A2}}","actual":"10","required":"1250.5"}}}`},
	{"Order", exOrderRFQ},
	{"OrderList", `{"data":[` + exOrderRFQ + `],"has_more":true,"next_cursor":"{{ord}}"}`},
	{"Rates", `{"date":"2026-11-01","data":[{"pair":"USDC/EURC","rate":"0.920000","as_of":"2026-11-01T00:00:05Z"}]}`},
	{"CurrencyList", `{"data":[{"symbol":"USDC","decimals":6,"address":"{{A2}}","chain_id":1337}]}`},
	{"Account", `{"id":"{{acct}}","name":"Demo","kyc_status":"approved","permissions":{"swap":true,"pay":false},"wallets":[` + exWallet + `],"created_at":"{{T}}"}`},
	{"Balances", `{"block_number":120,"data":[{"currency":"USDC","total":"1000.5","wallets":[{"address":"{{A1}}","amount":"1000.5"}]}]}`},
	{"WalletList", `{"data":[` + exWallet2 + `,` + exWallet + `],"has_more":false,"next_cursor":null}`},
	{"WalletChallengeRequest", `{"address":"{{A1}}"}`},
	{"WalletChallenge", `{"message":"127.0.0.1:8080 wants you to sign in with your Ethereum account:\n{{A1}}","nonce":"siwe0123456789abcdef","expires_at":"{{T}}"}`},
	{"WalletRegisterRequest", `{"message":"127.0.0.1:8080 wants you to sign in","signature":"{{SIG}}"}`},
	{"WalletUpdateRequest", `{"primary":true,"label":"ops"}`},
	{"TransactionList", `{"data":[
		{"id":"{{ord}}","type":"fx_amm","state":"settled","from_currency":"USDC","to_currency":"EURC","amount_in":"1250.5","amount_out":"1150.25","tx_hash":"{{H}}","reference_id":"{{ord}}","description":null,"created_at":"{{T}}"},
		{"id":"{{tr}}","type":"transfer","state":"created","from_currency":"USDC","to_currency":"USDC","amount_in":"25.5","amount_out":"25.5","tx_hash":null,"reference_id":"{{tr}}","description":"rent","created_at":"{{T}}"}],
		"has_more":false,"next_cursor":null}`},
	{"TransferRequest", `{"from_currency":"USDC","currency":"EURC","amount":"25.5","recipient":"{{A1}}","source_wallet":"{{A2}}","memo":"rent"}`},
	{"TransferRequest", `{"from_currency":"USDC","currency":"USDC","amount":"25.5","contact_id":"{{ct}}"}`},
	{"Transfer", exTransfer},
	{"TransferAccepted", `{` + exTransferCrossFields + `,"state":"accepted","amount_out":"23.4","min_amount_out":"23.28","signing":` + exAmmSigning + `,"issues":{"allowance":null,"balance":null}}`},
	{"TransferList", `{"data":[{` + exTransferCrossFields + `,"state":"created","amount_out":null,"min_amount_out":null,"signing":null}],"has_more":false,"next_cursor":null}`},
	{"PaymentLinkRequest", `{"currency":"USDC","amount":"100","description":"Invoice 7","expires_at":"{{T}}","payout_wallet":"{{A1}}"}`},
	{"PaymentLink", exLink},
	{"PaymentLinkList", `{"data":[` + exLink + `],"has_more":true,"next_cursor":"{{pl}}"}`},
	{"PaymentLinkUpdate", `{"state":"cancelled"}`},
	{"PublicPaymentLink", `{"id":"{{pl}}","state":"open","currency":"USDC","amount":"100","amount_received":"0","description":null,"receive_address":"{{A3}}","token_address":"{{A2}}","chain_id":1337,"expires_at":"{{T}}"}`},
	{"TxHashRequest", `{"tx_hash":"{{H}}"}`},
	{"ContactCreate", `{"name":"Ada","address":"{{A1}}","currency":"EURC","memo":"rent"}`},
	{"ContactUpdate", `{"name":"Ada L","address":"{{A2}}","currency":"","memo":""}`},
	{"Contact", exContact},
	{"ContactList", `{"data":[` + exContact + `],"has_more":false,"next_cursor":null}`},
	{"WebhookCreate", `{"url":"https://example.com/hook","events":["fx.order.settled","transfer.confirmed"],"description":"ops"}`},
	{"WebhookCreated", `{"id":"{{wh}}","url":"https://example.com/hook","events":["*"],"description":null,"state":"enabled","secret":"{{SECRET}}","created_at":"{{T}}"}`},
	{"Webhook", exWebhook},
	{"WebhookList", `{"data":[` + exWebhook + `],"has_more":false,"next_cursor":null}`},
	{"WebhookUpdate", `{"url":"https://example.com/h2","events":["*"],"description":"","state":"enabled"}`},
	{"WebhookTest", `{"delivery_id":"{{dlv}}"}`},
	{"WebhookResend", `{"event_id":"{{evt}}"}`},
	{"WebhookSecret", `{"id":"{{wh}}","secret":"{{SECRET}}"}`},
	{"DeliveryList", `{"data":[` + exDelivery + `],"has_more":true,"next_cursor":"{{dlv}}"}`},
	{"Event", `{"id":"{{evt}}","type":"fx.order.settled","created_at":"{{T}}","api_version":"1.0.0","data":{"object":` + exOrderRFQ + `}}`},
	{"EventList", `{"data":[` + exEvents + `],"has_more":false,"next_cursor":null}`},
}

// TestTypesRoundTrip: each example is valid against its schema, decodes
// into its Go type with no field unknown, and encodes back to the same
// JSON: no field is lost, renamed or turned from null into a value.
func TestTypesRoundTrip(t *testing.T) {
	c := schemaCompiler(t)
	covered := map[string]bool{}
	for i, tc := range typeExamples {
		t.Run(tc.schema, func(t *testing.T) {
			example := exampleValues.Replace(tc.example)
			require.NoError(t, validateAgainst(t, c, tc.schema, example), "example %d is not a valid %s", i, tc.schema)
			v := reflect.New(schemaTypes[tc.schema])
			dec := json.NewDecoder(bytes.NewReader([]byte(example)))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(v.Interface()), "decode %s", tc.schema)
			out, err := json.Marshal(v.Interface())
			require.NoError(t, err)
			require.JSONEq(t, example, string(out), "%s round trip", tc.schema)
			covered[tc.schema] = true
		})
	}
	var missing []string
	for name := range schemaTypes {
		if !covered[name] && !strings.HasSuffix(name, "Signing") && name != "Quote" && name != "Issues" &&
			name != "TypedData" && name != "AbiFunction" && name != "AbiParameter" && name != "Wallet" &&
			name != "Transaction" && name != "Delivery" && name != "WebhookTestObject" {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "schemas without an example (the ones left out are inside others' examples)")
}

// TestEventObject decodes data.object by the event's type.
func TestEventObject(t *testing.T) {
	var page Page[Event]
	require.NoError(t, json.Unmarshal([]byte(exampleValues.Replace(`{"data":[`+exEvents+`]}`)), &page))
	o, err := page.Data[0].Object()
	require.NoError(t, err)
	require.Equal(t, &WebhookTestObject{EndpointID: "wh_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000"}, o)
	o, err = page.Data[1].Object()
	require.NoError(t, err)
	tr := o.(*Transfer)
	require.Equal(t, "25.5", tr.Amount)
	require.Equal(t, "erc20_transfer", tr.Signing.Type)
	_, err = (&Event{ID: "evt_x", Type: "nope"}).Object()
	require.ErrorContains(t, err, "unknown type")
}
