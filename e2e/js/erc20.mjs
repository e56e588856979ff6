// erc20.mjs talks to an ERC-20 token over JSON-RPC with ethers v6, as any
// integrator self-broadcasting on a public network would.
//
// Usage: node erc20.mjs < request.json, where request.json is one of
//   {"op":"transfer","rpc":URL,"chain_id":N,"key":"0x…","token":"0x…","to":"0x…","amount":"<base units>"}
//     signs and broadcasts transfer(to, amount) from the key's address, waits
//     for the receipt and prints {"tx_hash","block_number","status","from"};
//   {"op":"balance","rpc":URL,"chain_id":N,"token":"0x…","address":"0x…"}
//     prints {"balance":"<base units>","block_number"}.
// Amounts are decimal strings of base units (no floating point).
import { readFileSync } from "node:fs";
import { Contract, JsonRpcProvider, Network, Wallet, version } from "ethers";

if (!version.startsWith("6.")) {
  throw new Error(`ethers ${version} loaded, want 6.x`);
}
const req = JSON.parse(readFileSync(0, "utf8"));
const abi = [
  "function transfer(address to, uint256 amount) returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
];
// A fixed network (no chain id detection on every call), no response cache
// (a fresh read after a mined block must see it) and quick polling.
const provider = new JsonRpcProvider(req.rpc, Network.from(BigInt(req.chain_id)), {
  staticNetwork: true,
  cacheTimeout: -1,
  pollingInterval: 100,
});
try {
  const net = await provider.getNetwork();
  const remote = BigInt(await provider.send("eth_chainId", []));
  if (remote !== net.chainId) {
    throw new Error(`node's chain id ${remote}, expected ${net.chainId}`);
  }
  switch (req.op) {
    case "transfer": {
      const wallet = new Wallet(req.key, provider);
      const token = new Contract(req.token, abi, wallet);
      const tx = await token.transfer(req.to, BigInt(req.amount));
      const receipt = await tx.wait(1, 60_000);
      process.stdout.write(
        JSON.stringify({
          tx_hash: receipt.hash,
          block_number: receipt.blockNumber,
          status: receipt.status,
          from: wallet.address,
        }) + "\n",
      );
      break;
    }
    case "balance": {
      const token = new Contract(req.token, abi, provider);
      const block = await provider.getBlockNumber();
      const balance = await token.balanceOf(req.address, { blockTag: block });
      process.stdout.write(
        JSON.stringify({ balance: balance.toString(), block_number: block }) + "\n",
      );
      break;
    }
    default:
      throw new Error(`unknown op ${JSON.stringify(req.op)}`);
  }
} finally {
  provider.destroy();
}
