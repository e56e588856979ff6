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

func TestFlagsFromEnvironment(t *testing.T) {
	fs := newFlags("t")
	listen := fs.String("listen", "127.0.0.1:8080", "")
	dir := fs.String("data-dir", "./data", "")
	t.Setenv("SVC_LISTEN", "127.0.0.1:9999")
	t.Setenv("SVC_DATA_DIR", "/from/env")
	pos, err := parse(fs, []string{"--data-dir", "/from/flag", "pos1"})
	require.NoError(t, err)
	require.Equal(t, []string{"pos1"}, pos)
	require.Equal(t, "127.0.0.1:9999", *listen, "env fills a flag not given")
	require.Equal(t, "/from/flag", *dir, "a given flag wins over env")
}
