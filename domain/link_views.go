package domain

// PaymentLinkView is a payment link as its account sees it (CONTRACT.md).
// Field order is the wire order.
type PaymentLinkView struct {
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	State          string   `json:"state"`
	Currency       string   `json:"currency"`
	Amount         string   `json:"amount"`
	AmountReceived string   `json:"amount_received"`
	ReceiveAddress string   `json:"receive_address"`
	PayoutWallet   string   `json:"payout_wallet"`
	Description    *string  `json:"description"`
	ExpiresAt      *string  `json:"expires_at"`
	PaidAt         *string  `json:"paid_at"`
	TxHashes       []string `json:"tx_hashes"`
	CreatedAt      string   `json:"created_at"`
}

// ViewLink renders a link for its account: tx_hashes are the payments
// counted toward the amount, oldest first.
func ViewLink(l *Link) PaymentLinkView {
	v := PaymentLinkView{
		ID: l.ID, URL: l.URL, State: l.State, Currency: l.Currency,
		Amount: formatIn(l.Amount, l.Currency), AmountReceived: formatIn(l.Received, l.Currency),
		ReceiveAddress: l.ReceiveAddress, PayoutWallet: l.PayoutWallet, Description: nullable(l.Description),
		ExpiresAt: nullableTime(l), PaidAt: nil, TxHashes: l.txHashes(), CreatedAt: RFC3339(l.CreatedAt),
	}
	if !l.PaidAt.IsZero() {
		p := RFC3339(l.PaidAt)
		v.PaidAt = &p
	}
	return v
}

// PublicLinkView is GET /pay/{id}: what a payer needs, nothing of the account.
type PublicLinkView struct {
	ID             string  `json:"id"`
	State          string  `json:"state"`
	Currency       string  `json:"currency"`
	Amount         string  `json:"amount"`
	AmountReceived string  `json:"amount_received"`
	Description    *string `json:"description"`
	ReceiveAddress string  `json:"receive_address"`
	TokenAddress   string  `json:"token_address"`
	ChainID        uint64  `json:"chain_id"`
	ExpiresAt      *string `json:"expires_at"`
}

// ViewPublicLink renders the public view.
func ViewPublicLink(l *Link) PublicLinkView {
	return PublicLinkView{
		ID: l.ID, State: l.State, Currency: l.Currency, Amount: formatIn(l.Amount, l.Currency),
		AmountReceived: formatIn(l.Received, l.Currency), Description: nullable(l.Description),
		ReceiveAddress: l.ReceiveAddress, TokenAddress: l.TokenAddress, ChainID: l.ChainID, ExpiresAt: nullableTime(l),
	}
}

func nullableTime(l *Link) *string {
	if l.ExpiresAt.IsZero() {
		return nil
	}
	s := RFC3339(l.ExpiresAt)
	return &s
}

// txHashes are the distinct txs of the payments counted toward the amount.
func (l *Link) txHashes() []string {
	out := []string{}
	for _, p := range l.Payments {
		if !p.Late && (len(out) == 0 || out[len(out)-1] != p.TxHash) {
			out = append(out, p.TxHash)
		}
	}
	return out
}
