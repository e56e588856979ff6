// Package replay makes request signatures single-use (SPEC.md
// "Authentication" rule 5, CONTRACT.md "Authentication details").
//
// The server remembers every accepted signature for the freshness window,
// in memory only: after a restart it refuses timestamps earlier than its
// own start, so nothing remembered before the restart can be presented
// again (that rule lives in the server, not here).
//
// A Cache is a fixed-capacity set of 64-byte signatures, each with an
// expiry of its signed timestamp plus the window. It is sharded by a keyed
// hash of the signature; each shard is an open-addressing hash table over a
// slab of entries, and a ring of per-second expiry buckets threads the
// entries by expiry, so expiring costs O(expired), never a scan. Capacity
// is fixed at New and the slab is reused, so the steady state allocates
// nothing and memory never exceeds the bound.
package replay
