package torture

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestConfigDefaultsAndRefusals(t *testing.T) {
	c, err := Config{Bin: "fxd", WorkDir: "/tmp/x", Duration: time.Minute}.withDefaults()
	require.NoError(t, err)
	require.Equal(t, defaultAccounts, c.Accounts)
	require.Equal(t, defaultWorkers, c.WorkersPerAccount)
	require.Equal(t, defaultClientTimeout, c.ClientTimeout)
	require.Equal(t, uint64(defaultRSSLimit), c.RSSLimit)
	require.NotNil(t, c.Logf)

	for name, bad := range map[string]Config{
		"no bin":         {WorkDir: "/tmp/x", Duration: time.Minute},
		"no dir":         {Bin: "fxd", Duration: time.Minute},
		"no duration":    {Bin: "fxd", WorkDir: "/tmp/x"},
		"negative kills": {Bin: "fxd", WorkDir: "/tmp/x", Duration: time.Minute, MinKills: -1},
		"many workers":   {Bin: "fxd", WorkDir: "/tmp/x", Duration: time.Minute, WorkersPerAccount: maxWorkersPerAccount + 1},
		"short deadline": {Bin: "fxd", WorkDir: "/tmp/x", Duration: time.Minute, ClientTimeout: time.Millisecond},
	} {
		_, err := bad.withDefaults()
		require.Error(t, err, name)
	}
}
