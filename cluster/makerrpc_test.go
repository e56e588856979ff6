package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/rfq"
)

// cannedMaker answers every call with err, or with its canned values: the
// wire's error mapping is what is under test, not a maker.
type cannedMaker struct{ err error }

func (m cannedMaker) Name() string            { return "maker1" }
func (m cannedMaker) Address() common.Address { return common.Address{7} }
func (m cannedMaker) Quote(context.Context, maker.Request) (*maker.Firm, error) {
	if m.err != nil {
		return nil, m.err
	}
	return &maker.Firm{Maker: "maker1", Quote: rfq.Quote{Maker: common.Address{7}, AmountIn: big.NewInt(5), AmountOut: big.NewInt(4),
		Expiry: big.NewInt(99), Salt: big.NewInt(1)}}, nil
}
func (m cannedMaker) QuoteAsync(ctx context.Context, r maker.Request) func() (*maker.Firm, error) {
	return func() (*maker.Firm, error) { return m.Quote(ctx, r) }
}
func (m cannedMaker) Sign(context.Context, *rfq.Quote) ([]byte, error) { return []byte{1, 2, 3}, m.err }
func (m cannedMaker) Settle(context.Context, [32]byte) (common.Hash, error) {
	return common.Hash{9}, m.err
}

// TestMakerReplyKeepsTheMakerContract: what a maker answered on the node
// running it is what its client returns on another: the firm quote (big
// amounts exact), a decline (ErrNoQuote), a malformed request, the
// skip-settle fault, another failure.
func TestMakerReplyKeepsTheMakerContract(t *testing.T) {
	ctx := context.Background()
	req := makerRequest{Request: &maker.Request{AmountIn: big.NewInt(5)}}
	ok := wire(t, runMaker(ctx, cannedMaker{}, makerQuote, req))
	require.NoError(t, ok.err())
	require.Equal(t, "4", ok.Firm.Quote.AmountOut.String())
	sig := runMaker(ctx, cannedMaker{}, makerSign, makerRequest{Quote: &rfq.Quote{}})
	require.Equal(t, []byte{1, 2, 3}, []byte(sig.Sig))
	tx := runMaker(ctx, cannedMaker{}, makerSettle, makerRequest{ExecutionID: make([]byte, 32)})
	require.Equal(t, common.Hash{9}, *tx.Tx)
	for _, tc := range []struct {
		err  error
		want error
	}{
		{fmt.Errorf("%w: spread", maker.ErrNoQuote), maker.ErrNoQuote},
		{fmt.Errorf("%w: %w", maker.ErrNoQuote, maker.ErrBusy), maker.ErrNoQuote},
		{fmt.Errorf("%w: zero taker", maker.ErrInvalidRequest), maker.ErrInvalidRequest},
		{maker.ErrSkipped, maker.ErrSkipped},
	} {
		got := wire(t, runMaker(ctx, cannedMaker{err: tc.err}, makerQuote, req)).err()
		require.ErrorIs(t, got, tc.want, "%v", tc.err)
	}
	other := runMaker(ctx, cannedMaker{err: errors.New("node unreachable")}, makerSettle, makerRequest{ExecutionID: make([]byte, 32)}).err()
	require.EqualError(t, other, "node unreachable")
	require.NotErrorIs(t, other, maker.ErrNoQuote)
	require.Error(t, runMaker(ctx, cannedMaker{}, "frobnicate", req).err(), "an unknown operation")
}

// wire is rep after its trip over NATS (JSON).
func wire(t *testing.T, rep makerReply) makerReply {
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	var out makerReply
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
