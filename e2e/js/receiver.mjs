// receiver.mjs is a webhook receiver for the e2e tests: a real HTTPS
// server that verifies every delivery with the Standard Webhooks library
// (the `standardwebhooks` npm package), as an integrator's receiver would.
//
// Usage: node receiver.mjs --cert FILE --key FILE [--port N]
//   (or env RECEIVER_CERT, RECEIVER_KEY, RECEIVER_PORT). It listens on
//   127.0.0.1, on port N (default 0: an ephemeral one).
//
// stdout, one JSON object a line:
//   {"listening":PORT}                      first, once it serves;
//   {"ack":N}                               after the N-th stdin line is applied;
//   {"method","path","id","timestamp","signatures","body","verified","status"}
//     one per request, printed when its body has been read and before it is
//     answered: id, timestamp and signatures are the webhook-id,
//     webhook-timestamp and webhook-signature headers ("" when absent), body
//     the raw body, verified {secret: bool} for every secret known by then
//     (Webhook(secret).verify(body, headers) did not throw), status what it
//     answers (null: it never answers).
//
// stdin, one JSON object a line: {"secret":"whsec_…"} adds a secret to
// verify with (secrets are learnt after the endpoints are created).
//
// The first path segment chooses the answer, so one receiver serves many
// endpoints (the rest of the path is a free label):
//   /ok/…          200
//   /fail/…        500
//   /status/N/…    N
//   /hang/…        never answers (the socket stays open)
//   /redirect/…    302 to /ok/from-redirect/… on this server
//   /flaky/N/…     500 to the first N requests on this exact path, then 200
//   anything else  404
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";

const { values: args } = parseArgs({
  options: { cert: { type: "string" }, key: { type: "string" }, port: { type: "string" } },
});
const certFile = args.cert ?? process.env.RECEIVER_CERT;
const keyFile = args.key ?? process.env.RECEIVER_KEY;
const port = Number(args.port ?? process.env.RECEIVER_PORT ?? 0);
if (!certFile || !keyFile) {
  process.stderr.write("usage: node receiver.mjs --cert FILE --key FILE [--port N]\n");
  process.exit(2);
}

// stdout is a pipe: writes are synchronous on Linux, so lines keep their order.
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");

const secrets = [];
const counts = new Map(); // exact path -> requests seen

function verified(body, headers) {
  const out = {};
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body, headers);
      out[secret] = true;
    } catch {
      out[secret] = false;
    }
  }
  return out;
}

// answer returns {status, headers?} for the n-th request on path, or null
// for never.
function answer(path, n) {
  const [, kind, arg] = path.split("/");
  switch (kind) {
    case "ok":
      return { status: 200 };
    case "fail":
      return { status: 500 };
    case "status":
      return { status: Number(arg) || 500 };
    case "hang":
      return null;
    case "redirect":
      return { status: 302, headers: { location: "/ok/from-redirect" + path.slice("/redirect".length) } };
    case "flaky":
      return { status: n <= Number(arg) ? 500 : 200 };
    default:
      return { status: 404 };
  }
}

const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url, "https://receiver").pathname;
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    const a = answer(path, n);
    print({
      method: req.method,
      path,
      id: req.headers["webhook-id"] ?? "",
      timestamp: req.headers["webhook-timestamp"] ?? "",
      signatures: req.headers["webhook-signature"] ?? "",
      body,
      verified: verified(body, req.headers),
      status: a ? a.status : null,
    });
    if (a) {
      res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
      res.end(a.status < 300 ? "ok\n" : "no\n");
    }
  });
});
server.requestTimeout = 0; // /hang hangs for as long as the client waits
server.listen(port, "127.0.0.1", () => print({ listening: server.address().port }));

let lines = 0;
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  lines++;
  const msg = JSON.parse(line);
  if (typeof msg.secret === "string" && !secrets.includes(msg.secret)) {
    secrets.push(msg.secret);
  }
  print({ ack: lines });
});
