package httpd

import (
	"context"
	"strconv"
	"time"
)

// healthView is GET /health.
type healthView struct {
	Status   string     `json:"status"`
	Version  string     `json:"version"`
	WALIndex uint64     `json:"wal_index"`
	Chain    *chainView `json:"chain"`
}

// chainView is the chain part of /health; null when the head cannot be read.
type chainView struct {
	ChainID uint64 `json:"chain_id"`
	Head    uint64 `json:"head"`
}

func (s *Server) getHealth(rc *reqCtx) {
	v := healthView{Status: "ok", Version: Version, WALIndex: s.engine.LastIndex()}
	if c := s.cfg.Chain; c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		head, err := c.Head(ctx)
		cancel()
		if err == nil {
			v.Chain = &chainView{ChainID: c.ChainID.Uint64(), Head: head}
		}
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
