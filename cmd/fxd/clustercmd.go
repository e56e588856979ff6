package main

import (
	"github.com/spf13/cobra"
)

// newClusterCmd is `fxd cluster status`: the partition map as a running
// cluster node sees it (its admin listener's GET /admin/cluster).
func newClusterCmd() *cobra.Command {
	cl := groupCommand("cluster", "Look at a running cluster node")
	target := addAdminFlags(cl.PersistentFlags())
	status := &cobra.Command{
		Use:   "status",
		Short: "Print every partition: its stream's leader and replicas (lag, current, offline), and whether this node owns it and how far its store is applied",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return target.print(cmd.OutOrStdout(), "GET", "/admin/cluster", nil)
		},
	}
	removePeer := &cobra.Command{
		Use:   "remove-peer NODE",
		Short: "Remove a dead node from the cluster for good (its disk is lost): its replicas move to the nodes up, a replacement started under a new name included; prints {\"removed\":NODE}",
		Args:  argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return target.print(cmd.OutOrStdout(), "POST", "/admin/cluster/remove-peer", map[string]string{"node": args[0]})
		},
	}
	cl.AddCommand(status, removePeer)
	return cl
}
