package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// cfsPeriodUs is the CFS period the bench's CPU quotas are set over.
const cfsPeriodUs = 100_000

// cpuQuota is a cgroup the bench made to cap one process's CPU: cgroup
// v2's cpu.max, or v1's cpu controller where that is what is mounted.
type cpuQuota struct {
	dir  string // the cgroup's directory
	root string // the hierarchy's root, where release moves the process back
	pid  int
}

// limitCPU puts pid in a new cgroup named name that may use cores CPUs'
// worth of time (0.67: two thirds of one core). It needs to be root, or
// a delegated hierarchy; the error says why it could not.
func limitCPU(name string, pid int, cores float64) (*cpuQuota, error) {
	quota := strconv.Itoa(int(cores * cfsPeriodUs))
	var q *cpuQuota
	var files [][2]string
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		q = &cpuQuota{root: "/sys/fs/cgroup"}
		files = [][2]string{{"cpu.max", quota + " " + strconv.Itoa(cfsPeriodUs)}}
	} else if _, err := os.Stat("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"); err == nil {
		q = &cpuQuota{root: "/sys/fs/cgroup/cpu"}
		files = [][2]string{{"cpu.cfs_period_us", strconv.Itoa(cfsPeriodUs)}, {"cpu.cfs_quota_us", quota}}
	} else {
		return nil, errors.New("no cgroup cpu controller mounted at /sys/fs/cgroup")
	}
	q.dir, q.pid = filepath.Join(q.root, name), pid
	if err := os.Mkdir(q.dir, 0o755); err != nil {
		return nil, fmt.Errorf("cgroup %s: %w", q.dir, err)
	}
	files = append(files, [2]string{"cgroup.procs", strconv.Itoa(pid)})
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(q.dir, f[0]), []byte(f[1]), 0o644); err != nil {
			_ = os.Remove(q.dir)
			return nil, fmt.Errorf("cgroup %s: %w", f[0], err)
		}
	}
	return q, nil
}

// release moves the process back to the root cgroup (if it still runs)
// and removes the cgroup.
func (q *cpuQuota) release() error {
	_ = os.WriteFile(filepath.Join(q.root, "cgroup.procs"), []byte(strconv.Itoa(q.pid)), 0o644)
	if err := os.Remove(q.dir); err != nil {
		return fmt.Errorf("cgroup %s: %w", q.dir, err)
	}
	return nil
}
