package httpd

import (
	"errors"
	"net/http"
	"path/filepath"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/backup"
	"github.com/fxd-labs/fxd/domain"
)

// registerBackupRoutes adds the backup routes of the admin listener.
func (a *Admin) registerBackupRoutes() {
	a.mux.HandleFunc("POST /admin/backups", a.createBackup)
}

type backupBody struct {
	Out string `json:"out"` // absolute path of a new or empty directory
}

// errBackupRunning: one backup at a time (actors.ErrBackupRunning).
var errBackupRunning = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
	Message: "a backup is already running; retry when it has finished", RetryAfter: 5}

// createBackup writes a backup of the running server into body.out
// (package backup) and answers 201 with its manifest's summary (no file
// list: manifest.json in the backup has it). It runs for as long
// as the copy takes (the admin listener has no write deadline); a client
// that hangs up cancels it, and what was written is removed.
func (a *Admin) createBackup(w http.ResponseWriter, r *http.Request) {
	var b backupBody
	if err := adminDecode(r, &b); err != nil {
		adminError(w, err)
		return
	}
	if b.Out == "" {
		adminError(w, domain.ErrInvalid("out is required: the absolute path of a new or empty directory"))
		return
	}
	if a.chain == nil {
		adminError(w, errNoChain)
		return
	}
	m, err := backup.Create(r.Context(), backup.Source{State: a.engine, Chain: a.chain, DataDir: a.dataDir}, b.Out)
	switch {
	case errors.Is(err, backup.ErrBadOut):
		adminError(w, domain.ErrInvalid("%v", err))
	case errors.Is(err, actors.ErrBackupRunning):
		adminError(w, errBackupRunning)
	case err != nil:
		adminError(w, domain.ErrUnavailable("backup failed: %v", err))
	default:
		adminJSON(w, 201, m.Summary(filepath.Clean(b.Out)))
	}
}
