package domain

// The JSON shapes of CONTRACT.md's resources. Field order here is the order
// on the wire; keep it stable, idempotent replays compare bytes.

// AccountView is GET /account.
type AccountView struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	KYCStatus   string          `json:"kyc_status"`
	Permissions PermissionsView `json:"permissions"`
	Wallets     []WalletView    `json:"wallets"`
	CreatedAt   string          `json:"created_at"`
}

// PermissionsView is the permissions object of an account.
type PermissionsView struct {
	Swap bool `json:"swap"`
	Pay  bool `json:"pay"`
}

// ViewAccount renders an account.
func ViewAccount(a *Account) AccountView {
	return AccountView{
		ID: a.ID, Name: a.Name, KYCStatus: a.KYC,
		Permissions: PermissionsView{Swap: a.Swap, Pay: a.Pay},
		Wallets:     []WalletView{},
		CreatedAt:   RFC3339(a.CreatedAt),
	}
}

// ContactView is one contact.
type ContactView struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Address   string  `json:"address"`
	Currency  *string `json:"currency"`
	Memo      *string `json:"memo"`
	CreatedAt string  `json:"created_at"`
	UpdatedAt string  `json:"updated_at"`
}

// ViewContact renders a contact; unset optional fields are null.
func ViewContact(c *Contact) ContactView {
	return ContactView{
		ID: c.ID, Name: c.Name, Address: c.Address,
		Currency: nullable(c.Currency), Memo: nullable(c.Memo),
		CreatedAt: RFC3339(c.CreatedAt), UpdatedAt: RFC3339(c.UpdatedAt),
	}
}

// KeyView is what the admin API returns for a key. The public key is not
// echoed: it identifies nothing the caller does not already hold.
type KeyView struct {
	KeyID     string   `json:"key_id"`
	Account   string   `json:"account"`
	Scopes    []string `json:"scopes"`
	Revoked   bool     `json:"revoked"`
	CreatedAt string   `json:"created_at"`
}

// ViewKey renders an API key.
func ViewKey(k *APIKey) KeyView {
	return KeyView{KeyID: k.ID, Account: k.Account, Scopes: k.Scopes.Names(), Revoked: k.Revoked, CreatedAt: RFC3339(k.CreatedAt)}
}

// DeletedView is the answer to every DELETE.
type DeletedView struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
