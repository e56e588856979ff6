package bench

import (
	"fmt"
	"strings"
)

// projectedTarget is issue 16's goal for the cluster's projected
// capacity over a single node.
const projectedTarget = 2.5

// clusterRows renders the cluster phase.
func clusterRows(c *ClusterPhase) []Row {
	rows := pointRows(c.Nodes, &c.ClusterPoint, "")
	if c.Deep != nil {
		rows = append(rows, pointRows(c.Nodes, c.Deep, fmt.Sprintf(" at %d conns", c.Deep.Conns))...)
	}
	if q := c.Quota; q != nil {
		rows = append(rows, quotaRow(q, c.Nodes, c.Single))
	}
	if f := c.Failover; f != nil {
		res := ""
		if f.Problem != "" {
			res = "INVALID"
		}
		rows = append(rows, Row{Name: fmt.Sprintf("cluster: failover, kill -9 %s", f.Node),
			Value: fmt.Sprintf("median %.1f s, max %.1f s", f.MedianS, f.MaxS),
			Detail: fmt.Sprintf("per partition it led (%d), from the kill to the first acknowledged write through a survivor; %d writes acknowledged, %d refused or failed meanwhile %s",
				f.Partitions, f.Writes, f.Refusals, f.Problem),
			Result: res})
	}
	return rows
}

// pointRows renders one operating point; at names it in the rows (""
// for the run's own connections).
func pointRows(nodes int, c *ClusterPoint, at string) []Row {
	rows := []Row{loadRow("cluster: single node POST /contacts (same minutes)"+at, c.Single, "writes/s"),
		loadRow(fmt.Sprintf("cluster: %d nodes POST /contacts, via the leader%s", nodes, at), c.Cluster, "writes/s")}
	if c.Cluster == nil || c.Single == nil || c.ClusterCPUUs <= 0 {
		return rows
	}
	fol := make([]string, len(c.FollowerCPUUs))
	for i, us := range c.FollowerCPUUs {
		fol[i] = fmt.Sprintf("%.0f", us)
	}
	rows = append(rows, Row{Name: "cluster: server CPU per acknowledged write" + at,
		Value: fmt.Sprintf("%.0f µs", c.ClusterCPUUs),
		Detail: fmt.Sprintf("leader %.0f µs + followers %s µs, against the single node's %.0f µs (from /proc); %s writes per stream message (the single node: %s per fsync)",
			c.LeaderCPUUs, strings.Join(fol, " + "), c.Single.ServerCPUUs, perBatch(c.WritesPerMessage), perBatch(c.SingleWritesPerFsync))})
	valid := c.Cluster.Valid() && c.Single.Valid()
	res := passFail(c.Projected >= projectedTarget)
	if !valid {
		res = "INVALID"
	}
	return append(rows, Row{Name: fmt.Sprintf("cluster: projected %d-machine capacity / single node%s", nodes, at),
		Value:  fmt.Sprintf("%.2f×", c.Projected),
		Detail: fmt.Sprintf("%d × single CPU per write / cluster CPU per write: leadership spread evenly, CPU the limit (not disk or network)", nodes),
		Target: fmt.Sprintf("≥ %.1f×", projectedTarget), Result: res})
}

// perBatch renders a mean of records per batch ("?" when unread).
func perBatch(v float64) string {
	if v <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f", v)
}

// quotaRow renders the quota run beside single, the single node's writes
// on the whole machine (nil if they did not run).
func quotaRow(q *QuotaRun, nodes int, single *LoadResult) Row {
	name := fmt.Sprintf("cluster: %d nodes capped at %.2f cores each", nodes, q.CoresEach)
	if q.Skipped != "" {
		return Row{Name: name, Value: "not run", Detail: q.Skipped}
	}
	r := Row{Name: name, Value: fmt.Sprintf("%s writes/s", commas(int64(q.Rate+0.5))),
		Detail: fmt.Sprintf("through every node at once (%v per node), %.0f µs server CPU per write over the %d; the single node on the whole machine: %s writes/s",
			roundedRates(q.Rates), q.CPUUs, nodes, commas(int64(writeRate(single)+0.5)))}
	if !q.Valid {
		r.Result = "INVALID"
	}
	return r
}
