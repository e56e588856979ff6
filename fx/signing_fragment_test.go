package fx

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEscrowFragmentIsSolcs: signing.call.abi is the escrowQuoteWithPermit2
// entry of solc's artifact, compacted, byte for byte (its internalTypes
// named as solc names them, "struct RfqEscrow.Quote"), not abigen's
// minified copy.
func TestEscrowFragmentIsSolcs(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "chain", "contracts", "build", "RfqEscrow.abi"))
	require.NoError(t, err)
	var entries []json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &entries))
	var want []byte
	for _, e := range entries {
		var head struct{ Type, Name string }
		require.NoError(t, json.Unmarshal(e, &head))
		if head.Type == "function" && head.Name == "escrowQuoteWithPermit2" {
			var buf bytes.Buffer
			require.NoError(t, json.Compact(&buf, e))
			want = buf.Bytes()
		}
	}
	require.NotNil(t, want, "the artifact has escrowQuoteWithPermit2")
	require.Contains(t, string(want), `"internalType":"struct RfqEscrow.Quote"`)
	require.Equal(t, string(want), string(escrowQuoteFragment()))
}
