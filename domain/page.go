package domain

import "strconv"

// List limits of CONTRACT.md: ?limit=1..200, default 50.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 200
	maxCursorLen     = 64
)

// Page is a parsed list request.
type Page struct {
	Limit         int
	StartingAfter string // an id; items strictly older (smaller id) follow
}

// ParsePage reads ?limit and ?starting_after. An absent limit is the
// default; anything else outside 1..200 is 400.
func ParsePage(limit, startingAfter string, hasLimit bool) (Page, *Error) {
	p := Page{Limit: DefaultPageLimit, StartingAfter: startingAfter}
	if hasLimit {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > MaxPageLimit || limit != strconv.Itoa(n) {
			return Page{}, ErrInvalid("limit must be an integer from 1 to %d", MaxPageLimit)
		}
		p.Limit = n
	}
	if len(startingAfter) > maxCursorLen {
		return Page{}, ErrInvalid("starting_after is not an id")
	}
	return p, nil
}

// ListView is the contract's list envelope.
type ListView[T any] struct {
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// Paginate cuts one page out of items sorted newest first (id descending).
// The cursor is compared by id, not looked up, so a deleted cursor item
// still pages correctly.
func Paginate[R any, V any](items []R, id func(R) string, view func(R) V, p Page) ListView[V] {
	if p.Limit < 1 { // a zero Page (not from ParsePage) would index items[-1]
		p.Limit = DefaultPageLimit
	}
	start := 0
	if p.StartingAfter != "" {
		for start < len(items) && id(items[start]) >= p.StartingAfter {
			start++
		}
	}
	end := min(start+p.Limit, len(items))
	out := ListView[V]{Data: make([]V, 0, end-start), HasMore: end < len(items)}
	for _, it := range items[start:end] {
		out.Data = append(out.Data, view(it))
	}
	if out.HasMore {
		last := id(items[end-1])
		out.NextCursor = &last
	}
	return out
}
