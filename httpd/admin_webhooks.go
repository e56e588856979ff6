package httpd

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook"
)

// resealTimeout bounds one POST /admin/webhooks/reseal. A reseal is one
// log write per endpoint that needs it, resealWorkers at a time; a run cut
// short by this bound (or by the caller going away) is finished by running
// it again, since endpoints already resealed count as already_current.
const resealTimeout = 10 * time.Minute

// registerWebhookAdminRoutes adds the webhook routes of the admin
// listener: the reseal that follows a master key rotation.
func (a *Admin) registerWebhookAdminRoutes() {
	a.mux.HandleFunc("POST /admin/webhooks/reseal", a.reseal)
}

// reseal is POST /admin/webhooks/reseal: every endpoint's secrets sealed
// under the current webhook master key (webhook.Desk.Reseal). It answers
// 200 {"resealed":N,"already_current":M,"failed":K}; K > 0 means some
// endpoint could not be resealed (the server log names each, e.g. a value
// sealed under a key no longer configured), and the previous key must stay.
// Any body is ignored.
func (a *Admin) reseal(w http.ResponseWriter, r *http.Request) {
	if a.hooks == nil {
		adminError(w, domain.ErrUnavailable("the webhook desk is not running"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), resealTimeout)
	defer cancel()
	res, err := a.hooks.Reseal(ctx)
	switch {
	case errors.Is(err, webhook.ErrNoSealer):
		adminError(w, domain.ErrWebhookEncryptionUnavailable())
	case err != nil:
		adminError(w, domain.ErrUnavailable("webhook reseal: %v", err))
	default:
		adminJSON(w, http.StatusOK, res)
	}
}
