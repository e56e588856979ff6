package domain

// The commands of an account entity (Target KindAccount).

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
// Idempotency-Key replays it: POST /fx/quotes, whose quotes live in memory,
// and a write the front door refused before any entity decided (a body
// that does not decode), kept by the entity the route's command would
// have met first, so the one record answers both. Decide returns it as it
// is; Handle stores it with the key, or replays the answer stored first
// when the key was used already (another body: 422). Kind is the entity
// that keeps it, zero for the account; any other kind's Decide knows no
// such command, so its store takes it alone (HandleRequest).
type RecordAnswer struct {
	Reply Reply
	Kind  Kind
}

// ReserveID is the first half of a create whose record is an entity of its
// own (a transfer, a payment link): the account draws the record's id and,
// under the request's Idempotency-Key (its scope with ReserveSuffix), keeps
// it, so a retry of the create reaches the same entity, which keeps the
// create's own answer. Without a key it just draws an id.
type ReserveID struct{ Prefix string }

// ReserveSuffix is appended to a create's idempotency scope for its
// ReserveID, so the id and the answer are two records of one key.
const ReserveSuffix = "\x00id"

// ReservedID is the answer of ReserveID.
type ReservedID struct {
	ID string `json:"id"`
}

// Target is the kind Kind names, the account when zero.
func (c RecordAnswer) Target() Kind {
	if c.Kind == 0 {
		return KindAccount
	}
	return c.Kind
}

func (ReserveID) Target() Kind     { return KindAccount }
func (CreateAccount) Target() Kind { return KindAccount }
func (UpdateAccount) Target() Kind { return KindAccount }
func (CreateKey) Target() Kind     { return KindAccount }
func (RevokeKey) Target() Kind     { return KindAccount }
func (CreateContact) Target() Kind { return KindAccount }
func (UpdateContact) Target() Kind { return KindAccount }
func (DeleteContact) Target() Kind { return KindAccount }

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
