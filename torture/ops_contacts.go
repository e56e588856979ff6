package torture

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/client"
)

// randomAddress is a fresh address from the worker's random source.
func (w *worker) randomAddress() common.Address {
	var a common.Address
	for i := range a {
		a[i] = byte(w.rng.IntN(256))
	}
	return a
}

// createContact: POST /contacts, a unique name, a fresh address.
func (w *worker) createContact(ctx context.Context) error {
	c := &contactRec{address: w.randomAddress().Hex()}
	c.kind, c.name, c.worker = kindContact, w.name("contact"), w
	body := map[string]string{"name": c.name, "address": c.address}
	if w.rng.IntN(2) == 0 {
		c.memo = "memo " + c.name
		body["memo"] = c.memo
	}
	req, resp, err := w.write(ctx, "contacts.create", http.MethodPost, "/contacts", body, true)
	c.create = req
	if err != nil {
		if req != nil {
			req.apply = c.resolveCreate
			w.h.reg.addContact(c) // unresolved: it may exist
			w.own(c)
		}
		return nil
	}
	if resp.Status != http.StatusCreated {
		return unexpected("contacts.create", resp)
	}
	var got client.Contact
	if err := decode(resp, &got); err != nil {
		return err
	}
	c.id = got.ID
	req.recordID = got.ID
	w.h.reg.addContact(c)
	w.own(c)
	return nil
}

func (w *worker) own(c *contactRec) {
	w.mu.Lock()
	w.contacts = append(w.contacts, c)
	w.mu.Unlock()
}

// liveContact picks one of the worker's contacts that exists for sure.
func (w *worker) liveContact() *contactRec {
	w.mu.Lock()
	defer w.mu.Unlock()
	var live []*contactRec
	for _, c := range w.contacts {
		c.locked(func() {
			if c.id != "" && !c.deleted && !c.unsure {
				live = append(live, c)
			}
		})
	}
	if len(live) == 0 {
		return nil
	}
	return live[w.rng.IntN(len(live))]
}

// updateContact: PATCH /contacts/{id} with a new memo.
func (w *worker) updateContact(ctx context.Context) error {
	c := w.liveContact()
	if c == nil {
		return w.createContact(ctx)
	}
	memo := w.name("memo")
	c.flight.Lock()
	defer c.flight.Unlock()
	req, resp, err := w.write(ctx, "contacts.update", http.MethodPatch, "/contacts/"+c.id, map[string]string{"memo": memo}, true)
	if err != nil {
		c.locked(func() { c.unsure = true })
		if req != nil {
			req.apply = func(status int, _ []byte, _ bool) {
				if status == http.StatusOK {
					c.locked(func() { c.memo, c.unsure = memo, false })
				}
			}
		}
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("contacts.update", resp)
	}
	c.locked(func() { c.memo = memo })
	return nil
}

// deleteContact: DELETE /contacts/{id}.
func (w *worker) deleteContact(ctx context.Context) error {
	c := w.liveContact()
	if c == nil {
		return nil
	}
	c.flight.Lock()
	defer c.flight.Unlock()
	c.locked(func() { c.deleting = true })
	req, resp, err := w.write(ctx, "contacts.delete", http.MethodDelete, "/contacts/"+c.id, nil, true)
	if err != nil {
		c.locked(func() { c.unsure = true })
		if req != nil {
			req.apply = func(status int, _ []byte, _ bool) {
				if status == http.StatusOK {
					c.locked(func() { c.deleted, c.unsure = true, false })
				}
			}
		}
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("contacts.delete", resp)
	}
	c.locked(func() { c.deleted = true })
	return nil
}

// resolveCreate takes the id from a create resolved at the end.
func (c *contactRec) resolveCreate(status int, body []byte, _ bool) {
	var got client.Contact
	if status == http.StatusCreated && json.Unmarshal(body, &got) == nil {
		c.locked(func() { c.id = got.ID })
	}
}
