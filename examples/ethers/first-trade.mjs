// first-trade.mjs walks from `make run` to a settled trade with ethers v6
// and Node's own crypto, one printed line per step, as an integrator's
// JavaScript backend would:
//
//   1. make a wallet key here (the service never sees it);
//   2. link the wallet to the account by signing a SIWE challenge;
//   3. fund it from the test faucet (tokens and gas);
//   4. approve Permit2 once, so signed orders can move the wallet's tokens;
//   5. trade USDC → EURC on the AMM rail (sign typed data, the service relays);
//   6. trade again on the RFQ rail (sign typed data, broadcast the escrow funding);
//   7. pay a supplier in USDC (a plain ERC-20 transfer the wallet broadcasts);
//   8. pay a supplier in EURC out of USDC (one relayed swap to the payee);
//   9. create a payment link and have a customer's wallet pay it;
//  10. print this run's ledger entries.
//
// Every API request is signed here, written out (SPEC.md "Authentication"):
// Ed25519 over "timestamp\nMETHOD\ntarget\nsha256hex(body)" with the PKCS8
// PEM key `make run` wrote, base64 in SVC-SIGNATURE.
//
// Usage (after `make run` in another terminal, and `npm ci` here once):
//   node examples/ethers/first-trade.mjs [--data-dir ./data] [--base-url URL]
//     [--rpc-url URL] [--key-id ID] [--key-file PEM] [--admin-url URL]
//     [--admin-token-file FILE] [--timeout 5m]
// Each flag may also come from the environment as SVC_<FLAG> (--base-url is
// SVC_BASE_URL). Exits non-zero with the failing step on stderr.
import { createHash, createPrivateKey, randomUUID, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  Contract, Interface, JsonRpcProvider, MaxUint256, Network, Wallet, getAddress, parseUnits, version,
} from "ethers";

if (!version.startsWith("6.")) throw new Error(`ethers ${version} loaded, want 6.x`);

const BASE_PATH = "/public/v1";
// Permit2: the same address on every EVM chain, the embedded one included.
// Orders on both rails are Permit2 witness transfers, so it is the one
// contract the wallet ever approves.
const PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
const ERC20 = new Interface([
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount) returns (bool)",
]);
// The amounts of this walk, in currency units: decimal strings, never floats.
const FUND_USDC = "1000", TRADE_USDC = "100", PAY_USDC = "25", SWAP_USDC = "40", LINK_USDC = "30";
const POLL_MS = 500;

// say prints one step's line: the step, then what happened.
const say = (step, text) => process.stdout.write(`${step.padEnd(9)} ${text}\n`);

// ---- configuration -------------------------------------------------------

function loadConfig() {
  const names = ["data-dir", "base-url", "rpc-url", "key-id", "key-file", "admin-url", "admin-token-file", "timeout"];
  const { values } = parseArgs({ options: Object.fromEntries(names.map((n) => [n, { type: "string" }])) });
  const get = (n) => values[n] ?? process.env[`SVC_${n.toUpperCase().replaceAll("-", "_")}`];
  const dataDir = get("data-dir") ?? "./data";
  const fromDataDir = (file) => {
    try {
      return readFileSync(join(dataDir, file), "utf8").trim();
    } catch (err) {
      throw new Error(`${err.message} (is \`make run\` running? or pass --data-dir, or the flags themselves)`);
    }
  };
  return {
    baseURL: (get("base-url") ?? "http://127.0.0.1:8080").replace(/\/$/, ""),
    rpcURL: get("rpc-url") ?? "http://127.0.0.1:8545",
    keyID: get("key-id") ?? JSON.parse(fromDataDir("demo.json")).key_id,
    keyFile: get("key-file") ?? join(dataDir, "demo.pem"),
    adminURL: (get("admin-url") ?? fromDataDir("admin.addr")).replace(/\/$/, ""),
    adminToken: readFileSync(get("admin-token-file") ?? join(dataDir, "admin.token"), "utf8").trim(),
    timeoutMs: durationMs(get("timeout") ?? "5m"),
  };
}

function durationMs(s) {
  const m = /^(\d+)(ms|s|m|h)$/.exec(s);
  if (!m) throw new Error(`--timeout ${JSON.stringify(s)}: want e.g. 90s or 5m`);
  return Number(m[1]) * { ms: 1, s: 1e3, m: 60e3, h: 3600e3 }[m[2]];
}

// ---- the API, signed by hand ---------------------------------------------

class ApiError extends Error {
  constructor(method, target, status, error) {
    super(`${method} ${target}: ${status} ${error?.code ?? ""}: ${error?.message ?? ""}`);
    this.status = status;
    this.code = error?.code;
  }
}

class Api {
  constructor(baseURL, keyID, pem) {
    this.baseURL = baseURL;
    this.keyID = keyID;
    this.key = pem ? createPrivateKey(pem) : null; // Ed25519, PKCS8 PEM
    this.offsetMs = 0;
    this.second = 0;
    this.sent = new Set();
  }

  // syncClock takes the server's clock (GET /time): a signature's timestamp
  // must be within ±30 s of it, whatever this machine's clock says.
  async syncClock() {
    const t1 = Date.now();
    const { unix } = await this.send("GET", "/time");
    const t2 = Date.now();
    this.offsetMs = unix * 1000 + 500 - (t1 + t2) / 2;
  }

  // unique: the canonical string has no nonce, so the same request signed
  // twice in one second is one signature and the second is refused as
  // `replayed`. The server ignores unknown query parameters: a repeat in the
  // same second (a poll) goes out with `_r=<n>`.
  unique(ts, method, target, body) {
    if (ts !== this.second) [this.second, this.sent] = [ts, new Set()];
    let t = target;
    for (let n = 1; this.sent.has(`${method} ${t} ${body}`); n++) {
      t = `${target}${target.includes("?") ? "&" : "?"}_r=${n}`;
    }
    this.sent.add(`${method} ${t} ${body}`);
    return t;
  }

  // send makes one request. With a key it is signed; idempotencyKey, on a
  // write, makes a retry of it the same request (the stored answer comes back).
  async send(method, path, body, { idempotencyKey } = {}) {
    const raw = body === undefined ? "" : JSON.stringify(body);
    const headers = raw ? { "content-type": "application/json" } : {};
    let target = BASE_PATH + path;
    if (this.key) {
      const ts = Math.floor((Date.now() + this.offsetMs) / 1000);
      target = this.unique(ts, method, target, raw);
      const bodyHash = createHash("sha256").update(raw).digest("hex");
      const canonical = `${ts}\n${method}\n${target}\n${bodyHash}`;
      headers["SVC-API-KEY"] = this.keyID;
      headers["SVC-TIMESTAMP"] = String(ts);
      headers["SVC-SIGNATURE"] = sign(null, Buffer.from(canonical), this.key).toString("base64");
    }
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const res = await fetch(this.baseURL + target, { method, headers, body: raw || undefined, redirect: "manual" });
    const text = await res.text();
    const json = text ? JSON.parse(text) : null;
    if (!res.ok) throw new ApiError(method, target, res.status, json?.error);
    return json;
  }
}

// ---- the wallet side -----------------------------------------------------

// faucet asks the operator's admin listener (test environment only) for
// tokens and gas; answers once both are mined. On a real network there is
// no faucet: the wallet is funded like any other.
async function faucet(cfg, address, currency, amount) {
  const res = await fetch(`${cfg.adminURL}/admin/faucet`, {
    method: "POST",
    headers: { authorization: `Bearer ${cfg.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ address, currency, amount }),
  });
  const out = await res.json();
  if (!res.ok) throw new Error(`faucet: ${res.status} ${JSON.stringify(out)}`);
  return out.tx_hash;
}

// signTypedData is eth_signTypedData_v4 over the service's signing.typed_data.
// ethers derives EIP712Domain from the domain and refuses it in types.
function signTypedData(wallet, { domain, types, message }) {
  const { EIP712Domain, ...rest } = types;
  return wallet.signTypedData(domain, rest, message);
}

// mined waits for a sent transaction and requires success (ethers throws
// on a reverted receipt).
async function mined(sent) {
  const receipt = await sent.wait(1, 120_000);
  return receipt.hash;
}

const same = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();

// checkPermit refuses to sign a Permit2 witness transfer that is not the one
// asked for: signer, token, amount, Permit2 domain, and the witness's own
// fields in more. A signature authorises exactly its message, so this is
// where a non-custodial integration keeps control.
function checkPermit(ctx, td, w, amount, more) {
  const usdc = ctx.tokens.USDC;
  const units = parseUnits(amount, usdc.decimals).toString();
  const checks = {
    signer: [w.signer, ctx.wallet.address], token: [w.tokenIn ?? w.token, usdc.address],
    amount: [w.amountIn ?? w.amount, units], "permitted.token": [td.message.permitted.token, usdc.address],
    "permitted.amount": [td.message.permitted.amount, units], "domain.verifyingContract": [td.domain.verifyingContract, PERMIT2],
    "domain.chainId": [td.domain.chainId, ctx.chainId], ...more,
  };
  for (const [field, [got, want]] of Object.entries(checks)) {
    if (!same(got, want)) throw new Error(`refusing to sign: ${field} is ${got}, want ${want}`);
  }
}

const checkGasless = (ctx, td, amount, recipient) =>
  checkPermit(ctx, td, td.message.witness, amount,
    { recipient: [td.message.witness.recipient, recipient], tokenOut: [td.message.witness.tokenOut, ctx.tokens.EURC.address] });

const checkFunding = (ctx, signing, amount) =>
  checkPermit(ctx, signing.typed_data, signing.typed_data.message.witness, amount,
    { escrow: [signing.typed_data.message.witness.escrow, signing.call.to], spender: [signing.typed_data.message.spender, signing.call.to] });

// noIssues stops when accept reports what would make the relay or the
// funding fail (issues.allowance: approve Permit2; issues.balance: fund).
function noIssues({ allowance, balance }) {
  if (allowance) throw new Error(`Permit2 may move ${allowance.actual} of ${allowance.token}, need ${allowance.required}: approve Permit2 first`);
  if (balance) throw new Error(`the wallet holds ${balance.actual} of ${balance.token}, need ${balance.required}`);
}

// awaitState reads a record until its state is want; one of ends is an error.
async function awaitState(what, want, read, ends) {
  for (;;) {
    const rec = await read();
    if (rec.state === want) return rec;
    if (ends.includes(rec.state)) throw new Error(`${what} ended ${rec.state}, not ${want} (failure_reason: ${rec.failure_reason ?? "-"})`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

// ---- the steps ------------------------------------------------------------

async function connect(cfg) {
  const api = new Api(cfg.baseURL, cfg.keyID, readFileSync(cfg.keyFile, "utf8"));
  await api.syncClock();
  const account = await api.send("GET", "/account");
  const { data } = await api.send("GET", "/currencies");
  const tokens = Object.fromEntries(data.map((c) => [c.symbol, c]));
  const chainId = BigInt(tokens.USDC.chain_id);
  // A fixed network and no response cache: a read right after a mined
  // block (a nonce, a balance) must see it.
  const provider = new JsonRpcProvider(cfg.rpcURL, Network.from(chainId), { staticNetwork: true, cacheTimeout: -1, pollingInterval: 250 });
  const remote = BigInt(await provider.send("eth_chainId", []));
  if (remote !== chainId) throw new Error(`${cfg.rpcURL} serves chain ${remote}, the service's tokens are on chain ${chainId}`);
  say("service", `${cfg.baseURL}: account ${account.id} (${account.name}), key ${cfg.keyID}, chain ${chainId} at ${cfg.rpcURL}`);
  return { cfg, api, pub: new Api(cfg.baseURL), account, tokens, chainId, provider, mine: new Set() };
}

// linkWallet makes the signer wallet and links it by SIWE (EIP-4361): the
// challenge names the address, personal_sign proves control.
async function linkWallet(ctx) {
  ctx.wallet = Wallet.createRandom(ctx.provider);
  say("wallet", `${ctx.wallet.address} made here; its key never leaves this process`);
  const ch = await ctx.api.send("POST", "/wallets/challenge", { address: ctx.wallet.address });
  const signature = await ctx.wallet.signMessage(ch.message);
  const linked = await ctx.api.send("POST", "/wallets", { message: ch.message, signature });
  // The demo account keeps the wallets of earlier runs, so this walk names
  // its wallet in every request (source_wallet) instead of relying on the primary.
  say("siwe", `${linked.address} linked to ${ctx.account.id} by a signed SIWE challenge (nonce ${ch.nonce}, primary: ${linked.primary})`);
}

// fund: tokens, and gas for what the wallet broadcasts itself (the approval,
// the RFQ funding, the same-currency transfer). AMM trades and
// cross-currency transfers are relayed: gasless for the wallet.
async function fund(ctx) {
  const tx = await faucet(ctx.cfg, ctx.wallet.address, "USDC", FUND_USDC);
  say("faucet", `${FUND_USDC} USDC and gas sent to ${ctx.wallet.address} (tx ${tx})`);
}

// approvePermit2: the one ERC-20 approval a Permit2 user makes, once per
// token. Each order is then a signature over its exact terms, checked on chain.
async function approvePermit2(ctx) {
  const usdc = new Contract(ctx.tokens.USDC.address, ERC20, ctx.wallet);
  const tx = await mined(await usdc.approve(PERMIT2, MaxUint256));
  say("permit2", `USDC ${ctx.tokens.USDC.address} approved for Permit2 ${PERMIT2} (tx ${tx})`);
}

async function quote(ctx, route) {
  const { quotes } = await ctx.api.send("POST", "/fx/quotes",
    { from_currency: "USDC", to_currency: "EURC", amount: TRADE_USDC, source_wallet: ctx.wallet.address });
  const q = quotes.find((x) => x.route === route);
  if (!q) throw new Error(`no ${route} quote among ${quotes.length}`);
  return q;
}

const accept = (ctx, q) => ctx.api.send("POST", `/fx/quotes/${q.id}/accept`, { source_wallet: ctx.wallet.address });
const awaitOrder = (ctx, id) => awaitState(`order ${id}`, "settled", () => ctx.api.send("GET", `/fx/orders/${id}`), ["failed", "expired", "refunded"]);

// tradeAMM: quote, accept, sign the GaslessOrder typed data, submit the
// signature; the service relays it (and pays the gas); poll until settled.
async function tradeAMM(ctx) {
  const q = await quote(ctx, "amm");
  const o = await accept(ctx, q);
  ctx.mine.add(o.order_id);
  noIssues(o.issues);
  checkGasless(ctx, o.signing.typed_data, TRADE_USDC, ctx.wallet.address);
  const signature = await signTypedData(ctx.wallet, o.signing.typed_data);
  await ctx.api.send("POST", `/fx/orders/${o.order_id}/submit`, { signature });
  const d = await awaitOrder(ctx, o.order_id);
  say("fx-amm", `${d.order_id} ${d.amount_in} ${d.from_currency} -> ${d.amount_out} ${d.to_currency} settled (quoted ${q.amount_out}, at least ${d.min_amount_out}); the service relayed tx ${d.tx_hash}`);
}

// tradeRFQ: accept a maker's firm quote, sign the RfqEscrowFunding typed
// data, encode escrowQuoteWithPermit2 from signing.call (ABI and the first
// three arguments) plus our signature, broadcast it (the wallet pays the
// gas: RFQ funding is not relayed), submit its hash, poll until settled.
async function tradeRFQ(ctx) {
  const q = await quote(ctx, "rfq");
  const o = await accept(ctx, q);
  ctx.mine.add(o.order_id);
  noIssues(o.issues);
  checkFunding(ctx, o.signing, TRADE_USDC);
  const signature = await signTypedData(ctx.wallet, o.signing.typed_data);
  const { call } = o.signing;
  const data = new Interface([call.abi]).encodeFunctionData(call.abi.name, [...call.args, signature]);
  const tx = await mined(await ctx.wallet.sendTransaction({ to: call.to, data }));
  await ctx.api.send("POST", `/fx/orders/${o.order_id}/submit`, { tx_hash: tx });
  const d = await awaitOrder(ctx, o.order_id);
  say("fx-rfq", `${d.order_id} ${d.amount_in} ${d.from_currency} -> ${d.amount_out} ${d.to_currency} settled at ${q.provider}'s firm price; we funded the escrow in tx ${tx}`);
}

const awaitTransfer = (ctx, id) => awaitState(`transfer ${id}`, "confirmed", () => ctx.api.send("GET", `/transfers/${id}`), ["failed", "expired"]);

// createTransfer: with an Idempotency-Key, a retry after a lost answer is
// the same transfer, not a second payment.
const createTransfer = (ctx, body) =>
  ctx.api.send("POST", "/transfers", { ...body, source_wallet: ctx.wallet.address }, { idempotencyKey: randomUUID() });

// paySameCurrency: the answer's signing.tx is an ERC-20 transfer; the wallet
// checks and broadcasts it and submits the hash; the service verifies the
// Transfer log (token, from, to, value) before it confirms.
async function paySameCurrency(ctx) {
  const supplier = Wallet.createRandom().address;
  const tr = await createTransfer(ctx, { from_currency: "USDC", currency: "USDC", amount: PAY_USDC, recipient: supplier, memo: "invoice 1001" });
  ctx.mine.add(tr.id);
  const { tx } = tr.signing;
  const call = ERC20.parseTransaction({ data: tx.data });
  if (!same(tx.to, ctx.tokens.USDC.address) || BigInt(tx.chainId) !== ctx.chainId || tx.value !== "0" || call?.name !== "transfer" ||
      !same(call.args[0], supplier) || call.args[1] !== parseUnits(PAY_USDC, ctx.tokens.USDC.decimals)) {
    throw new Error(`refusing to sign: signing.tx is not USDC transfer(${supplier}, ${PAY_USDC}): ${JSON.stringify(tx)}`);
  }
  const hash = await mined(await ctx.wallet.sendTransaction({ to: tx.to, data: tx.data, value: 0n }));
  await ctx.api.send("POST", `/transfers/${tr.id}/submit`, { tx_hash: hash });
  const d = await awaitTransfer(ctx, tr.id);
  say("transfer", `${d.id} ${d.amount} ${d.currency} to ${d.recipient} confirmed; we broadcast tx ${d.tx_hash}`);
}

// payCrossCurrency: one atomic swap whose output goes to the payee. Accept
// prices it and returns a GaslessOrder to sign (recipient = the payee);
// the service relays it.
async function payCrossCurrency(ctx) {
  const supplier = Wallet.createRandom().address;
  const tr = await createTransfer(ctx, { from_currency: "USDC", currency: "EURC", amount: SWAP_USDC, recipient: supplier, memo: "invoice 1002" });
  ctx.mine.add(tr.id);
  const acc = await ctx.api.send("POST", `/transfers/${tr.id}/accept`);
  noIssues(acc.issues);
  checkGasless(ctx, acc.signing.typed_data, SWAP_USDC, supplier);
  const signature = await signTypedData(ctx.wallet, acc.signing.typed_data);
  await ctx.api.send("POST", `/transfers/${tr.id}/submit`, { signature });
  const d = await awaitTransfer(ctx, tr.id);
  say("transfer", `${d.id} ${d.amount} ${d.from_currency} -> ${d.amount_out} ${d.currency} to ${d.recipient} confirmed; the service relayed tx ${d.tx_hash}`);
}

// paymentLink: the link's receive_address is its own forwarder, which can
// only pay our payout wallet; a customer with any wallet and no account pays
// it with a plain ERC-20 transfer. The service sees the payment by itself;
// POST /pay/{id}/submit (no key) only makes it look at once.
async function paymentLink(ctx) {
  const l = await ctx.api.send("POST", "/payment-links",
    { currency: "USDC", amount: LINK_USDC, description: "order #1001", payout_wallet: ctx.wallet.address },
    { idempotencyKey: randomUUID() });
  ctx.mine.add(l.id);
  const customer = Wallet.createRandom(ctx.provider);
  await faucet(ctx.cfg, customer.address, "USDC", LINK_USDC);
  const page = await ctx.pub.send("GET", `/pay/${l.id}`); // what a checkout page reads
  const token = new Contract(page.token_address, ERC20, customer);
  const tx = await mined(await token.transfer(page.receive_address, parseUnits(page.amount, ctx.tokens[page.currency].decimals)));
  await ctx.pub.send("POST", `/pay/${l.id}/submit`, { tx_hash: tx });
  const p = await awaitState(`payment link ${l.id}`, "paid", () => ctx.api.send("GET", `/payment-links/${l.id}`), ["cancelled", "expired"]);
  say("link", `${p.id} ${p.amount_received} ${p.currency} paid by customer ${customer.address} to ${p.receive_address} (tx ${tx}); it goes on to ${p.payout_wallet}`);
}

// printLedger: this run's entries (one per order, transfer and link, kept in
// place as each moved), newest first. The demo account's ledger holds every
// earlier run too, hence the filters.
async function printLedger(ctx) {
  let n = 0;
  let query = `from=${ctx.started.toISOString().replace(/\.\d+Z$/, "Z")}&limit=200`;
  for (;;) {
    const page = await ctx.api.send("GET", `/transactions?${query}`);
    for (const e of page.data.filter((x) => ctx.mine.has(x.reference_id))) {
      say("ledger", `${e.type} ${e.state} ${e.amount_in} ${e.from_currency} -> ${e.amount_out} ${e.to_currency} ${e.reference_id}`);
      n++;
    }
    if (!page.has_more) break;
    query = `from=${ctx.started.toISOString().replace(/\.\d+Z$/, "Z")}&limit=200&starting_after=${page.next_cursor}`;
  }
  if (n !== ctx.mine.size) throw new Error(`${n} of this run's ${ctx.mine.size} records are in the ledger`);
}

async function main() {
  const cfg = loadConfig();
  const started = new Date(Math.floor(Date.now() / 1000) * 1000);
  const timer = setTimeout(() => {
    process.stderr.write(`first-trade: gave up after ${cfg.timeoutMs} ms\n`);
    process.exit(1);
  }, cfg.timeoutMs).unref();
  let ctx;
  try {
    for (const [name, step] of [
      ["connect", async () => { ctx = { ...(await connect(cfg)), started }; }],
      ["link a wallet by SIWE", linkWallet], ["fund the wallet from the faucet", fund], ["approve Permit2", approvePermit2],
      ["trade on the AMM rail", tradeAMM], ["trade on the RFQ rail", tradeRFQ], ["pay a same-currency transfer", paySameCurrency],
      ["pay a cross-currency transfer", payCrossCurrency], ["get a payment link paid", paymentLink], ["print the ledger", printLedger],
    ]) {
      try {
        await step(ctx);
      } catch (err) {
        err.message = `${name}: ${err.message}`;
        throw err;
      }
    }
    say("done", `in ${Math.round((Date.now() - started) / 1000)}s`);
  } finally {
    clearTimeout(timer);
    ctx?.provider.destroy();
  }
}

main().catch((err) => {
  // fetch reports a refused connection as "fetch failed", the why in err.cause.
  const why = err.cause ? `: ${err.cause.message ?? err.cause}` : "";
  process.stderr.write(`first-trade: ${err.message}${why}\n`);
  process.exitCode = 1;
});
