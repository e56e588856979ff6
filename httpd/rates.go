package httpd

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/amm"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/domain"
)

// rateDecimals is how many decimals a baseline rate shows.
const rateDecimals = 6

// rates keeps the daily-open baselines of GET /fx/rates: each pool's mid
// price at the first observation after 00:00 UTC, recorded in the log
// (meta "fx_rate/<date>/<pair>") so the day's baseline survives restarts
// and never moves once taken.
type rates struct {
	engine *actors.Engine
	chain  *connect.Chain
	mu     sync.Mutex // one observer at a time, so a day is recorded once
}

// rateView is one pair's baseline.
type rateView struct {
	Pair string `json:"pair"`
	Rate string `json:"rate"`
	AsOf string `json:"as_of"`
}

// today returns the baselines of now's UTC day, observing the pools for any
// pair not recorded yet.
func (r *rates) today(ctx context.Context, now time.Time) (string, []rateView, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	date := now.UTC().Format(time.DateOnly)
	pairs := make([]string, 0, len(r.chain.Contracts.Pools))
	for p := range r.chain.Contracts.Pools {
		pairs = append(pairs, p)
	}
	sort.Strings(pairs)
	out := make([]rateView, 0, len(pairs))
	for _, pair := range pairs {
		key := "fx_rate/" + date + "/" + pair
		rec, err := r.engine.Meta(key)
		if err != nil {
			return "", nil, err
		}
		if rec == "" {
			if rec, err = r.observe(ctx, pair, now); err != nil {
				return "", nil, err
			}
			if err := r.engine.PutMeta(key, rec); err != nil {
				return "", nil, err
			}
		}
		rate, asOf, ok := strings.Cut(rec, "|")
		if !ok {
			return "", nil, fmt.Errorf("httpd: bad rate record %q", rec)
		}
		out = append(out, rateView{Pair: pair, Rate: rate, AsOf: asOf})
	}
	return date, out, nil
}

// observe reads the pool's mid price: units of quote per unit of base.
func (r *rates) observe(ctx context.Context, pair string, now time.Time) (string, error) {
	base, _, _ := strings.Cut(pair, "/")
	baseAddr, ok := r.chain.Contracts.Token(base)
	if !ok {
		return "", fmt.Errorf("httpd: pool %s has an unknown base %s", pair, base)
	}
	ctx, cancel := context.WithTimeout(ctx, connect.RequestTimeout)
	defer cancel()
	res, err := amm.Read(ctx, r.chain.Client, r.chain.Contracts.Pools[pair])
	if err != nil {
		return "", err
	}
	mid, err := res.Mid(baseAddr)
	if err != nil {
		return "", err
	}
	return amm.FormatRate(mid, rateDecimals) + "|" + domain.RFC3339(now), nil
}

func (s *Server) getRates(rc *reqCtx) {
	if s.rates == nil {
		writeError(rc.ctx, errNoChain)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	date, data, err := s.rates.today(ctx, s.cfg.Clock())
	if err != nil {
		s.cfg.Logger.Warn("fx rates", "request_id", answerRequestID(rc.ctx), "err", err.Error())
		writeError(rc.ctx, errNoChain)
		return
	}
	writeJSON(rc, 200, struct {
		Date string     `json:"date"`
		Data []rateView `json:"data"`
	}{date, data})
}

// ObserveRates records today's baselines if they are not yet recorded.
// serve calls it every minute, so the first observation after 00:00 UTC
// happens within a minute of midnight even when nobody asks.
func (s *Server) ObserveRates(ctx context.Context) error {
	if s.rates == nil {
		return nil
	}
	_, _, err := s.rates.today(ctx, s.cfg.Clock())
	return err
}
