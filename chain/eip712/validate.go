package eip712

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// ErrInvalidMessage is returned (wrapped) when a domain, order or funding
// holds a value that cannot be signed: a missing number, a negative one, one
// wider than 256 bits, or a zero address where one is required.
var ErrInvalidMessage = errors.New("eip712: invalid message")

// validate checks everything a Verify function is about to hash.
func validate(d Domain, spender common.Address, m interface{ Validate() error }) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if err := checkAddress("spender", spender); err != nil {
		return err
	}
	return m.Validate()
}

func invalid(field, why string) error {
	return fmt.Errorf("%w: %s %s", ErrInvalidMessage, field, why)
}

// checkUint reports whether v is a present uint256.
func checkUint(field string, v *big.Int) error {
	switch {
	case v == nil:
		return invalid(field, "is missing")
	case v.Sign() < 0:
		return invalid(field, "is negative")
	case v.BitLen() > 256:
		return invalid(field, "does not fit in uint256")
	}
	return nil
}

// checkAddress reports whether a is non-zero.
func checkAddress(field string, a common.Address) error {
	if a == (common.Address{}) {
		return invalid(field, "is the zero address")
	}
	return nil
}
