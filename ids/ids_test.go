package ids

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestIDsSortByCreation(t *testing.T) {
	var g Generator
	base := time.Unix(1795000000, 0)
	var made []string
	for i := 0; i < 2000; i++ {
		// several ids per millisecond, and a clock that steps back once
		now := base.Add(time.Duration(i/3) * time.Millisecond)
		if i == 1000 {
			now = base
		}
		made = append(made, g.New("ct_", now))
	}
	require.True(t, sort.StringsAreSorted(made), "ids must sort in creation order")
	seen := map[string]bool{}
	for _, id := range made {
		require.True(t, strings.HasPrefix(id, "ct_"))
		require.Len(t, id, 3+26)
		require.False(t, seen[id], "duplicate id %s", id)
		seen[id] = true
	}
}

func TestEncodeKnownValue(t *testing.T) {
	var raw [16]byte
	require.Equal(t, "00000000000000000000000000", encode(&raw))
	for i := range raw {
		raw[i] = 0xff
	}
	require.Equal(t, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", encode(&raw))
}
