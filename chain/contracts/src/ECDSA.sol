// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ECDSA
/// @notice secp256k1 signature recovery for EIP-712 digests, strict about malleability.
/// @dev Accepts the two encodings Uniswap's Permit2 accepts:
///      - 65 bytes `r || s || v` with v in {27, 28} (what eth_signTypedData_v4, ethers'
///        signTypedData and go-ethereum's crypto.Sign + 27 produce);
///      - 64 bytes EIP-2098 compact `r || vs`, where the top bit of `vs` is the y-parity.
///      Unlike Uniswap's Permit2 it also rejects high-s signatures (s > n/2), so every
///      signed message has exactly one accepted encoding per form. Honest signers
///      (ethers, geth, hardware wallets) always produce low-s values, so nothing a real
///      wallet signs is refused; what is refused is a third party's flipped copy.
library ECDSA {
    /// @notice The signature is neither 64 nor 65 bytes long.
    error InvalidSignatureLength();
    /// @notice v is not 27/28, or the signature does not recover to any address.
    error InvalidSignature();
    /// @notice s is in the upper half of the curve order (a malleated signature).
    error InvalidSignatureS();

    /// @dev secp256k1 curve order n, divided by 2 (rounded down).
    uint256 internal constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @notice Recovers the signer of `digest` from `signature`.
    /// @return signer The recovered address; never address(0) (that reverts instead).
    function recover(bytes32 digest, bytes calldata signature) internal pure returns (address signer) {
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (signature.length == 65) {
            r = bytes32(signature[0:32]);
            s = bytes32(signature[32:64]);
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            r = bytes32(signature[0:32]);
            bytes32 vs = bytes32(signature[32:64]);
            s = vs & bytes32(0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF);
            v = uint8(uint256(vs) >> 255) + 27;
        } else {
            revert InvalidSignatureLength();
        }
        if (uint256(s) > HALF_ORDER) revert InvalidSignatureS();
        if (v != 27 && v != 28) revert InvalidSignature();
        signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
    }
}
