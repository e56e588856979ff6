// Package forward carries an API request from the node that took it to
// the node that owns its partition, and the owner's answer back, over NATS
// request/reply (DESIGN.md, "Beyond one machine": Routing).
//
// The request travels as the raw HTTP/1.1 request the client sent, signed
// headers and body untouched, so the owner verifies the signature, applies
// the rate limits and the replay rule exactly as if the client had called
// it. The answer travels as the raw HTTP/1.1 response the owner wrote and
// is given to the client as it came: status, headers and body byte for
// byte.
//
//   - Subject: the owner of partition k subscribes to "fxd.cmd.<k>"
//     (Subject); nobody else does, and in one queue group, so that while a
//     partition changes hands (old and new owner both subscribed) each
//     request still reaches one node. A Responder holds the subscriptions
//     of the partitions its node owns (Own, Disown).
//   - Client address: the entry node sends the client's IP in the
//     Fxd-Client-Ip header; the owner's handler sees it as the remote
//     address, so per-IP limits count the client, not the entry node.
//   - One hop: the owner's handler runs a forwarded request with
//     IsForwarded true; its router never forwards it again (a node the
//     partition moved away from meanwhile answers 503, and the client
//     tries again), so a request cannot circle.
//   - No owner: while nobody answers on the subject (a failover in
//     progress), the Forwarder tries again every RetryEvery until
//     OwnerWait (10 s) has passed, then the caller answers 503
//     `unavailable` with Retry-After.
//   - Streamed answers (the ledger export) cross in pieces the entry node
//     pulls as its client takes them (stream.go).
//
// Limits: a request message is at most MaxRequest bytes (the API refuses
// bodies over 64 KiB before this), a whole answer at most MaxResponse
// bytes (no route writes a larger one; the owner would answer 503), a
// streamed one PieceSize bytes a message; a Responder runs at most
// MaxInFlight handlers and MaxStreams streams at once and answers 503 to
// the rest, and a Forwarder waits on at most MaxWaiting answers.
package forward
