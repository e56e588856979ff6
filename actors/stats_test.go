package actors

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

func TestActiveByKindAndLogger(t *testing.T) {
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := Open(Config{DataDir: t.TempDir(), Logger: logger})
	require.NoError(t, err)
	defer e.Close()
	require.NoError(t, e.Recover())
	require.Same(t, logger, e.Logger())
	require.Equal(t, [domain.NumKinds]int{}, e.ActiveByKind())

	for range 2 {
		out, err := e.CreateAccount(context.Background(), domain.CreateAccount{Name: "a", KYC: domain.KYCApproved})
		require.NoError(t, err)
		var a struct{ ID string }
		require.NoError(t, json.Unmarshal(out.Reply.Body, &a))
	}
	n := e.ActiveByKind()
	require.Equal(t, 2, n[domain.KindAccount])
	total := 0
	for _, c := range n {
		total += c
	}
	require.Equal(t, e.ActiveAccounts(), total, "every entity in memory has one kind")
	require.Equal(t, e.LastIndex(), uint64(e.LogBatchSizes().Sum), "every record is in one counted batch")
	require.Equal(t, e.LogBatches(), e.LogFsyncDurations().Count())
}
