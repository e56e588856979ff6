package pay

import "errors"

// ForwardHoldFault is a fault point (internal/faultinject; only a binary
// built with -tags faultinject reads it): set to any value, the desk sends
// no forward of a link's money for as long as the process lives (the job
// fails and retries), so a test can kill -9 with a link paid and its money
// still at the link's address, deterministically.
const ForwardHoldFault = "link-forward-hold"

// errForwardHeld is the forward job's failure under ForwardHoldFault.
var errForwardHeld = errors.New("pay: forwards held by the " + ForwardHoldFault + " fault")
