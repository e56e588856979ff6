// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ECDSA} from "./ECDSA.sol";
import {SafeTransferLib} from "./Tokens.sol";

/// @title ISignatureTransfer
/// @notice The SignatureTransfer half of Uniswap's Permit2, with the same structs, errors,
///         events, function selectors and EIP-712 hashing, so that any wallet or library
///         that signs for the canonical Permit2 signs for this one too.
interface ISignatureTransfer {
    /// @notice A token and the most of it the signature lets the spender move.
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    /// @notice What the owner signs (together with the spender = msg.sender of the transfer).
    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    /// @notice Chosen by the spender at transfer time: destination and amount (<= permitted).
    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    /// @notice The requested amount exceeds the permitted `maxAmount`.
    error InvalidAmount(uint256 maxAmount);
    /// @notice block.timestamp is past the signed deadline.
    error SignatureExpired(uint256 signatureDeadline);
    /// @notice The unordered nonce was already used or invalidated.
    error InvalidNonce();
    /// @notice The signature is valid but was made by someone other than `owner`, or over
    ///         different data (another spender, amount, witness, domain, ...).
    error InvalidSigner();

    /// @notice Emitted when an owner invalidates nonces in bulk.
    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    function DOMAIN_SEPARATOR() external view returns (bytes32);

    function nonceBitmap(address owner, uint256 wordPos) external view returns (uint256);

    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external;

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;

    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external;
}

/// @title Permit2 (SignatureTransfer)
/// @notice Signature-based token transfers, compatible with Uniswap's Permit2
///         SignatureTransfer: owners approve this contract once per token, then each
///         transfer is authorised by an off-chain EIP-712 signature that names the token,
///         the maximum amount, the spender (the contract that calls this one), a single-use
///         unordered nonce, a deadline and optionally a "witness" (a hash of the caller's
///         own typed order, e.g. a GaslessOrder), so one signature binds both.
/// @dev Differences from Uniswap's deployment, all deliberate:
///      - The EIP-712 domain separator is recomputed on every use from block.chainid and
///        address(this) rather than cached in an immutable at construction. The contract has
///        no constructor state at all, so its runtime code is position independent and can be
///        placed at the canonical address 0x000000000022D473030F116dDEE9F6B43aC78BA3 through a
///        genesis alloc, where it still produces exactly the canonical domain.
///      - Only ECDSA signatures from EOAs (65-byte or EIP-2098 64-byte) are accepted, and
///        high-s signatures are refused; there is no EIP-1271 contract-wallet path.
///      - A token transfer to an address without code reverts (Uniswap's solmate helper
///        treats it as success).
///      - The batch variants and the AllowanceTransfer half are not implemented.
contract Permit2 is ISignatureTransfer {
    using SafeTransferLib for address;

    /// @dev keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)"); no version, as Uniswap.
    bytes32 private constant _DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant _HASHED_NAME = keccak256("Permit2");

    bytes32 private constant _TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");

    bytes32 private constant _PERMIT_TRANSFER_FROM_TYPEHASH = keccak256(
        "PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)"
    );

    /// @dev The witness type hash is keccak256(stub || witnessTypeString); the caller's
    ///      witnessTypeString completes the struct ("<Type> witness)") and appends the
    ///      referenced type definitions in EIP-712 order, e.g.
    ///      "GaslessOrder witness)GaslessOrder(...)TokenPermissions(address token,uint256 amount)".
    string private constant _PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";

    /// @notice Unordered nonces: bit (nonce & 0xff) of word (nonce >> 8) is set once used.
    /// @dev Unordered so that many signed orders can be outstanding at once and any of them
    ///      can fill (or expire) independently.
    mapping(address owner => mapping(uint256 wordPos => uint256 bitmap)) public nonceBitmap;

    /// @notice The EIP-712 domain separator {name: "Permit2", chainId, verifyingContract}.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(_DOMAIN_TYPEHASH, _HASHED_NAME, block.chainid, address(this)));
    }

    /// @notice Moves `transferDetails.requestedAmount` of `permit.permitted.token` from
    ///         `owner` to `transferDetails.to`, authorised by `owner`'s signature over the
    ///         permit with spender = msg.sender.
    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external {
        bytes32 dataHash = keccak256(
            abi.encode(
                _PERMIT_TRANSFER_FROM_TYPEHASH,
                _hashTokenPermissions(permit.permitted),
                msg.sender,
                permit.nonce,
                permit.deadline
            )
        );
        _permitTransferFrom(permit, transferDetails, owner, dataHash, signature);
    }

    /// @notice As permitTransferFrom, but the signed struct also carries `witness`, the
    ///         EIP-712 struct hash of the caller's own typed data described by
    ///         `witnessTypeString`. The calling contract computes the witness from the order
    ///         it is about to execute, so the owner's signature covers that exact order.
    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        bytes32 typeHash = keccak256(abi.encodePacked(_PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB, witnessTypeString));
        bytes32 dataHash = keccak256(
            abi.encode(
                typeHash,
                _hashTokenPermissions(permit.permitted),
                msg.sender,
                permit.nonce,
                permit.deadline,
                witness
            )
        );
        _permitTransferFrom(permit, transferDetails, owner, dataHash, signature);
    }

    /// @notice Marks the nonces set in `mask` of word `wordPos` as used for msg.sender,
    ///         cancelling any outstanding signatures that use them.
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    /// @dev Order as Uniswap's: cheap checks, then burn the nonce, then verify the signature,
    ///      then transfer. The nonce is consumed before the external token call, so a
    ///      re-entering token cannot reuse the signature.
    function _permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 dataHash,
        bytes calldata signature
    ) private {
        uint256 requestedAmount = transferDetails.requestedAmount;
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (requestedAmount > permit.permitted.amount) revert InvalidAmount(permit.permitted.amount);

        _useUnorderedNonce(owner, permit.nonce);

        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), dataHash));
        if (ECDSA.recover(digest, signature) != owner) revert InvalidSigner();

        permit.permitted.token.safeTransferFrom(owner, transferDetails.to, requestedAmount);
    }

    function _hashTokenPermissions(TokenPermissions calldata permitted) private pure returns (bytes32) {
        return keccak256(abi.encode(_TOKEN_PERMISSIONS_TYPEHASH, permitted.token, permitted.amount));
    }

    /// @dev Flips the nonce's bit; if it was already set the nonce was used (or invalidated).
    function _useUnorderedNonce(address from, uint256 nonce) private {
        uint256 wordPos = nonce >> 8;
        uint256 bit = 1 << (nonce & 0xff);
        uint256 flipped = nonceBitmap[from][wordPos] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }
}
