package torture

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func testHarness(t *testing.T) *harness {
	cfg, err := Config{Bin: "fxd", WorkDir: t.TempDir(), Duration: time.Minute}.withDefaults()
	require.NoError(t, err)
	return newHarness(cfg, 1)
}

func rec(name, id string, o outcome) *tracked {
	return &tracked{kind: kindContact, name: name, id: id, create: &request{outcome: o}}
}

// TestComparePresence: a list is held to the history both ways.
func TestComparePresence(t *testing.T) {
	for _, tc := range []struct {
		name   string
		listed listed
		exp    []expectation
		want   string // "" no failure, else part of the one failure
	}{
		{"acked and listed", listed{"a": {"ct_1"}}, []expectation{expectCreate(rec("a", "ct_1", outAcked))}, ""},
		{"acked and lost", listed{}, []expectation{expectCreate(rec("a", "ct_1", outAcked))}, "is lost"},
		{"acked as another id", listed{"a": {"ct_2"}}, []expectation{expectCreate(rec("a", "ct_1", outAcked))}, "listed as ct_2"},
		{"listed twice", listed{"a": {"ct_1", "ct_3"}}, []expectation{expectCreate(rec("a", "ct_1", outAcked))}, "listed 2 times"},
		{"refused but there", listed{"a": {"ct_1"}}, []expectation{expectCreate(rec("a", "", outAnswered))}, "should not exist"},
		{"unresolved: either", listed{"a": {"ct_1"}}, []expectation{expectCreate(rec("a", "", outUnresolved))}, ""},
		{"unresolved absent", listed{}, []expectation{expectCreate(rec("a", "", outUnresolved))}, ""},
		{"never sent", listed{"a": {"ct_1"}, "zz": {"ct_9"}}, []expectation{expectCreate(rec("a", "ct_1", outAcked))}, "never sent"},
		{"deleted but there", listed{"a": {"ct_1"}}, []expectation{{t: rec("a", "ct_1", outAcked), absent: true}}, "should not exist"},
	} {
		h := testHarness(t)
		h.noteName("a")
		h.comparePresence(kindContact, tc.listed, tc.exp)
		if tc.want == "" {
			require.Zero(t, h.failCount, "%s: %v", tc.name, h.failures)
			continue
		}
		require.Equal(t, 1, h.failCount, "%s: %v", tc.name, h.failures)
		require.Contains(t, h.failures[0], tc.want, tc.name)
	}
}

// TestWALVerify reads `fxd wal verify`'s report: ok passes; a torn tail
// with exit 1 is reported as torn; not ok otherwise, a non-zero exit with
// ok, or an unreadable report fail.
func TestWALVerify(t *testing.T) {
	dir := t.TempDir()
	fake := func(name, script string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o700))
		return p
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name, script string
		torn, fails  bool
	}{
		{"ok", `echo '{"ok":true,"first_index":1,"last_index":9,"records":9}'`, false, false},
		{"torn", `echo '{"ok":false,"last_index":9,"tail_torn":true,"problem":"frame truncated"}'; exit 1`, true, false},
		{"torn-exit-0", `echo '{"ok":false,"tail_torn":true}'`, false, true},
		{"torn-crashed", `echo '{"ok":false,"tail_torn":true}'; exit 2`, false, true},
		{"bad", `echo '{"ok":false,"problem":"crc"}'; exit 1`, false, true},
		{"liar", `echo '{"ok":false}'`, false, true},
		{"ok-but-failed", `echo '{"ok":true}'; exit 1`, false, true},
		{"garbage", `echo nope`, false, true},
	} {
		rep, torn, err := walVerify(ctx, fake(tc.name, tc.script), dir)
		require.Equal(t, tc.torn, torn, tc.name)
		if tc.fails {
			require.Error(t, err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		require.Contains(t, rep, `"last_index":9`, tc.name)
	}
}

// TestSummaryTable: the table names the seed, the verdict, the kills and
// how to replay.
func TestSummaryTable(t *testing.T) {
	s := Summary{Seed: 42, Replay: replayHint(42), Passed: false, FailureCount: 1, Failures: []string{"lost x"}}
	s.Faults.Kills, s.Faults.KillsFlush = 51, 9
	out := s.Table()
	for _, want := range []string{"FAILED (1 failures)", "seed 42", "51 (0 / 0 / 9)", "FAILURE lost x", "FXD_TORTURE_SEED=42"} {
		require.True(t, strings.Contains(out, want), "%q in\n%s", want, out)
	}
}

// TestFailureKinds: failures that differ only in ids, hashes and numbers
// are one kind; the most frequent kind comes first.
func TestFailureKinds(t *testing.T) {
	got := failureKinds([]string{
		"wallet 0xfc85 is listed with label \"x\"",
		"event evt_06H17KTFF4000F4J60HGSKCNHRHYGMK5 reached endpoint wh_06H17K26QG000F45RQP4YWD9KVJANG4S twice",
		"wallet 0x5ee2 is listed with label \"x\"",
		"lost 3 of 12",
	})
	require.Equal(t, []failureKind{
		{"wallet … is listed with label \"x\"", 2},
		{"event … reached endpoint … twice", 1},
		{"lost … of …", 1},
	}, got)
}
