// Package screen is the SSRF screen for webhook URLs (CONTRACT.md
// "Webhooks"): a merchant gives us a URL and we make HTTPS requests to it
// from inside our network, so without a screen a webhook is a way to reach
// our loopback services, the private network, or a cloud metadata service.
//
// The screen runs at registration and again before each delivery, and it
// has two lines of defence:
//
//  1. Screen parses the URL strictly, resolves a host name once (bounded in
//     time), and refuses the URL unless every address it stands for is a
//     globally routable unicast address (Allowed). The resulting Target
//     carries the screened addresses.
//  2. Dialer connects only to those screened addresses, never resolving
//     the name again, so a DNS answer that changes between the screen and
//     the connection (DNS rebinding) cannot redirect the delivery; and each
//     connection passes DialControl, which re-checks the address at connect
//     time, just before the kernel sends anything.
//
// Classification is an allow-list in spirit: an address passes only if it
// is public unicast; every special-purpose block is named so the refusal
// says why, and anything outside the global unicast space is refused even
// if no block names it. Policy.AllowLoopback (--webhook-allow-loopback,
// test environment only) admits loopback receivers and nothing else.
//
// Every refusal is an *Error whose text is written for the API caller,
// because it becomes the message of a 400 invalid_webhook_url.
package screen
