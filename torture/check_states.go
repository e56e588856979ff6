package torture

// checkPaths checks every record's states seen so far against its
// machine; a record is reported once.
func (h *harness) checkPaths() {
	snap := h.reg.snapshot()
	var all []*tracked
	for _, o := range snap.orders {
		all = append(all, &o.tracked)
	}
	for _, t := range snap.transfers {
		all = append(all, &t.tracked)
	}
	for _, l := range snap.links {
		all = append(all, &l.tracked)
	}
	for _, e := range snap.endpoints {
		all = append(all, &e.tracked)
	}
	for _, t := range all {
		if err := t.m.checkPath(t.seen()); err != nil {
			h.reportOnce(t, "%s %s (%s): %v", t.kind, t.id, t.name, err)
		}
	}
}

// reportOnce fails once per record.
func (h *harness) reportOnce(t *tracked, format string, args ...any) {
	h.mu.Lock()
	if h.reported == nil {
		h.reported = map[*tracked]bool{}
	}
	done := h.reported[t]
	h.reported[t] = true
	h.mu.Unlock()
	if !done {
		h.fail(format, args...)
	}
}
