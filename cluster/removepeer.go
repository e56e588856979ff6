package cluster

import (
	"context"
	"fmt"
)

// serverRemoveSubject is JetStream's meta-group peer removal; only the
// system account may call it (natsnode.Node.ConnectSystem).
const serverRemoveSubject = "$JS.API.SERVER.REMOVE"

// RemovePeer removes a dead node from JetStream's meta group by name (the
// operator's step when a node's disk is lost for good): JetStream then
// places the replicas that node held on the nodes that are up, a
// replacement started under a new name included, and the meta group's
// quorum counts the live nodes only. Removing this node itself is refused.
func (n *Node) RemovePeer(ctx context.Context, name string) error {
	if name == "" || name == n.NATS.Name() {
		return fmt.Errorf("cluster: remove peer %q: name another node than this one", name)
	}
	nc, err := n.NATS.ConnectSystem()
	if err != nil {
		return fmt.Errorf("cluster: remove peer %s: %w", name, err)
	}
	defer nc.Close()
	return jsRequest(ctx, nc, serverRemoveSubject, map[string]string{"peer": name}, "remove peer "+name)
}
