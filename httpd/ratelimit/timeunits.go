package ratelimit

const (
	nsPerMs  = int64(1e6)
	nsPerSec = int64(1e9)
)

// floorDiv and ceilDiv divide rounding toward -inf and +inf (b > 0), so
// the rounding direction holds for times before 1970 too.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
