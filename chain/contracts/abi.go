// Package contracts holds solc's ABI artifacts of fxd's contracts as
// build.sh compiled them (build/). The Go bindings in chain/bind carry
// abigen's minified copies, which drop every blank, those inside strings
// too (solc's internalType "struct RfqEscrow.Quote" becomes
// "structRfqEscrow.Quote"); an ABI served to callers comes from here.
package contracts

import _ "embed"

// RfqEscrowABI is build/RfqEscrow.abi.
//
//go:embed build/RfqEscrow.abi
var RfqEscrowABI []byte
