package sign

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/internal/repo"
	"github.com/stretchr/testify/require"
)

// webhookVector mirrors shared/vectors/webhooks.json, made with the npm
// standardwebhooks package: an implementation we did not write.
type webhookVector struct {
	Secret    string `json:"secret"`
	ID        string `json:"webhook_id"`
	Timestamp string `json:"webhook_timestamp"`
	Body      string `json:"body"`
	Signature string `json:"webhook_signature"`
}

// loadVector reads the reference vector; a missing file fails the test.
func loadVector(t *testing.T) webhookVector {
	t.Helper()
	var v webhookVector
	require.NoError(t, json.Unmarshal(repo.MustShared(t, "vectors/webhooks.json"), &v))
	require.NotEmpty(t, v.Signature)
	return v
}

func TestVector(t *testing.T) {
	v := loadVector(t)
	key, err := ParseSecret(v.Secret)
	require.NoError(t, err)
	ts, err := strconv.ParseInt(v.Timestamp, 10, 64)
	require.NoError(t, err)

	require.Equal(t, v.Signature, Sign(key, v.ID, ts, []byte(v.Body)))
	h, err := Header([][]byte{key}, v.ID, ts, []byte(v.Body))
	require.NoError(t, err)
	require.Equal(t, v.Signature, h)

	now := time.Unix(ts, 0)
	require.NoError(t, Verify(v.Secret, v.ID, v.Timestamp, v.Signature, []byte(v.Body), now, 0))
}
