package torture

// editGauge counts an account's field writes of one kind (wallets or
// endpoints): gen moves at every start and end, busy is how many are in
// flight. A list read between two equal readings with nothing busy
// overlapped no write, so its fields must be the last acknowledged ones.
type editGauge struct {
	gen, busy int
}

// beginEdit notes a field write about to be sent; the returned func ends
// it once its answer (or its giving up) has been recorded.
func (a *account) beginEdit(g *editGauge) func() {
	a.mu.Lock()
	g.gen++
	g.busy++
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		g.gen++
		g.busy--
		a.mu.Unlock()
	}
}

// gauge reads g.
func (a *account) gauge(g *editGauge) editGauge {
	a.mu.Lock()
	defer a.mu.Unlock()
	return *g
}

// quiet reports whether no write overlapped the span between readings
// before and after.
func quiet(before, after editGauge) bool { return before.busy == 0 && before == after }
