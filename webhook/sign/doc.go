// Package sign implements the Standard Webhooks signature
// (https://www.standardwebhooks.com), so a receiver can check our deliveries
// with that project's libraries in any language (CONTRACT.md "Webhooks").
//
// An endpoint secret is "whsec_" followed by the standard, padded base64 of
// a random key. A delivery carries three headers:
//
//	webhook-id:        the event id, the same on every attempt
//	webhook-timestamp: unix seconds of this attempt
//	webhook-signature: v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + raw body)>
//
// During a secret rotation webhook-signature holds one such value per key,
// space-separated, newest first; a receiver accepts the delivery if any one
// of them matches a secret it knows.
//
// The sender uses NewSecret, ParseSecret and Header; Verify is the
// receiver's side, kept here so our own end-to-end receiver can check
// deliveries with code independent of the npm library that made
// shared/vectors/webhooks.json.
package sign
