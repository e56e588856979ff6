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
			c, err := target.client()
			if err != nil {
				return err
			}
			out, err := c.do("GET", "/admin/cluster", nil)
			if err != nil {
				return err
			}
			return printRaw(cmd.OutOrStdout(), out)
		},
	}
	removePeer := &cobra.Command{
		Use:   "remove-peer NODE",
		Short: "Remove a dead node from the cluster for good (its disk is lost): its replicas move to the nodes up, a replacement started under a new name included; prints {\"removed\":NODE}",
		Args:  argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := target.client()
			if err != nil {
				return err
			}
			out, err := c.do("POST", "/admin/cluster/remove-peer", map[string]string{"node": args[0]})
			if err != nil {
				return err
			}
			return printRaw(cmd.OutOrStdout(), out)
		},
	}
	cl.AddCommand(status, removePeer)
	return cl
}
