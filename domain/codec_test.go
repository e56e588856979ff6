package domain

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

var (
	tNanos = time.Unix(1767225600, 1).UTC()
	tNeg   = time.Unix(-86400*365, 999999999).UTC() // before 1970
	tEpoch = time.Unix(0, 0).UTC()                  // not the zero time
)

func sampleAccount() *Account {
	return &Account{ID: acctID, Name: "Acme — 株式会社", KYC: KYCApproved, Swap: true, Pay: true, Env: "test", CreatedAt: t0, UpdatedAt: tNanos}
}

func sampleKey() *APIKey {
	return &APIKey{ID: keyID, Account: acctID, PublicKey: pubKey, Scopes: AllScopes, Revoked: true, CreatedAt: t0, RevokedAt: t0.Add(time.Nanosecond)}
}

func sampleContact() *Contact {
	return &Contact{ID: "ct_000001", Account: acctID, Name: "Alice", Address: addrSum, Currency: "EURC", Memo: "rent\u00a0März", CreatedAt: tNeg, UpdatedAt: tEpoch}
}

func sampleIdem() *IdemRecord {
	return &IdemRecord{Scope: scopeA, BodyHash: hash1, Status: 201, Body: []byte(`{"id":"ct_000001"}`), CreatedAt: t0}
}

// sampleRecords holds every event kind, alone and together.
func sampleRecords() []Record {
	return []Record{
		{Entity: acctID, Events: []Event{{Kind: EvAccountPut, Account: sampleAccount()}}},
		{Entity: acctID, Events: []Event{{Kind: EvKeyPut, Key: sampleKey()}}},
		{Entity: acctID, Events: []Event{{Kind: EvContactPut, Contact: sampleContact()}}},
		{Entity: acctID, Events: []Event{{Kind: EvContactDeleted, ID: "ct_000001"}}},
		{Entity: acctID, Events: []Event{{Kind: EvIdemPut, Idem: sampleIdem()}}},
		{Entity: acctID, Events: []Event{
			{Kind: EvAccountPut, Account: &Account{ID: acctID}},
			{Kind: EvKeyPut, Key: &APIKey{ID: keyID, PublicKey: pubKey}},
			{Kind: EvContactPut, Contact: &Contact{ID: "ct_2"}},
			{Kind: EvContactDeleted, ID: "ct_2"},
			{Kind: EvIdemPut, Idem: &IdemRecord{Scope: scopeB, Status: 404, Body: []byte(errBody(CodeNotFound, "contact not found"))}},
		}},
		{}, // no entity, no events
	}
}

func TestCodecRowRoundTrip(t *testing.T) {
	t.Run("account", func(t *testing.T) {
		for _, a := range []*Account{sampleAccount(), {ID: "a"}, {ID: "a", CreatedAt: tEpoch, UpdatedAt: tNeg}} {
			got, err := UnmarshalAccount(MarshalAccount(nil, a))
			require.NoError(t, err)
			require.Equal(t, a, got)
		}
	})
	t.Run("key", func(t *testing.T) {
		for _, k := range []*APIKey{sampleKey(), {ID: "k", PublicKey: pubKey}, {ID: "k", PublicKey: pubKey, Scopes: ScopeWebhooks, CreatedAt: tNanos}} {
			got, err := UnmarshalKey(MarshalKey(nil, k))
			require.NoError(t, err)
			require.Equal(t, k, got)
		}
	})
	t.Run("contact", func(t *testing.T) {
		for _, c := range []*Contact{sampleContact(), {ID: "c"}, {ID: "c", Name: "\x00\xff", Address: addrLower}} {
			got, err := UnmarshalContact(MarshalContact(nil, c))
			require.NoError(t, err)
			require.Equal(t, c, got)
		}
	})
	t.Run("idem", func(t *testing.T) {
		for _, r := range []*IdemRecord{sampleIdem(), {Scope: "s"}, {Scope: "s", BodyHash: sha256.Sum256(nil), Status: 503, Body: bytes.Repeat([]byte{0}, 1000)}} {
			got, err := UnmarshalIdem(MarshalIdem(nil, r))
			require.NoError(t, err)
			require.Equal(t, r, got)
		}
	})
}

func TestCodecEventAndRecordRoundTrip(t *testing.T) {
	for i, r := range sampleRecords() {
		for _, e := range r.Events {
			got, err := UnmarshalEvent(MarshalEvent(nil, &e))
			require.NoError(t, err, e.Kind.String())
			require.Equal(t, e, got)
		}
		enc := MarshalRecord(nil, &r)
		got, err := UnmarshalRecord(enc)
		require.NoError(t, err, "record %d", i)
		require.Equal(t, r, got, "record %d", i)
		require.Equal(t, enc, MarshalRecord(nil, &got), "encoding is deterministic")

		// MarshalRecord appends.
		pre := []byte("prefix")
		out := MarshalRecord(pre, &r)
		require.Equal(t, "prefix", string(out[:6]))
		require.Equal(t, enc, out[6:])
	}
}

// Times come back exactly: the same instant, nanoseconds, UTC, and the same
// representation (require.Equal compares time.Time structurally).
func TestCodecTimes(t *testing.T) {
	for _, tm := range []time.Time{
		t0, tNanos, tNeg, tEpoch, {},
		time.Unix(1, 0).UTC(), time.Unix(-1, 1).UTC(),
		time.Unix(0, math.MaxInt64).UTC(), time.Unix(0, math.MinInt64).UTC(),
		time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC),
	} {
		got, err := UnmarshalAccount(MarshalAccount(nil, &Account{ID: "a", CreatedAt: tm}))
		require.NoError(t, err)
		require.Equal(t, tm, got.CreatedAt, tm.String())
		require.True(t, tm.Equal(got.CreatedAt))
		require.Equal(t, tm.IsZero(), got.CreatedAt.IsZero())
	}
	// A time in another zone comes back as the same instant in UTC.
	in := time.Unix(1767225600, 5).In(time.FixedZone("X", 3600))
	got, err := UnmarshalContact(MarshalContact(nil, &Contact{ID: "c", UpdatedAt: in}))
	require.NoError(t, err)
	require.Equal(t, in.UTC(), got.UpdatedAt)
}

// Wire-building helpers for hand-made (broken) encodings.
func fVarint(num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
}

func fBytes(num protowire.Number, b []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), b)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var version1 = fVarint(1, 1)

func recWith(events ...[]byte) []byte {
	b := cat(version1, fBytes(2, []byte(acctID)))
	for _, e := range events {
		b = append(b, fBytes(3, e)...)
	}
	return b
}

func ev(kind uint64, row []byte) []byte {
	b := fVarint(1, kind)
	if row != nil {
		b = append(b, fBytes(2, row)...)
	}
	return b
}

func TestUnmarshalRecordRejects(t *testing.T) {
	acctRow := MarshalAccount(nil, sampleAccount())
	keyRow := MarshalKey(nil, sampleKey())
	fixed64 := protowire.AppendFixed64(protowire.AppendTag(nil, 9, protowire.Fixed64Type), 1)
	fixed32 := protowire.AppendFixed32(protowire.AppendTag(nil, 9, protowire.Fixed32Type), 1)
	group := protowire.AppendTag(nil, 9, protowire.StartGroupType)
	endGroup := protowire.AppendTag(nil, 9, protowire.EndGroupType)
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty input (no version)", nil},
		{"version 0", cat(fVarint(1, 0), fBytes(2, []byte(acctID)))},
		{"version 2", cat(fVarint(1, 2), fBytes(2, []byte(acctID)))},
		{"version huge", cat(fVarint(1, math.MaxUint64))},
		{"version as bytes", cat(fBytes(1, []byte{1}))},
		{"version missing", fBytes(2, []byte(acctID))},
		{"unknown event kind 0", recWith(ev(0, acctRow))},
		{"unknown event kind 99", recWith(ev(99, acctRow))},
		{"unknown event kind 255", recWith(ev(255, acctRow))},
		{"event kind 257 (1 mod 256)", recWith(ev(257, acctRow))},
		{"event kind 2^32+2", recWith(ev(1<<32+2, keyRow))},
		{"event without kind", recWith(fBytes(2, acctRow))},
		{"account_put without row", recWith(ev(uint64(EvAccountPut), nil))},
		{"key_put without row", recWith(ev(uint64(EvKeyPut), nil))},
		{"contact_put without row", recWith(ev(uint64(EvContactPut), nil))},
		{"idem_put without row", recWith(ev(uint64(EvIdemPut), nil))},
		{"account_put with empty row", recWith(ev(uint64(EvAccountPut), []byte{}))},
		{"account_put with a key row lacking id", recWith(ev(uint64(EvAccountPut), fBytes(2, []byte("x"))))},
		{"contact_deleted without id", recWith(ev(uint64(EvContactDeleted), nil))},
		{"key with 31-byte public key", recWith(ev(uint64(EvKeyPut), MarshalKey(nil, &APIKey{ID: "k", PublicKey: pubKey[:31]})))},
		{"key without public key", recWith(ev(uint64(EvKeyPut), fBytes(1, []byte("k"))))},
		{"idem with 31-byte hash", recWith(ev(uint64(EvIdemPut), cat(fBytes(1, []byte("s")), fBytes(2, make([]byte, 31)))))},
		{"idem with 33-byte hash", recWith(ev(uint64(EvIdemPut), cat(fBytes(1, []byte("s")), fBytes(2, make([]byte, 33)))))},
		{"event as varint", cat(recWith(), fVarint(3, 1))},
		{"fixed64 in record", cat(recWith(), fixed64)},
		{"fixed32 in record", cat(fixed32, recWith())},
		{"start group in record", cat(recWith(), group)},
		{"end group in record", cat(recWith(), endGroup)},
		{"fixed64 in event", recWith(cat(ev(uint64(EvAccountPut), acctRow), fixed64))},
		{"fixed32 in account row", recWith(ev(uint64(EvAccountPut), cat(acctRow, fixed32)))},
		{"group in key row", recWith(ev(uint64(EvKeyPut), cat(group, keyRow)))},
		{"field number 0", cat(version1, []byte{0x00, 0x01})},
		{"overlong varint", cat(version1, []byte{0x08}, bytes.Repeat([]byte{0xff}, 10), []byte{0x01})},
		{"truncated tag", cat(version1, []byte{0x80})},
		{"truncated varint", cat(version1, []byte{0x08, 0x80})},
		{"length past the end", cat(version1, []byte{0x1a, 0x05, 0x08})},
		{"length overflows", cat(version1, []byte{0x1a}, protowire.AppendVarint(nil, math.MaxUint64))},
		{"truncated row", recWith(ev(uint64(EvAccountPut), acctRow[:len(acctRow)-1]))},
		{"too many events", recWith(func() [][]byte {
			es := make([][]byte, MaxEventsPerRecord+1)
			for i := range es {
				es[i] = ev(uint64(EvContactDeleted), nil)
				es[i] = append(es[i], fBytes(3, []byte("ct"))...)
			}
			return es
		}()...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := UnmarshalRecord(tc.b)
			require.Error(t, err, "decoded %+v", r)
			require.ErrorIs(t, err, errCodec)
			require.Equal(t, Record{}, r)
		})
	}
}

func TestUnmarshalRecordLimits(t *testing.T) {
	r := Record{Entity: acctID}
	for range MaxEventsPerRecord {
		r.Events = append(r.Events, Event{Kind: EvContactDeleted, ID: "ct_1"})
	}
	got, err := UnmarshalRecord(MarshalRecord(nil, &r))
	require.NoError(t, err)
	require.Equal(t, r, got)

	_, err = UnmarshalRecord(make([]byte, MaxRowBytes*MaxEventsPerRecord+1))
	require.ErrorIs(t, err, errCodec)
}

// Unknown field numbers are skipped at every level, so a newer writer's
// additions stay readable.
func TestUnmarshalRecordSkipsUnknownFields(t *testing.T) {
	row := cat(MarshalContact(nil, sampleContact()), fVarint(99, 7), fBytes(100, []byte("new")))
	e := cat(ev(uint64(EvContactPut), row), fVarint(42, 1))
	b := cat(fBytes(77, []byte("x")), recWith(e), fVarint(1000, 3))
	got, err := UnmarshalRecord(b)
	require.NoError(t, err)
	require.Equal(t, Record{Entity: acctID, Events: []Event{{Kind: EvContactPut, Contact: sampleContact()}}}, got)
}

// Cutting a valid encoding anywhere but between two top-level fields is an
// error; cut between fields it reads as a record with fewer events.
func TestUnmarshalRecordTruncated(t *testing.T) {
	for _, r := range sampleRecords() {
		enc := MarshalRecord(nil, &r)
		boundaries := map[int]int{} // offset -> events before it
		for off, b, n := 0, enc, 0; ; {
			boundaries[off] = n
			if len(b) == 0 {
				break
			}
			fn, typ, tl := protowire.ConsumeTag(b)
			require.Positive(t, tl)
			l := protowire.ConsumeFieldValue(fn, typ, b[tl:])
			require.Positive(t, l)
			if fn == 3 {
				n++
			}
			off += tl + l
			b = b[tl+l:]
		}
		for cut := 0; cut < len(enc); cut++ {
			got, err := UnmarshalRecord(enc[:cut])
			n, atBoundary := boundaries[cut]
			if !atBoundary {
				require.ErrorIs(t, err, errCodec, "cut at %d of %d", cut, len(enc))
				continue
			}
			if cut == 0 {
				require.Error(t, err, "no version")
				continue
			}
			require.NoError(t, err, "cut at %d", cut)
			require.Len(t, got.Events, n)
			if n > 0 {
				require.Equal(t, r.Events[:n], got.Events)
			}
		}
	}
}

func TestMarshalEventUnknownKindPanics(t *testing.T) {
	require.PanicsWithValue(t, "domain: marshal of unknown event kind 0", func() { MarshalEvent(nil, &Event{}) })
	require.Panics(t, func() { MarshalRecord(nil, &Record{Events: []Event{{Kind: 77}}}) })
}

// fuzzSeeds are real encoded records and some truncations of them.
func fuzzSeeds() [][]byte {
	var out [][]byte
	for _, r := range sampleRecords() {
		enc := MarshalRecord(nil, &r)
		out = append(out, enc)
		if len(enc) > 8 {
			out = append(out, enc[:len(enc)/2], enc[:len(enc)-1])
		}
	}
	return out
}

func FuzzUnmarshalRecord(f *testing.F) {
	for _, b := range fuzzSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := UnmarshalRecord(b)
		if err != nil {
			require.ErrorIs(t, err, errCodec)
			require.Equal(t, Record{}, r)
			return
		}
		require.LessOrEqual(t, len(r.Events), MaxEventsPerRecord)
		enc := MarshalRecord(nil, &r)
		r2, err := UnmarshalRecord(enc)
		require.NoError(t, err)
		require.Equal(t, r, r2)
		require.Equal(t, enc, MarshalRecord(nil, &r2))
		for _, e := range r.Events {
			require.NotContains(t, e.Kind.String(), "event_", "a decoded event has a known kind")
		}
	})
}

// TestWriteFuzzSeeds regenerates testdata/fuzz/FuzzUnmarshalRecord from
// fuzzSeeds when FXD_WRITE_FUZZ_SEEDS is set; otherwise it checks that the
// checked-in seeds are exactly those.
func TestWriteFuzzSeeds(t *testing.T) { checkFuzzSeeds(t, "FuzzUnmarshalRecord", fuzzSeeds()) }

// checkFuzzSeeds writes seeds as testdata/fuzz/<target>/seed-NN when
// FXD_WRITE_FUZZ_SEEDS is set; otherwise it requires the checked-in files
// to be exactly those, so a codec change that moves a seed is noticed.
func checkFuzzSeeds(t *testing.T, target string, seeds [][]byte) {
	dir := filepath.Join("testdata", "fuzz", target)
	for i, b := range seeds {
		name := filepath.Join(dir, fmt.Sprintf("seed-%02d", i))
		content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		if os.Getenv("FXD_WRITE_FUZZ_SEEDS") != "" {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
			continue
		}
		got, err := os.ReadFile(name)
		require.NoError(t, err, "run with FXD_WRITE_FUZZ_SEEDS=1 to regenerate")
		require.Equal(t, content, string(got), name)
	}
}

// TestAppendMessageMatchesNestedEncoding: encoding a nested message in
// place gives the bytes of encoding it apart and appending it, on both
// sides of every varint length boundary, and omits an empty one only when
// asked (the checked-in fuzz seeds pin whole records the same way).
func TestAppendMessageMatchesNestedEncoding(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 129, 16383, 16384, 16385, 1<<21 - 1, 1 << 21} {
		body := bytes.Repeat([]byte{0xab}, n)
		for _, omit := range []bool{false, true} {
			pre := []byte("pre")
			got := appendMessage(pre, 7, omit, func(b []byte) []byte { return append(b, body...) })
			want := []byte("pre")
			if n > 0 || !omit {
				want = protowire.AppendTag(want, 7, protowire.BytesType)
				want = protowire.AppendBytes(want, body)
			}
			require.Equal(t, want, got, "n=%d omit=%v", n, omit)
		}
	}
}
