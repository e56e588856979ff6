//go:build !faultinject

package faultinject

// Enabled reports whether this binary was built with the faultinject tag.
const Enabled = false

func lookup(string) (string, bool) { return "", false }
