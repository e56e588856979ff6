// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20, SafeTransferLib} from "./Tokens.sol";

/// @title PaymentForwarder
/// @notice The deposit address of one payment link. A payer sends a plain ERC-20 transfer
///         here from any wallet; anyone may then call forward(token), which sends this
///         contract's whole balance of that token to `payout`, the link's payout wallet.
/// @dev `payout` is an immutable constructor argument, so it is part of the init code and
///      therefore of the CREATE2 address the factory derives: the address itself commits
///      to the payout wallet, and tokens can be paid in before any code is deployed there.
///      forward is the only way tokens leave, and it has no destination parameter, so no
///      caller (the service included) can redirect funds. It needs no access control or
///      reentrancy guard: every path ends in a transfer of this contract's own balance to
///      `payout`, so a re-entering or malicious token can only move its own token there.
///      There is no receive/fallback: ETH sent to the address after deployment is refused;
///      ETH sent before deployment cannot be recovered (ERC-20 links only).
contract PaymentForwarder {
    using SafeTransferLib for address;

    /// @notice The only account tokens held here can ever be sent to.
    address public immutable payout;

    /// @notice `amount` of `token` (this contract's whole balance) was sent to `payout`.
    event Forwarded(address indexed token, address indexed payout, uint256 amount);

    /// @notice A zero payout would burn every payment; refused.
    error ZeroPayout();

    constructor(address payout_) {
        if (payout_ == address(0)) revert ZeroPayout();
        payout = payout_;
    }

    /// @notice Sends this contract's whole balance of `token` to `payout`. Callable by
    ///         anyone, any number of times (money arriving after a link is paid is
    ///         forwarded the same way).
    /// @dev A zero balance returns 0 without a transfer or event, so a relayer retry or a
    ///      sweep of a token that never arrived is harmless. The transfer goes through
    ///      SafeTransferLib: it accepts `true` and USDT-style empty returns (which a plain
    ///      bool-decoding call would reject, locking such tokens here forever) and reverts
    ///      on `false`.
    /// @param token The ERC-20 to forward.
    /// @return amount What was sent to `payout`.
    function forward(address token) external returns (uint256 amount) {
        amount = IERC20(token).balanceOf(address(this));
        if (amount == 0) return 0;
        token.safeTransfer(payout, amount);
        emit Forwarded(token, payout, amount);
    }
}

/// @title PaymentLinkFactory
/// @notice Deploys PaymentForwarders with CREATE2. A link's receive address is
///         forwarderAddress(salt, payout) with salt = keccak256(bytes(linkID)), linkID the
///         link's string id (e.g. "pl_…"); it is known, and can be paid, before deployment.
///         After payment the service's relayer (a gas-only key) calls forward(salt, payout,
///         token), which deploys the forwarder if needed and sweeps it to `payout`.
/// @dev Holds no state and has no owner. Deterministic and idempotent by construction:
///      the address depends only on this factory, the salt and the init code (forwarder
///      bytecode ++ abi.encode(payout)), and deploy is a no-op when code is already there,
///      so a relayer retry after a crash is safe. Calling with another payout for the same
///      salt derives a different, empty forwarder; it cannot touch the original's funds.
///      The init code is this compilation's PaymentForwarder bytecode, so off-chain
///      computations must use the same build as the deployed factory.
contract PaymentLinkFactory {
    /// @notice The forwarder for (`salt`, `payout`) was deployed at `forwarder`.
    event ForwarderDeployed(bytes32 indexed salt, address indexed forwarder, address indexed payout);

    /// @notice A forwarder with a zero payout would burn every payment; refused.
    error ZeroPayout();

    /// @notice The CREATE2 address of the forwarder for (`salt`, `payout`), deployed or not.
    /// @dev Reverts for a zero payout: that address could never be deployed, so funds
    ///      sent there would be lost.
    /// @param salt keccak256(bytes(linkID)).
    /// @param payout The link's payout wallet.
    function forwarderAddress(bytes32 salt, address payout) public view returns (address) {
        if (payout == address(0)) revert ZeroPayout();
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(PaymentForwarder).creationCode, abi.encode(payout)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }

    /// @notice Deploys the forwarder for (`salt`, `payout`) unless it already exists, and
    ///         returns its address either way.
    /// @dev Existing code at the address can only be this forwarder: only this factory can
    ///      CREATE2 there, and only with this init code. A token balance at the address
    ///      does not block deployment.
    /// @param salt keccak256(bytes(linkID)).
    /// @param payout The link's payout wallet.
    /// @return forwarder The forwarder's address, forwarderAddress(salt, payout).
    function deploy(bytes32 salt, address payout) public returns (address forwarder) {
        forwarder = forwarderAddress(salt, payout);
        if (forwarder.code.length != 0) return forwarder;
        new PaymentForwarder{salt: salt}(payout);
        emit ForwarderDeployed(salt, forwarder, payout);
    }

    /// @notice Deploys the forwarder for (`salt`, `payout`) if needed and forwards its
    ///         whole balance of `token` to `payout`. Callable by anyone.
    /// @param salt keccak256(bytes(linkID)).
    /// @param payout The link's payout wallet.
    /// @param token The ERC-20 to forward.
    /// @return amount What was sent to `payout` (0 when the forwarder held none).
    function forward(bytes32 salt, address payout, address token) external returns (uint256 amount) {
        return PaymentForwarder(deploy(salt, payout)).forward(token);
    }
}
