package domain

// Command is anything an account entity can be asked to do. Commands carry
// plain values only (no pointers into request buffers), so they can cross
// goroutines and, later, nodes.
type Command interface{ commandName() string }

// CreateAccount creates the account (admin). ID is chosen by the host.
type CreateAccount struct {
	ID, Name, KYC, Env string
	Swap, Pay          bool
}

// UpdateAccount changes KYC status or permissions (admin). Nil leaves a
// field as it is.
type UpdateAccount struct {
	KYC       *string
	Swap, Pay *bool
}

// CreateKey registers an Ed25519 public key (admin).
type CreateKey struct {
	KeyID     string
	PublicKey []byte
	Scopes    Scopes
}

// RevokeKey revokes a key (admin); it takes effect on the next request.
type RevokeKey struct{ KeyID string }

// CreateContact is POST /contacts.
type CreateContact struct {
	Name     string  `json:"name"`
	Address  string  `json:"address"`
	Currency *string `json:"currency"`
	Memo     *string `json:"memo"`
}

// UpdateContact is PATCH /contacts/{id}. A nil field is left as it is; an
// empty currency or memo clears it.
type UpdateContact struct {
	ID       string  `json:"-"`
	Name     *string `json:"name"`
	Address  *string `json:"address"`
	Currency *string `json:"currency"`
	Memo     *string `json:"memo"`
}

// DeleteContact is DELETE /contacts/{id}.
type DeleteContact struct{ ID string }

// RecordAnswer keeps an answer computed outside the entity so that an
// Idempotency-Key replays it: POST /fx/quotes, whose quotes live in memory.
// Decide returns it as it is; Handle stores it with the key, or replays
// the answer stored first when the key was used already.
type RecordAnswer struct{ Reply Reply }

func (RecordAnswer) commandName() string  { return "record_answer" }
func (CreateAccount) commandName() string { return "create_account" }
func (UpdateAccount) commandName() string { return "update_account" }
func (CreateKey) commandName() string     { return "create_key" }
func (RevokeKey) commandName() string     { return "revoke_key" }
func (CreateContact) commandName() string { return "create_contact" }
func (UpdateContact) commandName() string { return "update_contact" }
func (DeleteContact) commandName() string { return "delete_contact" }

// Query is a read of an account entity: no events, answered from the
// committed state.
type Query interface{ queryName() string }

// GetAccount is GET /account.
type GetAccount struct{}

// ListContacts is GET /contacts.
type ListContacts struct{ Page Page }

// GetContact reads one contact.
type GetContact struct{ ID string }

// GetKey reads one API key (admin).
type GetKey struct{ KeyID string }

func (GetAccount) queryName() string   { return "get_account" }
func (ListContacts) queryName() string { return "list_contacts" }
func (GetContact) queryName() string   { return "get_contact" }
func (GetKey) queryName() string       { return "get_key" }
