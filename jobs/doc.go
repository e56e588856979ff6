// Package jobs drives live records of one kind (FX orders, transfers,
// payment links) through the chain work each one needs, level-triggered:
// on every change of a record, and on every tick for every record, the
// host's pure Next looks at the record and names the one job it needs
// now, if any. Nothing is remembered between looks except the record
// itself, so a restart, a lost kick or a dropped chain log costs a delay,
// never a missed step: the next look finds the same fact on the chain.
//
// Every queue and pool is bounded (docs/ARCHITECTURE.md, "Limits"), and
// hitting a bound is a refusal, never growth:
//
//   - Config.MaxLive records: Track refuses a new one with ErrFull.
//   - Config.MaxJobs jobs at once, ticked and submitted alike: a record
//     whose job finds no free slot waits for the next tick or kick, and
//     Submit reports false. A job goroutine with nothing left to run idles
//     for the next job up to a second, then ends; a new one is started
//     only when none idles.
//   - Config.KickQueue queued kicks: a kick that finds the queue full is
//     dropped; the next tick drives the record.
//
// One job at most runs per record (its busy flag). A job runs on a copy of
// the record; what it learned is folded back with Config.Merge into the
// record as it is then, which a newer row may have replaced meanwhile.
package jobs
