// sign.mjs signs fxd EIP-712 typed data with ethers v6, the way a wallet or
// an integrator's backend would, so the Go tests can verify the result.
//
// Usage: node sign.mjs <cases.json>
//
// cases.json is an array of {"key": "0x<32-byte private key>", "typed_data":
// {domain, types, primaryType, message}} exactly as the service returns it in
// signing.typed_data (eth_signTypedData_v4 shape). For each case one JSON line
// {"digest","signature","address"} is printed to stdout, in order.
import { readFileSync } from "node:fs";
import { TypedDataEncoder, Wallet, version } from "ethers";

if (!version.startsWith("6.")) {
  throw new Error(`ethers ${version} loaded, want 6.x`);
}
if (process.argv.length !== 3) {
  throw new Error("usage: node sign.mjs <cases.json>");
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const { key, typed_data: td } of cases) {
  // ethers derives EIP712Domain from the domain object and refuses it in types.
  const types = { ...td.types };
  delete types.EIP712Domain;
  // ethers picks the primary type itself; make sure it agrees with ours.
  const primary = TypedDataEncoder.getPrimaryType(types);
  if (primary !== td.primaryType) {
    throw new Error(`primaryType ${td.primaryType}, ethers derives ${primary}`);
  }
  const wallet = new Wallet(key);
  const signature = await wallet.signTypedData(td.domain, types, td.message);
  const digest = TypedDataEncoder.hash(td.domain, types, td.message);
  process.stdout.write(
    JSON.stringify({ digest, signature, address: wallet.address }) + "\n",
  );
}
