package main

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// pollEvery is the wait between two reads of a record. (Webhooks are the
// alternative to polling: see POST /webhooks.)
const pollEvery = 500 * time.Millisecond

// await reads a record's state until it is want. One of ends (its other
// end states) is an error naming the failure reason, if the record gives
// one; so is ctx ending first. Repeated reads are distinct requests: the
// SDK makes each signature unique.
func await(ctx context.Context, what, want string, read func() (state string, reason *string, err error), ends ...string) error {
	for {
		state, reason, err := read()
		switch {
		case err != nil:
			return err
		case state == want:
			return nil
		case slices.Contains(ends, state):
			return fmt.Errorf("%s ended %s, not %s (failure_reason: %s)", what, state, want, deref(reason))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s is still %s, want %s: %w", what, state, want, ctx.Err())
		case <-time.After(pollEvery):
		}
	}
}
