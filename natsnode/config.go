package natsnode

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/fxd-labs/fxd/wal"
	"github.com/nats-io/nats-server/v2/server"
)

// MaxPayload is the largest message (headers and data) the node accepts.
// One message of a partition log carries a whole group-commit batch, and a
// batch of a single entry may be as large as the largest entry a log takes
// (wal.MaxPayload, 16 MiB), framed; NATS's default of 1 MiB would refuse
// it. The rest is room for the frame header and the message headers.
const MaxPayload = wal.MaxPayload + 1<<20

// DefaultStartTimeout bounds how long Start waits for the server to accept
// clients: JetStream recovers every stream of the store directory first.
const DefaultStartTimeout = 60 * time.Second

// Config configures one embedded NATS server with JetStream.
type Config struct {
	// Name is the server's name, unique in its cluster (JetStream's peers
	// and stream leaders are named by it). Required.
	Name string
	// StoreDir is where JetStream keeps its file store. Required.
	StoreDir string
	// ClientListen is host:port for clients; port 0 picks a free port.
	// Default "127.0.0.1:0".
	ClientListen string
	// ClusterName names the cluster; every node of it uses the same one.
	// Required when ClusterListen is set.
	ClusterName string
	// ClusterListen is host:port for routes from the other nodes; port 0
	// picks a free port. Empty: a standalone node, no cluster.
	ClusterListen string
	// Peers are the route URLs (nats://host:port) of the cluster's nodes;
	// listing the node itself is harmless. JetStream's clustering needs at
	// least one.
	Peers []string
	// StartTimeout bounds the wait for the server to accept clients.
	// Default DefaultStartTimeout.
	StartTimeout time.Duration
	// Logf, if set, receives the server's notices, warnings and errors,
	// one line each. Nil: the server logs nothing.
	Logf func(format string, args ...any)
	// sysPassword is the system user's, set by Start.
	sysPassword string
}

// serverOptions translates c into nats-server options. SyncAlways is set
// here and nowhere else can turn it off: every acknowledged append is
// fsynced before its PubAck (DESIGN.md, "Beyond one machine": with the
// default two-minute flush JetStream lost acknowledged writes under
// Jepsen).
func (c Config) serverOptions() (*server.Options, error) {
	if c.Name == "" {
		return nil, errors.New("config: Name is required")
	}
	if c.StoreDir == "" {
		return nil, errors.New("config: StoreDir is required")
	}
	listen := c.ClientListen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	host, port, err := splitListen(listen)
	if err != nil {
		return nil, fmt.Errorf("config: ClientListen: %w", err)
	}
	opts := &server.Options{
		ServerName: c.Name,
		Host:       host,
		Port:       port,
		NoSigs:     true, // the process owns its signals
		MaxPayload: MaxPayload,
		JetStream:  true,
		StoreDir:   c.StoreDir,
		SyncAlways: true,
		// The banner is many lines of ASCII art in the caller's log.
		DisableJetStreamBanner: true,
	}
	if err := c.clusterOptions(opts); err != nil {
		return nil, err
	}
	c.users(opts)
	return opts, nil
}

// Client users. Connections without credentials are appUser, in the
// global account where the streams live (as before users existed);
// sysUser, in the system account, is how the node's own operator calls
// that JetStream takes only from there (removing a dead peer from the
// meta group) reach it. Its password is the node's, made at Start and
// never written down; client connections are loopback-only anyway.
const (
	appUser = "fxd"
	sysUser = "fxd-sys"
)

// users adds the two client users and the system account.
func (c Config) users(opts *server.Options) {
	sys := server.NewAccount(server.DEFAULT_SYSTEM_ACCOUNT)
	opts.Accounts = []*server.Account{sys}
	opts.SystemAccount = server.DEFAULT_SYSTEM_ACCOUNT
	opts.Users = []*server.User{{Username: appUser}, {Username: sysUser, Password: c.sysPassword, Account: sys}}
	opts.NoAuthUser = appUser
}

// clusterOptions adds the cluster listener and routes, if configured.
func (c Config) clusterOptions(opts *server.Options) error {
	if c.ClusterListen == "" {
		if len(c.Peers) > 0 || c.ClusterName != "" {
			return errors.New("config: ClusterName and Peers need ClusterListen")
		}
		return nil
	}
	if c.ClusterName == "" {
		return errors.New("config: ClusterListen needs ClusterName")
	}
	if len(c.Peers) == 0 {
		return errors.New("config: a clustered node needs Peers (JetStream needs configured routes)")
	}
	host, port, err := splitListen(c.ClusterListen)
	if err != nil {
		return fmt.Errorf("config: ClusterListen: %w", err)
	}
	opts.Cluster = server.ClusterOpts{Name: c.ClusterName, Host: host, Port: port}
	seen := make(map[string]bool, len(c.Peers))
	for _, p := range c.Peers {
		u, err := url.Parse(p)
		if err != nil || u.Host == "" {
			return fmt.Errorf("config: peer %q is not a route URL (nats://host:port)", p)
		}
		// JetStream sizes a new cluster's meta group by the routes
		// configured, and a new cluster elected no meta leader while
		// one of them was missing: a peer listed twice is one that never
		// comes (CI once gave two nodes the same port).
		if seen[u.Host] {
			return fmt.Errorf("config: peer %s is listed twice", u.Host)
		}
		seen[u.Host] = true
		opts.Routes = append(opts.Routes, u)
	}
	return nil
}

// splitListen splits host:port; port 0 becomes nats-server's "pick a free
// port" (its own 0 means the default port, 4222 or 6222).
func splitListen(hostport string) (string, int, error) {
	host, ps, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port in %q", hostport)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}
