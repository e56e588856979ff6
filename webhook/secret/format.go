package secret

import (
	"fmt"
	"io"
)

// sealerText is how a Sealer prints. A Sealer sits inside configuration and
// server structs that get logged with %+v; printing its fields would reach
// the AES key schedule, from which the master key follows.
const sealerText = "secret.Sealer{…}"

// Format prints sealerText for every verb (fmt consults Format before
// String, GoString and the fields), so no verb or flag reaches the key.
// The value receiver covers both Sealer and *Sealer.
func (Sealer) Format(f fmt.State, _ rune) { io.WriteString(f, sealerText) }

// String is for callers that ask for it directly rather than through fmt.
func (Sealer) String() string { return sealerText }

// GoString is for the same callers, as %#v would.
func (Sealer) GoString() string { return sealerText }
