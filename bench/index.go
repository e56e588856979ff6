package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// indexColumns are the headline rows of the saved-runs table: the column's
// title and the prefix of the report row's name that fills it.
var indexColumns = []struct{ title, row string }{
	{"reads / floor", "fxd reads / floor reads"},
	{"writes / floor", "fxd writes / floor POSTs"},
	{"writes/s", "fxd POST /contacts (fsynced)"},
	{"quote p99", "quote POST /fx/quotes"},
	{"quote CPU", "quote server CPU per quote"},
	{"accept p99", "accept POST /fx/quotes"},
	{"memory / account (RSS)", "memory per account (RSS"},
	{"live heap / account", "memory per account (live heap"},
	{"idle account (heap)", "memory per idle account (live heap"},
	{"wal appends/s", "wal durable appends"},
	{"wal fsyncs / floor", "wal fsyncs / raw fsync floor"},
	{"webhook deliveries", "webhook deliveries, healthy endpoint"},
	{"webhook lag", "webhook lag, healthy endpoint"},
	{"ledger export", "ledger export GET /transactions/export, 1,000,000 rows"},
	{"cluster / single", "cluster: projected"}, // the run's own connections (the deep point's row comes after)
}

// WriteIndex writes dir/README.md: one line per saved report in dir
// (oldest first) with its date, commit, CPU and headline figures, so a
// regression is one glance. A report that cannot be read is listed as such.
// The torture runs' summaries (torture-*.json, written by fxtorture) are
// not bench reports and are left out.
func WriteIndex(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasPrefix(filepath.Base(f), "torture-") })
	type entry struct {
		name string
		rep  *Report
	}
	var runs []entry
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var rep Report
		if json.Unmarshal(b, &rep) != nil {
			rep = Report{Notes: []string{"unreadable"}}
		}
		runs = append(runs, entry{filepath.Base(f), &rep})
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].rep.Started.Before(runs[j].rep.Started) })
	var b strings.Builder
	b.WriteString("# Saved bench runs\n\nWritten by `make bench` (fxbench) after each run, from the JSON reports in this folder.\n" +
		"Figures from different machines do not compare; the ratios to floors measured in the same run do.\n" +
		"The commit is the measured fxd binary's (-bin may run another commit's); the in-process log writer phase runs the checkout's code.\n\n")
	b.WriteString("| report | started | commit | CPU |")
	for _, c := range indexColumns {
		b.WriteString(" " + c.title + " |")
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(indexColumns)) + "\n")
	for _, r := range runs {
		m := r.rep.Machine
		fmt.Fprintf(&b, "| %s | %s | %s | %s |", r.name, r.rep.Started.UTC().Format("2006-01-02 15:04"), cell(m.Commit()),
			cell(fmt.Sprintf("%s, %d CPU", m.CPUModel, m.NumCPU)))
		for _, c := range indexColumns {
			b.WriteString(" " + cell(rowValue(r.rep.Rows, c.row)) + " |")
		}
		b.WriteString("\n")
	}
	tmp := filepath.Join(dir, "README.md.tmp")
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, "README.md"))
}

// rowValue is the value of the first row whose name starts with prefix,
// with its result when it has one; "—" for none.
func rowValue(rows []Row, prefix string) string {
	for _, r := range rows {
		if strings.HasPrefix(r.Name, prefix) {
			if r.Result != "" {
				return r.Value + " " + r.Result
			}
			return r.Value
		}
	}
	return "—"
}

// cell makes s safe inside a markdown table cell.
func cell(s string) string {
	if strings.TrimSpace(s) == "" || s == ", 0 CPU" {
		return "—"
	}
	return strings.ReplaceAll(s, "|", "\\|")
}
