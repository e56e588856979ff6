package httpd

import (
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/fxd-labs/fxd/chain/siwe"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
)

func (s *Server) listWallets(rc *reqCtx) {
	page, err := rc.page(noCursor) // an address: the account checks it
	if err != nil {
		writeError(rc.ctx, err)
		return
	}
	rc.ask(domain.ListWallets{Page: page})
}

// reachedAs is this service as the caller reached it (its Host header and
// the connection's scheme): a SIWE challenge's domain and URI when no
// --public-url names the service.
func (s *Server) reachedAs(rc *reqCtx) (host, uri string, err *domain.Error) {
	host = string(rc.ctx.Host())
	if host == "" || strings.ContainsAny(host, " /") {
		return "", "", domain.ErrInvalid("the request needs a Host header")
	}
	scheme := "http"
	if rc.ctx.IsTLS() {
		scheme = "https"
	}
	return host, scheme + "://" + host + s.cfg.BasePath, nil
}

// createChallenge issues a SIWE message for the address. Its domain and URI
// are this service: as --public-url names it when the operator set it (the
// Host header is not signed: a key holder could otherwise have a challenge
// name any site), else as the caller reached it (a test environment on
// loopback), so a wallet shows the user where they are signing in.
func (s *Server) createChallenge(rc *reqCtx) {
	var c domain.CreateChallenge
	if err := jsonbody.Decode(rc.ctx.Request.Body(), &c); err != nil {
		rc.refuse(err)
		return
	}
	host, uri := s.siweHost, s.siweURI
	if host == "" {
		var derr *domain.Error
		if host, uri, derr = s.reachedAs(rc); derr != nil {
			rc.refuse(derr)
			return
		}
	}
	if s.cfg.Chain == nil {
		writeError(rc.ctx, errNoChain)
		return
	}
	c.Domain, c.URI, c.ChainID = host, uri, s.cfg.Chain.ChainID.Uint64()
	rc.exec(c)
}

// registerWallet parses the signed SIWE message and recovers its signer
// here, on the request goroutine, so the account actor only compares.
func (s *Server) registerWallet(rc *reqCtx) {
	var c domain.RegisterWallet
	if err := jsonbody.Decode(rc.ctx.Request.Body(), &c); err != nil {
		rc.refuse(err)
		return
	}
	if err := recoverWalletSigner(&c); err != nil {
		rc.refuse(err)
		return
	}
	rc.exec(c)
}

// recoverWalletSigner parses c's SIWE message and recovers the address
// that signed it into c.Parsed and c.Signer (the fuzz target calls it too).
func recoverWalletSigner(c *domain.RegisterWallet) *domain.Error {
	parsed, err := siwe.Parse(c.Message)
	if err != nil {
		return domain.ErrInvalid("message is not a SIWE (EIP-4361) message: %v", err)
	}
	// Not a signature by its form is 400 invalid_request, as a submitted
	// order signature is; invalid_signature is for 65 bytes that do not
	// recover to the message's address.
	sig, err := hexutil.Decode(c.Signature)
	if err != nil || len(sig) != 65 {
		return domain.ErrInvalid("signature must be 0x-prefixed hex of 65 bytes (r, s, v)")
	}
	signer, err := siwe.Recover(c.Message, sig)
	if err != nil {
		return domain.ErrBadSignature("%v", err)
	}
	c.Parsed, c.Signer = parsed, signer.Hex()
	return nil
}

func (s *Server) updateWallet(rc *reqCtx) {
	var c domain.UpdateWallet
	if err := jsonbody.Decode(rc.ctx.Request.Body(), &c); err != nil {
		rc.refuse(err)
		return
	}
	addr, ok := walletParam(rc)
	if !ok {
		return
	}
	c.Address = addr
	rc.exec(c)
}

func (s *Server) deleteWallet(rc *reqCtx) {
	if err := emptyBody(rc.ctx.Request.Body()); err != nil {
		rc.refuse(err)
		return
	}
	addr, ok := walletParam(rc)
	if !ok {
		return
	}
	rc.exec(domain.DeleteWallet{Address: addr})
}

// walletParam reads {address} in any hex case; a malformed one cannot name
// a wallet, so it is 404, kept under an Idempotency-Key as the account's
// 404 for a well-formed unknown one is.
func walletParam(rc *reqCtx) (string, bool) {
	addr, err := domain.NormalizeAddress("address", rc.params.get("address"))
	if err != nil {
		rc.refuse(domain.ErrNotFound("wallet"))
		return "", false
	}
	return addr, true
}
