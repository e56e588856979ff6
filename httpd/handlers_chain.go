package httpd

import (
	"context"
	"encoding/json"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/domain"
)

// currencyView is one entry of GET /currencies.
type currencyView struct {
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
	Address  string `json:"address"`
	ChainID  uint64 `json:"chain_id"`
}

func (s *Server) listCurrencies(rc *reqCtx) {
	c := s.cfg.Chain
	if c == nil {
		writeError(rc.ctx, errNoChain)
		return
	}
	out := struct {
		Data []currencyView `json:"data"`
	}{Data: make([]currencyView, 0, len(domain.Currencies))}
	for _, cur := range domain.Currencies {
		addr, _ := c.Contracts.Token(cur.Symbol)
		out.Data = append(out.Data, currencyView{cur.Symbol, cur.Decimals, addr.Hex(), c.ChainID.Uint64()})
	}
	writeJSON(rc, 200, out)
}

type walletBalance struct {
	Address string `json:"address"`
	Amount  string `json:"amount"`
}

type currencyBalance struct {
	Currency string          `json:"currency"`
	Total    string          `json:"total"`
	Wallets  []walletBalance `json:"wallets"`
}

// getBalances reads every wallet's balance of every currency from the chain,
// all at one block so the totals are consistent.
func (s *Server) getBalances(rc *reqCtx) {
	c := s.cfg.Chain
	if c == nil {
		writeError(rc.ctx, errNoChain)
		return
	}
	wallets, derr := rc.walletAddresses()
	if derr != nil {
		writeError(rc.ctx, derr)
		return
	}
	// The request has requestTimeout; each chain read has RequestTimeout,
	// so a chain that does not answer is 503 after one read, not after the
	// request's time, and many wallets still fit.
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	read := func(f func(context.Context) error) error {
		cctx, cancel := context.WithTimeout(ctx, connect.RequestTimeout)
		defer cancel()
		return f(cctx)
	}
	var head uint64
	err := read(func(ctx context.Context) (err error) { head, err = c.Head(ctx); return err })
	if err != nil {
		writeError(rc.ctx, errNoChain)
		return
	}
	block := new(big.Int).SetUint64(head)
	out := struct {
		BlockNumber uint64            `json:"block_number"`
		Data        []currencyBalance `json:"data"`
	}{BlockNumber: head, Data: make([]currencyBalance, 0, len(domain.Currencies))}
	for _, cur := range domain.Currencies {
		total := new(big.Int)
		cb := currencyBalance{Currency: cur.Symbol, Wallets: make([]walletBalance, 0, len(wallets))}
		for _, w := range wallets {
			var bal *big.Int
			err := read(func(ctx context.Context) (err error) {
				bal, err = c.Balance(ctx, cur.Symbol, common.HexToAddress(w), block)
				return err
			})
			if err != nil {
				writeError(rc.ctx, errNoChain)
				return
			}
			total.Add(total, bal)
			cb.Wallets = append(cb.Wallets, walletBalance{Address: w, Amount: domain.FormatAmount(bal, cur.Decimals)})
		}
		cb.Total = domain.FormatAmount(total, cur.Decimals)
		out.Data = append(out.Data, cb)
	}
	writeJSON(rc, 200, out)
}

// walletAddresses lists the caller's linked wallets (primary first).
func (rc *reqCtx) walletAddresses() ([]string, *domain.Error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	r, err := rc.s.engine.Ask(ctx, rc.key.Account, domain.GetAccount{})
	if err != nil {
		return nil, errTimeout
	}
	var acct domain.AccountView
	if err := json.Unmarshal(r.Body, &acct); err != nil || r.Status != 200 {
		return nil, errNoSuchAcct
	}
	out := make([]string, len(acct.Wallets))
	for i, w := range acct.Wallets {
		out[i] = w.Address
	}
	return out, nil
}

func writeJSON(rc *reqCtx, status int, v any) {
	writeReply(rc.ctx, domain.Reply{Status: status, Body: mustMarshal(v)})
}

// mustMarshal encodes a view; views are plain structs, so a failure is a
// programming error.
func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("httpd: marshal: " + err.Error())
	}
	return b
}
