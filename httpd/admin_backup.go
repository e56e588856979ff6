package httpd

// registerBackupRoutes adds the backup routes of the admin listener.
// Backups are being built (issue 14); until then there are none.
func (a *Admin) registerBackupRoutes() {}
