// fx.mjs acts as an independent wallet user of the fxd FX API with ethers v6:
// it signs and broadcasts using only the JSON the service returned, as an
// integrator's wallet or backend would.
//
// Usage: node fx.mjs < request.json, where request.json is one of
//   {"op":"approve","rpc":URL,"chain_id":N,"key":"0x…","token":"0x…","spender":"0x…"}
//     sends ERC-20 approve(spender, MaxUint256) from the key's wallet, waits for
//     1 confirmation (60 s) and prints {"tx_hash","status"} (status 1 = success);
//   {"op":"sign_typed_data","key":"0x…","typed_data":{domain,types,primaryType,message}}
//     signs the service's signing.typed_data (eth_signTypedData_v4 shape; its
//     EIP712Domain type is checked against the domain, then dropped, as ethers
//     derives it) and prints {"signature","compact","signer","digest"}
//     (compact: the same signature in EIP-2098 form, ethers' compactSerialized);
//   {"op":"fund_rfq","rpc":URL,"chain_id":N,"key":"0x…","signing":{…},"wait":true|false}
//     signing is an RFQ order's signing object {type, funding, relay,
//     typed_data, call:{to, abi, args:[quote, providerSignature, funding]}}:
//     signs typed_data, encodes call.abi's function (escrowQuoteWithPermit2)
//     with ...call.args and the permit2 signature, sends it to call.to (gas
//     estimated by the node; an estimation failure is rethrown with the revert
//     reason/data) and prints {"tx_hash","status"}; wait:true (the default)
//     waits for the receipt (1 confirmation, 60 s), wait:false prints right
//     after broadcast with status null;
//   {"op":"fund_rfq_raw", same input as fund_rfq}
//     does not broadcast; prints {"to","data","signature"} for the test to
//     send (or tamper with) itself;
//   {"op":"balance","rpc":URL,"chain_id":N,"token":"0x…","address":"0x…"}
//     prints {"balance":"<base units>","block_number"};
//   {"op":"send_call","rpc":URL,"chain_id":N,"key":"0x…","to":"0x…","data":"0x…","wait":true|false}
//     sends a raw call; if gas estimation fails (a tampered call reverts) it is
//     sent anyway with gasLimit 500000 so it is mined and reverts; prints
//     {"tx_hash","status"} (wait defaults to true; status null when false).
// Amounts are decimal strings of base units, handled as BigInt (no floating
// point). Prints one JSON line; any failure exits non-zero with the message
// on stderr.
import { readFileSync } from "node:fs";
import {
  Contract, Interface, JsonRpcProvider, MaxUint256, Network, Signature, TypedDataEncoder, Wallet, version,
} from "ethers";

if (!version.startsWith("6.")) {
  throw new Error(`ethers ${version} loaded, want 6.x`);
}
const req = JSON.parse(readFileSync(0, "utf8"));
const ops = ["approve", "sign_typed_data", "fund_rfq", "fund_rfq_raw", "balance", "send_call"];
if (!ops.includes(req.op)) {
  throw new Error(`unknown op ${JSON.stringify(req.op)}, want one of ${ops.join(", ")}`);
}
const erc20 = [
  "function approve(address spender, uint256 amount) returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
];
const print = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

// signTypedData signs an eth_signTypedData_v4 payload. ethers refuses an
// EIP712Domain entry in types (it derives it from the domain's fields), so it
// is compared with what ethers derives, then dropped from a copy.
async function signTypedData(wallet, { domain, types, message }) {
  const { EIP712Domain, ...rest } = types;
  if (EIP712Domain !== undefined) {
    const derived = TypedDataEncoder.getPayload(domain, rest, message).types.EIP712Domain;
    const given = EIP712Domain.map(({ name, type }) => ({ name, type }));
    if (JSON.stringify(given) !== JSON.stringify(derived)) {
      throw new Error(`EIP712Domain ${JSON.stringify(given)} does not match domain (${JSON.stringify(derived)})`);
    }
  }
  const signature = await wallet.signTypedData(domain, rest, message);
  return {
    signature,
    compact: Signature.from(signature).compactSerialized,
    signer: wallet.address,
    digest: TypedDataEncoder.hash(domain, rest, message),
  };
}

// escrowCall signs signing.typed_data and encodes call.abi's function with
// call.args followed by the permit2 signature (tuples given as objects are
// matched to the ABI components by name).
async function escrowCall(wallet, { typed_data, call }) {
  const { signature } = await signTypedData(wallet, typed_data);
  const fragment = Array.isArray(call.abi) ? call.abi.find((f) => f.type === "function") : call.abi;
  const iface = new Interface([fragment]);
  const data = iface.encodeFunctionData(fragment.name, [...call.args, signature]);
  return { to: call.to, data, signature };
}

// send broadcasts {to, data}; with fallbackGas an estimation failure sends
// anyway with that gas limit, else it is rethrown with the revert reason.
async function send(wallet, provider, tx, wait, fallbackGas) {
  let sent;
  try {
    sent = await wallet.sendTransaction(tx);
  } catch (err) {
    if (err.code !== "CALL_EXCEPTION") throw err;
    if (fallbackGas === undefined) {
      throw new Error(`gas estimation failed: ${err.shortMessage ?? err.message}` +
        ` (reason ${JSON.stringify(err.reason ?? null)}, revert data ${err.data ?? "none"})`);
    }
    sent = await wallet.sendTransaction({ ...tx, gasLimit: fallbackGas });
  }
  if (!wait) return { tx_hash: sent.hash, status: null };
  // provider.waitForTransaction returns a reverted receipt (tx.wait throws).
  const receipt = await provider.waitForTransaction(sent.hash, 1, 60_000);
  return { tx_hash: sent.hash, status: receipt.status };
}

if (req.op === "sign_typed_data") {
  print(await signTypedData(new Wallet(req.key), req.typed_data));
} else if (req.op === "fund_rfq_raw") {
  print(await escrowCall(new Wallet(req.key), req.signing));
} else {
  // A fixed network (no chain id detection on every call), no response cache
  // (a fresh read after a mined block must see it) and quick polling.
  const provider = new JsonRpcProvider(req.rpc, Network.from(BigInt(req.chain_id)), {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: 100,
  });
  try {
    const remote = BigInt(await provider.send("eth_chainId", []));
    if (remote !== BigInt(req.chain_id)) {
      throw new Error(`node's chain id ${remote}, expected ${req.chain_id}`);
    }
    const wallet = req.op === "balance" ? null : new Wallet(req.key, provider);
    switch (req.op) {
      case "approve": {
        const data = new Interface(erc20).encodeFunctionData("approve", [req.spender, MaxUint256]);
        print(await send(wallet, provider, { to: req.token, data }, true));
        break;
      }
      case "fund_rfq": {
        const { to, data } = await escrowCall(wallet, req.signing);
        print(await send(wallet, provider, { to, data }, req.wait !== false));
        break;
      }
      case "send_call":
        print(await send(wallet, provider, { to: req.to, data: req.data }, req.wait !== false, 500_000n));
        break;
      case "balance": {
        const token = new Contract(req.token, erc20, provider);
        const block = await provider.getBlockNumber();
        const balance = await token.balanceOf(req.address, { blockTag: block });
        print({ balance: balance.toString(), block_number: block });
        break;
      }
    }
  } finally {
    provider.destroy();
  }
}
