package httpd

import (
	"context"
	"strconv"

	"github.com/fxd-labs/fxd/chain/connect"
)

// healthView is GET /health.
type healthView struct {
	Status   string     `json:"status"`
	Version  string     `json:"version"`
	WALIndex uint64     `json:"wal_index"`
	Chain    *chainView `json:"chain"`
	// Cluster is present on a cluster node only (Config.Node).
	Cluster *clusterHealth `json:"cluster,omitempty"`
}

// clusterHealth is a cluster node's part of /health: its name, the
// partitions it runs, and how far its store is behind the partition
// streams it holds (every replica applies every stream). fxd cluster
// status gives the whole map.
type clusterHealth struct {
	Node            string `json:"node"`
	PartitionsOwned int    `json:"partitions_owned"`
	ApplyLag        uint64 `json:"apply_lag_records"`
}

// chainView is the chain part of /health. While the chain does not answer
// it shows the last head read (the service still serves what needs no
// chain, so it stays "ok"; fxd_chain_rpc_up in /metrics says the chain is
// away); null only when no head was ever read.
type chainView struct {
	ChainID uint64 `json:"chain_id"`
	Head    uint64 `json:"head"`
}

func (s *Server) getHealth(rc *reqCtx) {
	v := healthView{Status: "ok", Version: Version, WALIndex: s.engine.LastIndex()}
	if c := s.cfg.Chain; c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), connect.HealthTimeout)
		head, _, ok := c.HeadOrLast(ctx)
		cancel()
		if ok {
			v.Chain = &chainView{ChainID: c.ChainID.Uint64(), Head: head}
		}
	}
	if s.cfg.Node != "" {
		last, applied := v.WALIndex, s.engine.AppliedIndex()
		v.Cluster = &clusterHealth{Node: s.cfg.Node, PartitionsOwned: s.engine.OwnedParts(), ApplyLag: last - min(applied, last)}
	}
	status := 200
	if !s.engine.Ready() {
		v.Status, status = "recovering", 503
	}
	writeJSON(rc, status, v)
}

func (s *Server) getTime(rc *reqCtx) {
	rc.ctx.SetContentType("application/json")
	b := append([]byte(`{"unix":`), strconv.AppendInt(nil, s.cfg.Clock().Unix(), 10)...)
	rc.ctx.SetBody(append(b, '}'))
}

func (s *Server) getOpenAPI(rc *reqCtx) {
	rc.ctx.SetContentType("application/json")
	rc.ctx.SetBody(s.openapi)
}
