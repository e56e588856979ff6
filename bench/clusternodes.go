package bench

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/internal/loopback"
)

const (
	// clusterStartTimeout bounds a node's start: JetStream places 64
	// streams of three replicas once every node is up.
	clusterStartTimeout = 3 * time.Minute
	// clusterBalanceTimeout bounds the wait for leadership spread evenly
	// (the nodes' balancer runs every 5 s).
	clusterBalanceTimeout = 2 * time.Minute
)

// clusterNode is one `fxd serve --cluster-*` of the bench's cluster.
type clusterNode struct {
	*FXD
	Name string
}

// startCluster starts n nodes on loopback, data dirs and logs under dir,
// and waits until each serves.
func startCluster(bin, dir string, n int) ([]*clusterNode, error) {
	routes, err := loopback.FreeAddrs(n) // the nodes bind them a moment later
	if err != nil {
		return nil, err
	}
	nodes := make([]*clusterNode, 0, n)
	stopAll := func() {
		for _, nd := range nodes {
			_ = nd.Kill()
		}
	}
	for i := range n {
		name := fmt.Sprintf("n%d", i)
		fx, err := SpawnFXD(bin, filepath.Join(dir, "data-"+name), filepath.Join(dir, "fxd-"+name+".log"), SpawnOptions{},
			"--cluster-name", "bench", "--node-name", name, "--cluster-listen", routes[i], "--peers", strings.Join(routes, ","))
		if err != nil {
			stopAll()
			return nil, err
		}
		nodes = append(nodes, &clusterNode{FXD: fx, Name: name})
	}
	for _, nd := range nodes {
		if err := nd.WaitReady(clusterStartTimeout); err != nil {
			stopAll()
			return nil, fmt.Errorf("cluster node %s: %w", nd.Name, err)
		}
	}
	return nodes, nil
}

// owned is how many partitions the node runs (GET /admin/cluster).
func (nd *clusterNode) owned() (int, error) {
	b, err := nd.adminGet("/admin/cluster")
	if err != nil {
		return 0, err
	}
	var st struct {
		Partitions []struct {
			Owned bool `json:"owned"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return 0, fmt.Errorf("admin /cluster: %w", err)
	}
	n := 0
	for _, p := range st.Partitions {
		if p.Owned {
			n++
		}
	}
	return n, nil
}

// awaitBalanced waits until the nodes own every partition between them,
// each at least its even share rounded down, and returns the counts.
func awaitBalanced(nodes []*clusterNode) ([]int, error) {
	deadline := time.Now().Add(clusterBalanceTimeout)
	for {
		counts, sum, ok := make([]int, len(nodes)), 0, true
		for i, nd := range nodes {
			c, err := nd.owned()
			if err != nil {
				return nil, err
			}
			counts[i], sum = c, sum+c
			ok = ok && c >= ids.Partitions/len(nodes)
		}
		if ok && sum == ids.Partitions {
			return counts, nil
		}
		if time.Now().After(deadline) {
			return counts, fmt.Errorf("leadership not balanced after %v: %v partitions owned", clusterBalanceTimeout, counts)
		}
		time.Sleep(time.Second)
	}
}

// accountWithKey creates an account through fx's admin listener (on a
// cluster node: in a partition that node leads) and a key on it (scope
// pay) whose private key stays here.
func accountWithKey(ctx context.Context, fx *FXD, name string) (Key, error) {
	var acct struct {
		ID string `json:"id"`
	}
	b, err := fx.adminDo(ctx, "POST", "/admin/accounts", map[string]any{"name": name}, time.Minute)
	if err != nil || json.Unmarshal(b, &acct) != nil {
		return Key{}, fmt.Errorf("create account: %v %.200s", err, b)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Key{}, err
	}
	var k struct {
		KeyID string `json:"key_id"`
	}
	b, err = fx.adminDo(ctx, "POST", "/admin/keys", map[string]any{"account": acct.ID, "scopes": []string{"pay"},
		"public_key": base64.StdEncoding.EncodeToString(pub)}, time.Minute)
	if err != nil || json.Unmarshal(b, &k) != nil {
		return Key{}, fmt.Errorf("create key: %v %.200s", err, b)
	}
	return Key{ID: k.KeyID, Account: acct.ID, Priv: priv}, nil
}
