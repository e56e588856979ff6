package torture

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fxd-labs/fxd/client/wallet"
)

// Chain waits (deadlines, never expectations).
const (
	mineDeadline = 3 * time.Minute // a transaction until mined, across restarts
	chainRetry   = 300 * time.Millisecond
)

// transient reports whether a chain error is the node being away (killed,
// paused, restarting) rather than an answer.
func transient(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	s := err.Error()
	for _, p := range []string{"connection refused", "connection reset", "EOF", "timeout", "deadline exceeded",
		"broken pipe", "503", "no such host", "server closed"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// chainCall runs f until it succeeds or fails with an answer (not a
// transient error), the node being given time to come back.
func (h *harness) chainCall(ctx context.Context, what string, f func(ctx context.Context) error) error {
	give := time.Now().Add(mineDeadline)
	for {
		if _, err := h.srv.waitUp(ctx); err != nil {
			return err
		}
		actx, cancel := context.WithTimeout(ctx, h.cfg.ClientTimeout)
		err := f(actx)
		cancel()
		if err == nil || !transient(err) {
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			return nil
		}
		if ctx.Err() != nil || time.Now().After(give) {
			return fmt.Errorf("%s: %w", what, err)
		}
		sleep(ctx, chainRetry)
	}
}

// prepareTx signs a transaction of w to `to` with data (not sent).
func (h *harness) prepareTx(ctx context.Context, w *wallet.Wallet, to common.Address, data []byte, amount *big.Int) (*sentTx, error) {
	var tx *types.Transaction
	err := h.chainCall(ctx, "prepare tx", func(ctx context.Context) error {
		var err error
		tx, err = w.Prepare(ctx, to, data)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &sentTx{tx: tx, from: w.Address(), amount: amount}, nil
}

// mine broadcasts st until it has a receipt: a kill -9 loses the node's
// pool, so the same signed transaction is sent again after each restart.
// A reverted one is recorded as such (not an error here: the callers
// decide).
func (h *harness) mine(ctx context.Context, w *wallet.Wallet, st *sentTx) error {
	give := time.Now().Add(mineDeadline)
	for {
		if _, err := h.srv.waitUp(ctx); err != nil {
			return err
		}
		actx, cancel := context.WithTimeout(ctx, h.cfg.ClientTimeout)
		r, err := h.eth.TransactionReceipt(actx, st.tx.Hash())
		if err == nil {
			cancel()
			st.setMined(r.Status != types.ReceiptStatusSuccessful)
			return nil
		}
		if errors.Is(err, ethereum.NotFound) {
			err = w.Broadcast(actx, st.tx)
			if err != nil && strings.Contains(err.Error(), "nonce too low") {
				err = nil // mined meanwhile, or replaced: the receipt says
			}
		}
		cancel()
		if err != nil && !transient(err) {
			return fmt.Errorf("tx %s: %w", st.tx.Hash().Hex(), err)
		}
		if ctx.Err() != nil || time.Now().After(give) {
			return fmt.Errorf("tx %s not mined within %v", st.tx.Hash().Hex(), mineDeadline)
		}
		sleep(ctx, chainRetry)
	}
}

// broadcastOnce sends st once (a failure is fine: mine sends it again).
func (h *harness) broadcastOnce(ctx context.Context, w *wallet.Wallet, st *sentTx) {
	actx, cancel := context.WithTimeout(ctx, h.cfg.ClientTimeout)
	defer cancel()
	_ = w.Broadcast(actx, st.tx)
}

// balanceOf reads an ERC-20 balance at the latest block.
func (h *harness) balanceOf(ctx context.Context, token, owner common.Address) (*big.Int, error) {
	var b *big.Int
	err := h.chainCall(ctx, "balanceOf", func(ctx context.Context) error {
		var err error
		b, err = wallet.BalanceOf(ctx, h.eth, token, owner)
		return err
	})
	return b, err
}

// faucet funds addr from the admin faucet, retrying across restarts. A
// retry after a kill may fund twice: only strangers are funded while
// faults run, and their balances are not checked.
func (h *harness) faucet(ctx context.Context, addr common.Address, currency string, amount *big.Int) error {
	give := time.Now().Add(mineDeadline)
	for {
		if _, err := h.srv.waitUp(ctx); err != nil {
			return err
		}
		p, _ := h.srv.current()
		actx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := p.Faucet(actx, addr.Hex(), currency, wallet.Decimal(amount, h.decimals))
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || time.Now().After(give) {
			return fmt.Errorf("faucet %s: %w", addr.Hex(), err)
		}
		sleep(ctx, chainRetry)
	}
}
