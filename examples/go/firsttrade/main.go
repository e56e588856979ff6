// Command firsttrade walks from `make run` to a settled trade the way an
// integrator's backend does it, one printed line per step:
//
//  1. make a wallet key here (the service never sees it);
//  2. link the wallet to the account by signing a SIWE challenge;
//  3. fund it from the test faucet (tokens and gas);
//  4. approve Permit2 once, so signed orders can move the wallet's tokens;
//  5. trade USDC → EURC on the AMM rail (sign typed data, the service relays);
//  6. trade again on the RFQ rail (sign typed data, broadcast the escrow funding);
//  7. pay a supplier in USDC (a plain ERC-20 transfer the wallet broadcasts);
//  8. pay a supplier in EURC out of USDC (one relayed swap to the payee);
//  9. create a payment link and have a customer's wallet pay it;
//  10. print this run's ledger entries.
//
// Run the service in one terminal and this in another:
//
//	make run
//	make example        # go run ./examples/go/firsttrade
//
// Every flag can also come from the environment as SVC_<FLAG> (--base-url
// is SVC_BASE_URL), as with fxd itself. The defaults find everything
// `make run` left in ./data. It exits non-zero with the failing step on
// stderr.
package main

import (
	"context"
	"fmt"
	"os"
	"time"
)

func main() {
	cfg, err := loadConfig(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "firsttrade: %v\n", err)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintf(os.Stderr, "firsttrade: %v\n", err)
		os.Exit(1)
	}
}

// run is the whole walk, in order. Each step prints one line.
func run(ctx context.Context, cfg config) error {
	started := time.Now()
	ex, err := connect(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer ex.close()

	steps := []struct {
		name string
		do   func(context.Context) error
	}{
		{"link a wallet by SIWE", ex.linkWallet},
		{"fund the wallet from the faucet", ex.fund},
		{"approve Permit2", ex.approvePermit2},
		{"trade on the AMM rail", ex.tradeAMM},
		{"trade on the RFQ rail", ex.tradeRFQ},
		{"pay a same-currency transfer", ex.paySameCurrency},
		{"pay a cross-currency transfer", ex.payCrossCurrency},
		{"get a payment link paid", ex.paymentLink},
		{"print the ledger", ex.printLedger},
	}
	for _, s := range steps {
		if err := s.do(ctx); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	say("done", "in %s", time.Since(started).Round(time.Second))
	return nil
}

// say prints one step's line: the step, then what happened.
func say(step, format string, args ...any) {
	fmt.Printf("%-9s %s\n", step, fmt.Sprintf(format, args...))
}
