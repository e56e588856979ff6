// Package snapshot is the Pebble store that trails the write-ahead log.
//
// The log is the truth; Pebble is a materialized copy of it that makes
// restarts fast and lets idle entities leave memory. The applier writes the
// rows of committed records in log order, with the applied log index in the
// same Pebble batch, so Pebble always holds exactly the prefix 1..applied of
// the log. The log may be truncated only in front of an applied index that
// Pebble has synced.
//
// Keys (all ASCII prefixes, ids never contain '/'):
//
//	m/applied                   uint64 little-endian: last applied log index
//	m/meta/<key>                service facts (EvMetaPut), e.g. chain_genesis
//	a/<acct>/p                  account profile row
//	a/<acct>/k/<key id>         API key row (copy for loading the account)
//	a/<acct>/c/<contact id>     contact row
//	a/<acct>/i/<scope>          idempotency record
//	a/<acct>/w/<address>        linked wallet
//	a/<acct>/h/<nonce>          issued SIWE challenge
//	k/<key id>                  API key row (the directory, loaded at start)
//	o/<order id>                FX order row
//	x/<created ns BE>/<acct>/<scope>  expiry index of idempotency records
package snapshot
