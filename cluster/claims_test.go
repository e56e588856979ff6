package cluster

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/actors/actorstest"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/natsnode/natstest"
	"github.com/fxd-labs/fxd/pay"
)

// openPartsEngine opens an engine on parts one-replica streams named after
// stream, owning nothing until Own, with a Claims following it.
func openPartsEngine(t *testing.T, ns *natstest.Standalone, stream string, parts int) (*actors.Engine, *Claims) {
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := actors.Open(actorstest.OnStreams(t.TempDir(), ns.JS, stream, parts, logger))
	require.NoError(t, err)
	c := FollowClaims(e, ns.Conn, pay.EngineClaims{E: e}.Claim, logger)
	require.NoError(t, e.Recover())
	t.Cleanup(func() { _ = e.Close() })
	return e, c
}

// TestClaimsAtTheOwner: a claim whose partition another node owns is run
// there; the grant, a second grant to the same record, and the refusal of
// another record come back as if run here; a partition nobody owns is an
// error to retry, until someone takes it up.
func TestClaimsAtTheOwner(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns, err := natstest.StartJetStream(t.TempDir(), "claims")
	require.NoError(t, err)
	t.Cleanup(ns.Close)
	const parts = 64 // ids carry one of 64 partitions: one part each
	a, ca := openPartsEngine(t, ns, "claims", parts)
	b, _ := openPartsEngine(t, ns, "claims", parts)

	// A claim id in a part B will own and A will not.
	var id, tx string
	for i := 0; ; i++ {
		tx = fmt.Sprintf("0x%064x", i+1)
		if id = domain.ClaimID(tx); a.PartOf(id) != 0 {
			break
		}
	}
	p := a.PartOf(id)
	claim := func(by string) (*domain.Error, error) {
		return ca.Claim(ctx, id, domain.ClaimLog{TxHash: tx, LogIndex: 3, By: by})
	}
	_, err = claim("tr_one")
	require.ErrorContains(t, err, "no owner of partition", "nobody owns the claim's partition yet")

	require.NoError(t, b.Own(p))
	require.False(t, a.Owns(id))
	refusal, err := claim("tr_one")
	require.NoError(t, err)
	require.Nil(t, refusal, "granted at B")
	refusal, err = claim("tr_one")
	require.NoError(t, err)
	require.Nil(t, refusal, "granted again to the same record")
	refusal, err = claim("tr_two")
	require.NoError(t, err)
	require.NotNil(t, refusal)
	require.Equal(t, 409, refusal.Status)
	require.Equal(t, "tx_already_used", refusal.Code)

	// The partition moves to A: A answers from its own engine, which
	// caught up with B's claim.
	b.Disown(p)
	require.NoError(t, a.Own(p))
	refusal, err = claim("tr_two")
	require.NoError(t, err)
	require.NotNil(t, refusal)
	require.Equal(t, "tx_already_used", refusal.Code, "the claim B granted holds at A")
}
