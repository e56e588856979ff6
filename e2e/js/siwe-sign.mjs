// siwe-sign.mjs signs a Sign-In with Ethereum (EIP-4361) message the way a
// browser wallet or an integrator's backend does: ethers v6
// Wallet.signMessage, i.e. EIP-191 personal_sign.
//
// Usage: node siwe-sign.mjs < {"key":"0x<32-byte private key>","message":"…"}
// Prints one JSON line {"address","signature"}: the wallet's EIP-55 address
// as ethers derives it, and the 65-byte signature as 0x hex.
import { readFileSync } from "node:fs";
import { Wallet, version } from "ethers";

if (!version.startsWith("6.")) {
  throw new Error(`ethers ${version} loaded, want 6.x`);
}
const { key, message } = JSON.parse(readFileSync(0, "utf8"));
const wallet = new Wallet(key);
const signature = await wallet.signMessage(message);
process.stdout.write(JSON.stringify({ address: wallet.address, signature }) + "\n");
