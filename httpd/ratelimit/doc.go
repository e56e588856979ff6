// Package ratelimit implements the exact sliding-window rate limits of
// CONTRACT.md "Rate limits":
//
//	a request is admitted iff fewer than L requests of its class were
//	admitted in the previous 60 s.
//
// Per API key (Limiter): read (GET) 600, write (POST/PATCH/DELETE) 120,
// heavy 30, where a heavy request counts against heavy AND write. For
// unauthenticated public routes (PerIP): 60 per minute per client address.
//
// "Exact" means a log of admission times, not a token bucket or a pair of
// fixed windows: each class keeps a ring of the admission times of its last
// L admitted requests, so the test "fewer than L in the window" is whether
// the ring has room or its oldest entry has left the window. A decision is
// O(1) (amortised: each entry is expired once) under one mutex per key, and
// allocation-free once the key's rings have grown to its largest burst
// (rings are sized on use; a key's limiter is dropped once it holds no
// admission, see PerKey).
//
// Time is a parameter (unix nanoseconds) everywhere, so tests drive a fake
// clock. Within one window, time never runs backwards: a now earlier than
// one already seen is taken as the latest seen. That keeps each ring sorted,
// and an out-of-order caller (now read before a lock was taken) can only
// make the limiter stricter, never admit more.
//
// Resolution is the millisecond, rounded against the caller (see window.go),
// which is what lets a ring entry be a uint32 instead of an int64.
package ratelimit
