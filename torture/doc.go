// Package torture is the service's torture harness, after TigerBeetle's
// VOPR, etcd's robustness tests and Jepsen: a seeded randomized workload
// runs every write of the API against the real fxd binary while faults
// are injected, and every answer a client was given is held against what
// the service holds afterwards.
//
// # Workload
//
// Several accounts, each with several workers; a worker is one API key,
// one SDK client and one trading wallet of its own (linked by SIWE,
// funded by the faucet, Permit2 approved), so its transactions never race
// another's nonces. Workers pick operations at random by weight: contacts
// created, updated and deleted; payout wallets linked by SIWE, wallets
// relabelled, extra wallets linked, made primary and back (the refusals
// to un-mark or delete the primary provoked on the way) and deleted; AMM orders
// (GaslessOrder signed, relayed by the service) and RFQ orders (escrow
// funding signed and broadcast by the wallet, its hash submitted before
// or after it is mined, or never); same-currency transfers (the ERC-20
// transfer's hash submitted before the node has seen it, right after it
// was broadcast, or once mined) and cross-currency ones; payment links
// paid by stranger wallets (in full, in two parts, late, in part, too
// much, not at all) or cancelled; webhook endpoints at good, slow,
// resetting and late TLS receivers, test deliveries, re-enables,
// description and event-filter updates, secret rotations and deletes. Some
// flows stop half way on purpose (orders and transfers left to expire).
// Every write carries an Idempotency-Key and is recorded with what the
// client was told; one that got no answer (killed, paused past the client
// deadline, 503) is sent again with the same key and body until it is
// answered, which tells whether it had executed (a replay) or not.
//
// # Faults
//
// kill -9 at random moments under load, during the next start's recovery
// (before it listens) and the moment a snapshot flush writes its sstable
// (seen by inotify on the Pebble directory); SIGSTOP for longer than the
// client deadline, then SIGCONT; webhook receivers that reset the
// connection, answer slowly, or answer 2xx after the 10 s deadline. Every
// kind comes once early; then they are drawn by weight, and the gaps
// spread at least Config.MinKills kills over Config.Duration.
//
// # Checks
//
// After every fault (with the load running): `fxd wal verify` on the
// killed server's data dir; a sample of acknowledged writes re-sent with
// their key must replay byte for byte; one account's lists (in turn) must
// hold every acknowledged record exactly once and nothing never sent or
// refused; every record's observed states must be a path of its kind's
// transitions (states.go, from CONTRACT.md). At the end, with the faults
// over: every unanswered write resolved, the chain work let finish, then
// all of the above over everything, plus: contacts hold their last
// acknowledged fields (wallets' labels and the one primary, endpoints'
// descriptions and filters too, whenever a list was read with no write of
// them in flight); every balance on chain is what the records say
// (fresh payees and payout wallets, so each is exact: see checkChain);
// every finished record that fires an event has exactly one, and it
// reached every matching endpoint with its id and body (good receivers
// always; hostile ones unless the service disabled the endpoint), never
// reached an endpoint it must not (another endpoint's test, a type none of
// its filters took, born after its delete), and after a rotation carried
// the new secret's signature (past a minute) and the previous one's (for
// 24 h); the
// server's resident memory stayed under Config.RSSLimit (sampled every
// second; the server runs with GOMEMLIMIT at three quarters of it, so
// what the bound catches is memory that stays live, not GC slack); a
// clean stop and a final `fxd wal verify`.
//
// # Seeds
//
// Config.Seed drives every random choice: each worker's operations,
// amounts and branches, the fault kinds and where in its gap each lands,
// the replay samples. The same seed therefore replays the same schedule
// of operations and faults. What depends on timing may differ between
// two runs of a seed: which requests a kill cuts, how many operations fit
// in the phase, the absolute gaps (scaled by how long restarts take on
// the machine), whether a pause outlives a quote. A failure's message
// and the summary name the seed and the command that replays it.
package torture
