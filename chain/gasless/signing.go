package gasless

import (
	"math/big"

	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/domain"
)

// SigningType is signing.type of a gasless leg (and of an RFQ funding).
const SigningType = "permit2_witness"

// Signing is the `signing` object of a gasless leg: SPEC.md's fields of
// route amm plus typed_data (CONTRACT.md), the same for a cross-currency
// transfer (recipient = the payee). Field order is the wire order.
type Signing struct {
	Type      string                     `json:"type"`
	Order     eip712.GaslessOrderMessage `json:"order"`
	Relay     Relay                      `json:"relay"`
	TypedData eip712.TypedData           `json:"typed_data"`
}

// Relay is signing.relay of a gasless leg.
type Relay struct {
	ChainID           *big.Int `json:"chainId"`
	Permit2           string   `json:"permit2"`
	RelayRouter       string   `json:"relayRouter"`
	WitnessTypeString string   `json:"witnessTypeString"`
}

// Signing builds the signing object of the terms.
func (l *Leg) Signing(t *domain.GaslessTerms) Signing {
	td := eip712.GaslessTypedData(l.Domain, l.Router, Order(t))
	return Signing{
		Type:  SigningType,
		Order: *td.Message.Witness.(*eip712.GaslessOrderMessage),
		Relay: Relay{ChainID: l.Domain.ChainID, Permit2: l.Domain.Permit2.Hex(), RelayRouter: l.Router.Hex(),
			WitnessTypeString: eip712.GaslessWitnessTypeString},
		TypedData: td,
	}
}
