package screen

// Error is a refusal: the URL, or an address it leads to, is not one we
// deliver webhooks to. Its text is meant for the API caller (it becomes the
// message of a 400 invalid_webhook_url, or the error of a delivery
// attempt), so it says what is wrong in plain words and never quotes
// internal details such as our resolver's address.
type Error struct {
	msg string
	err error // the underlying cause (a resolver or context error), for errors.Is; never shown
}

func (e *Error) Error() string { return e.msg }

// Unwrap gives the underlying cause, if any, so a caller can tell a DNS
// timeout or a cancelled context from a refusal on the merits.
func (e *Error) Unwrap() error { return e.err }

func refuse(msg string) *Error { return &Error{msg: msg} }
