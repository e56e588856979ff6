package verify

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/simtest"
)

func TestTransferTopicIsTheBindingsEvent(t *testing.T) {
	t.Parallel()
	require.Equal(t, mustABI(fxbind.TestTokenMetaData).Events["Transfer"].ID, TransferTopic)
}

func TestParseTransferOfRealLog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fund(t, fxbind.Units(10))
	payee := common.Address{0x99}
	rcpt := e.transfer(t, payee, fxbind.Units(3))
	require.Len(t, rcpt.Logs, 1)
	l := rcpt.Logs[0]

	head, err := e.c.Client.HeaderByHash(context.Background(), rcpt.BlockHash)
	require.NoError(t, err)

	tr, ok := ParseTransfer(*l)
	require.True(t, ok)
	require.Equal(t, Transfer{
		Token: e.addrs.USDC, From: simtest.Addr(e.user), To: payee, Value: fxbind.Units(3),
		TxHash: rcpt.TxHash, LogIndex: l.Index, BlockNumber: rcpt.BlockNumber.Uint64(), BlockHash: rcpt.BlockHash,
		BlockTime: head.Time, // the node gives it with the log
	}, tr)
}

// transferLog is a well-formed ERC-20 Transfer log.
func transferLog(token, from, to common.Address, value int64) types.Log {
	return types.Log{
		Address: token,
		Topics:  []common.Hash{TransferTopic, common.BytesToHash(from.Bytes()), common.BytesToHash(to.Bytes())},
		Data:    common.LeftPadBytes(big.NewInt(value).Bytes(), 32),
	}
}

func TestParseTransferRefuses(t *testing.T) {
	t.Parallel()
	token, from, to := common.Address{1}, common.Address{2}, common.Address{3}
	good := transferLog(token, from, to, 5)
	edit := func(f func(l *types.Log)) types.Log {
		l := good
		l.Topics = append([]common.Hash(nil), good.Topics...)
		l.Data = append([]byte(nil), good.Data...)
		f(&l)
		return l
	}
	approval := crypto.Keccak256Hash([]byte("Approval(address,address,uint256)"))
	tests := []struct {
		name string
		l    types.Log
	}{
		{"2 topics", edit(func(l *types.Log) { l.Topics = l.Topics[:2] })},
		{"ERC-721 transfer: 4 topics, no data", edit(func(l *types.Log) {
			l.Topics = append(l.Topics, common.BigToHash(big.NewInt(5)))
			l.Data = nil
		})},
		{"4 topics with data", edit(func(l *types.Log) { l.Topics = append(l.Topics, common.Hash{}) })},
		{"other event", edit(func(l *types.Log) { l.Topics[0] = approval })},
		{"short data", edit(func(l *types.Log) { l.Data = l.Data[:31] })},
		{"long data", edit(func(l *types.Log) { l.Data = append(l.Data, 0) })},
		{"dirty address topic", edit(func(l *types.Log) { l.Topics[2][0] = 1 })},
		{"retracted", edit(func(l *types.Log) { l.Removed = true })},
	}
	_, ok := ParseTransfer(good)
	require.True(t, ok)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ok := ParseTransfer(tc.l)
			require.False(t, ok)
		})
	}
}

func TestFindTransfers(t *testing.T) {
	t.Parallel()
	usdc, eurc := common.Address{0xa}, common.Address{0xb}
	alice, bob, shop := common.Address{1}, common.Address{2}, common.Address{3}
	logs := []types.Log{
		transferLog(usdc, alice, shop, 10), // the payment
		transferLog(eurc, alice, shop, 11), // other token
		transferLog(usdc, alice, bob, 12),  // other recipient
		transferLog(usdc, bob, shop, 13),   // another payment
	}
	nft := transferLog(usdc, alice, shop, 0)
	nft.Topics, nft.Data = append(nft.Topics, common.Hash{7}), nil
	logs = append(logs, nft)
	rcpt := &types.Receipt{Status: types.ReceiptStatusSuccessful}
	for i := range logs {
		logs[i].Index = uint(i)
		rcpt.Logs = append(rcpt.Logs, &logs[i])
	}
	reverted := &types.Receipt{Status: types.ReceiptStatusFailed, Logs: rcpt.Logs}

	tests := []struct {
		name   string
		rcpt   *types.Receipt
		token  common.Address
		to     common.Address
		values []int64
	}{
		{"usdc to shop", rcpt, usdc, shop, []int64{10, 13}},
		{"eurc to shop", rcpt, eurc, shop, []int64{11}},
		{"usdc to bob", rcpt, usdc, bob, []int64{12}},
		{"nothing to alice", rcpt, usdc, alice, nil},
		{"reverted", reverted, usdc, shop, nil},
		{"no receipt", nil, usdc, shop, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FindTransfers(tc.rcpt, tc.token, tc.to)
			require.Len(t, got, len(tc.values))
			for i, v := range tc.values {
				require.Equal(t, tc.token, got[i].Token)
				require.Equal(t, tc.to, got[i].To)
				require.Zero(t, got[i].Value.Cmp(big.NewInt(v)))
			}
		})
	}
}

func TestFindTransfersOfRealReceipt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fund(t, fxbind.Units(10))
	payee := common.Address{0x99}
	rcpt := e.transfer(t, payee, fxbind.Units(4))
	got := FindTransfers(rcpt, e.addrs.USDC, payee)
	require.Len(t, got, 1)
	require.Zero(t, got[0].Value.Cmp(fxbind.Units(4)))
	require.Empty(t, FindTransfers(rcpt, e.addrs.EURC, payee))
}
