package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// serverRemoveSubject is JetStream's meta-group peer removal; only the
// system account may call it (natsnode.Node.ConnectSystem).
const serverRemoveSubject = "$JS.API.SERVER.REMOVE"

// removePeerWait bounds one removal request.
const removePeerWait = 5 * time.Second

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
	body, _ := json.Marshal(map[string]string{"peer": name})
	// Only the meta leader answers; while one is being elected the request
	// goes unanswered, so each try is short and the caller tries again.
	ctx, cancel := context.WithTimeout(ctx, removePeerWait)
	defer cancel()
	msg, err := nc.RequestWithContext(ctx, serverRemoveSubject, body)
	if err != nil {
		return fmt.Errorf("cluster: remove peer %s: %w", name, err)
	}
	return apiAnswer(msg.Data, "remove peer "+name)
}
