// pay.mjs sends what a payer's wallet sends for a transfer, with ethers v6:
// the transaction a same-currency transfer's signing.tx describes, either
// signed and broadcast at once or signed now and broadcast later (so a
// test can submit the hash before the transaction exists on chain).
//
// Usage: node pay.mjs < request.json, where request.json is one of
//   {"op":"send_tx","rpc":URL,"chain_id":N,"key":"0x…","tx":{"to","data"},"gas":N?}
//     broadcasts and waits: {"tx_hash","status"} (status 0 = reverted; with
//     "gas" set the tx is sent even if estimation says it reverts);
//   {"op":"sign_tx", same fields} signs without sending: {"tx_hash","raw"};
//   {"op":"send_raw","rpc":URL,"chain_id":N,"raw":"0x…"} broadcasts a signed
//     tx and waits: {"tx_hash","status"}.
import { readFileSync } from "node:fs";
import { JsonRpcProvider, Network, Wallet, keccak256, version } from "ethers";

if (!version.startsWith("6.")) {
  throw new Error(`ethers ${version} loaded, want 6.x`);
}
const req = JSON.parse(readFileSync(0, "utf8"));
const provider = new JsonRpcProvider(req.rpc, Network.from(BigInt(req.chain_id)), {
  staticNetwork: true,
  cacheTimeout: -1,
  pollingInterval: 100,
});
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");

async function waitFor(hash) {
  const receipt = await provider.waitForTransaction(hash, 1, 60_000);
  return { tx_hash: hash, status: receipt.status };
}

try {
  switch (req.op) {
    case "send_tx": {
      const wallet = new Wallet(req.key, provider);
      const tx = { to: req.tx.to, data: req.tx.data, value: 0n };
      if (req.gas) tx.gasLimit = BigInt(req.gas);
      const sent = await wallet.sendTransaction(tx);
      print(await waitFor(sent.hash));
      break;
    }
    case "sign_tx": {
      const wallet = new Wallet(req.key, provider);
      const populated = await wallet.populateTransaction({ to: req.tx.to, data: req.tx.data, value: 0n, gasLimit: 200_000n });
      const raw = await wallet.signTransaction(populated);
      print({ tx_hash: keccak256(raw), raw });
      break;
    }
    case "send_raw": {
      const sent = await provider.broadcastTransaction(req.raw);
      print(await waitFor(sent.hash));
      break;
    }
    default:
      throw new Error(`unknown op ${JSON.stringify(req.op)}`);
  }
} finally {
  provider.destroy();
}
