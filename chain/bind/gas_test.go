package bind

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
)

// TestGasReport measures the gas of each user-facing operation, on go-ethereum's dev
// fork schedule (what the embedded chain and the simulated backend run: every fork
// through Bogota, including EIP-8037's higher price for creating state) and on Osaka
// (today's mainnet rules). Run with -v to see the table. It also bounds the numbers so
// that an accidental gas regression shows up.
func TestGasReport(t *testing.T) {
	osaka := func(_ *node.Config, ec *ethconfig.Config) {
		cfg := *ec.Genesis.Config
		cfg.BogotaTime = nil
		ec.Genesis.Config = &cfg
	}
	schedules := []struct {
		name string
		opts []func(*node.Config, *ethconfig.Config)
	}{{"dev (Bogota)", nil}, {"Osaka", []func(*node.Config, *ethconfig.Config){osaka}}}

	var report strings.Builder
	fmt.Fprintf(&report, "%-48s %14s %14s\n", "operation", schedules[0].name, schedules[1].name)
	rows := map[string][2]uint64{}
	var order []string
	record := func(i int, op string, gas uint64) {
		if _, ok := rows[op]; !ok {
			order = append(order, op)
		}
		r := rows[op]
		r[i] = gas
		rows[op] = r
	}

	for i, s := range schedules {
		e := newEnvWith(t, s.opts...)
		user, other := addr(e.user), addr(e.other)

		r := e.mine(e.c.Tokens[USDC].Transfer(e.auth(e.user), other, Units(10)))
		record(i, "ERC-20 transfer (new holder)", r.GasUsed)
		r = e.mine(e.c.Tokens[USDC].Transfer(e.auth(e.user), other, Units(10)))
		record(i, "ERC-20 transfer (existing holder)", r.GasUsed)

		o := e.order(Units(1_000), big.NewInt(1), user, 1)
		r = e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, e.signOrder(e.user, o)))
		record(i, "relay executeGaslessOrder (first nonce word)", r.GasUsed)
		o = e.order(Units(1_000), big.NewInt(1), user, 2)
		r = e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, e.signOrder(e.user, o)))
		record(i, "relay executeGaslessOrder (warm nonce word)", r.GasUsed)

		c := e.rfq(1)
		r = e.mine(e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote, c.makerSig, c.funding, c.takerSig))
		record(i, "rfq escrowQuoteWithPermit2", r.GasUsed)
		r = e.mine(e.c.RfqEscrow.Settle(e.auth(e.maker), c.funding.ExecutionId))
		record(i, "rfq settle", r.GasUsed)

		c = e.rfq(2)
		e.mine(e.c.RfqEscrow.EscrowQuoteWithPermit2(e.auth(e.user), c.quote, c.makerSig, c.funding, c.takerSig))
		e.advance(DefaultSettleWindow + 1e9)
		r = e.mine(e.c.RfqEscrow.Refund(e.auth(e.other), c.funding.ExecutionId))
		record(i, "rfq refund", r.GasUsed)
	}
	for _, op := range order {
		fmt.Fprintf(&report, "%-48s %14d %14d\n", op, rows[op][0], rows[op][1])
	}
	t.Logf("gas used per transaction:\n%s", report.String())

	// Loose ceilings on today's rules, to catch regressions rather than to pin numbers.
	ceilings := map[string]uint64{
		"ERC-20 transfer (existing holder)":           60_000,
		"relay executeGaslessOrder (warm nonce word)": 200_000,
		"rfq escrowQuoteWithPermit2":                  400_000,
		"rfq settle":                                  120_000,
		"rfq refund":                                  80_000,
	}
	for op, max := range ceilings {
		if got := rows[op][1]; got == 0 || got > max {
			t.Errorf("%s: %d gas on Osaka, ceiling %d", op, got, max)
		}
	}
}
