package main

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// Before signing, the wallet's side checks that the typed data says what
// was asked for. A signature authorises exactly its message, so this is
// where a non-custodial integration keeps control: a message moving
// another amount, another token or to another recipient is never signed.

// checkGasless checks a GaslessOrder witness (AMM order, cross-currency
// transfer): our wallet pays amount USDC, and the output goes to
// recipient.
func (ex *example) checkGasless(s *client.Signing, amount string, recipient common.Address) error {
	if s == nil || s.TypedData == nil {
		return fmt.Errorf("the answer has no signing.typed_data")
	}
	var o client.GaslessOrder
	if err := json.Unmarshal(s.TypedData.Message.Witness, &o); err != nil {
		return fmt.Errorf("typed data witness: %w", err)
	}
	return ex.checkPermit(s.TypedData, o.Signer, o.TokenIn, o.AmountIn, amount, []check{
		{"recipient", o.Recipient, recipient.Hex()},
		{"tokenOut", o.TokenOut, ex.token("EURC").Hex()},
	})
}

// checkFunding checks an RfqEscrowFunding witness: our wallet funds the
// escrow with amount USDC.
func (ex *example) checkFunding(s *client.Signing, amount string) error {
	if s == nil || s.TypedData == nil || s.Call == nil {
		return fmt.Errorf("the answer has no signing.typed_data or signing.call")
	}
	var f client.RFQFunding
	if err := json.Unmarshal(s.TypedData.Message.Witness, &f); err != nil {
		return fmt.Errorf("typed data witness: %w", err)
	}
	return ex.checkPermit(s.TypedData, f.Signer, f.Token, f.Amount, amount, []check{
		{"escrow", f.Escrow, s.Call.To},
		{"spender", s.TypedData.Message.Spender, s.Call.To},
	})
}

// check is one field of a message and the value it must have.
type check struct{ field, got, want string }

// checkPermit checks what every Permit2 witness transfer here shares: the
// signer is our wallet, the token is USDC and the amount is the one asked
// for, both in the witness and in the permit itself, and more.
func (ex *example) checkPermit(td *client.TypedData, signer, token, units, amount string, more []check) error {
	want, err := ex.units("USDC", amount)
	if err != nil {
		return err
	}
	usdc := ex.token("USDC").Hex()
	checks := append([]check{
		{"signer", signer, ex.wallet.Address().Hex()},
		{"token", token, usdc},
		{"amount", units, want.String()},
		{"permitted.token", td.Message.Permitted.Token, usdc},
		{"permitted.amount", td.Message.Permitted.Amount, want.String()},
		{"domain.verifyingContract", td.Domain.VerifyingContract, wallet.Permit2.Hex()},
		{"domain.chainId", fmt.Sprint(td.Domain.ChainID), ex.chainID.String()},
	}, more...)
	for _, c := range checks {
		if !sameValue(c.got, c.want) {
			return fmt.Errorf("refusing to sign: %s is %s, want %s", c.field, c.got, c.want)
		}
	}
	return nil
}

// sameValue compares addresses case-insensitively (EIP-55 is only a
// checksum) and anything else exactly.
func sameValue(a, b string) bool {
	if common.IsHexAddress(a) && common.IsHexAddress(b) {
		return common.HexToAddress(a) == common.HexToAddress(b)
	}
	return a == b
}
