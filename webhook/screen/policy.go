package screen

// Policy is what the screen admits beyond public unicast addresses.
type Policy struct {
	// AllowLoopback admits loopback receivers (127.0.0.0/8, ::1 and
	// IPv4-mapped loopback such as ::ffff:127.0.0.1), so end-to-end tests
	// can run a real TLS receiver on this machine. It is set by
	// --webhook-allow-loopback, which the service refuses with --env live.
	// It admits nothing else: non-canonical numeric spellings of loopback
	// and loopback embedded in NAT64, 6to4 or IPv4-compatible addresses
	// stay refused, since those reach other machines or nothing at all.
	AllowLoopback bool
}
