package httpd

import (
	"encoding/json"
	"strconv"
)

// healthView is GET /health. Chain is null until the chain is part of the
// service (CONTRACT.md shape: {"chain_id":N,"head":N}).
type healthView struct {
	Status   string `json:"status"`
	Version  string `json:"version"`
	WALIndex uint64 `json:"wal_index"`
	Chain    any    `json:"chain"`
}

func (s *Server) getHealth(rc *reqCtx) {
	v := healthView{Status: "ok", Version: Version, WALIndex: s.engine.LastIndex()}
	status := 200
	if !s.engine.Ready() {
		v.Status, status = "recovering", 503
	}
	b, _ := json.Marshal(v)
	rc.ctx.SetStatusCode(status)
	rc.ctx.SetContentType("application/json")
	rc.ctx.SetBody(b)
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
