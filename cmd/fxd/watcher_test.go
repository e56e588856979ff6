package main

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"
)

func TestParseProgress(t *testing.T) {
	h := common.HexToHash("0x01")
	block, hash, err := parseProgress("42:" + h.Hex())
	require.NoError(t, err)
	require.Equal(t, uint64(42), block)
	require.Equal(t, h, hash)
	for _, bad := range []string{"", "42", "x:" + h.Hex(), "42:0x01", ":" + h.Hex()} {
		_, _, err := parseProgress(bad)
		require.Error(t, err, bad)
	}
}
