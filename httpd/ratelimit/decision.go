package ratelimit

// Response header names of CONTRACT.md "Rate limits".
const (
	HeaderLimit      = "X-RateLimit-Limit"
	HeaderRemaining  = "X-RateLimit-Remaining"
	HeaderReset      = "X-RateLimit-Reset"
	HeaderRetryAfter = "Retry-After"
)

// Decision is the outcome of one Allow call, reported for the request's
// tightest class: the class, among those the request counts against, with
// the smallest Remaining after the decision (a refusing class, if any).
type Decision struct {
	// Allowed reports whether the request was admitted (and recorded).
	Allowed bool
	// Limit is the tightest class's limit (X-RateLimit-Limit).
	Limit int
	// Remaining is how many more requests the class admits right now
	// (X-RateLimit-Remaining); 0 when refused.
	Remaining int
	// Reset is the unix second, rounded up, at which the class next frees
	// a slot: its oldest admission plus the window, or now when it holds
	// none (X-RateLimit-Reset).
	Reset int64
	// RetryAfter is, on refusal, the whole seconds (rounded up, at least 1)
	// until the refusing class frees a slot (Retry-After); 0 when allowed.
	RetryAfter int
}
