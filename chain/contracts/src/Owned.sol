// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Owned
/// @notice Minimal single-owner access control shared by the fxd contracts.
/// @dev Kept deliberately tiny (no two-step handover, no renounce): the owner is the
///      deployer key of a test or operator deployment, and every owner-only function
///      is an administrative knob (minting test tokens, seeding liquidity, registering
///      pools and market makers). Nothing a user signs depends on the owner.
abstract contract Owned {
    /// @notice The account allowed to call owner-only functions.
    address public owner;

    /// @notice Emitted when ownership changes, including at construction (from address(0)).
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @notice The caller is not the owner.
    error NotOwner(address caller);
    /// @notice A zero address was given where an account is required.
    error ZeroAddress();

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(address initialOwner) {
        if (initialOwner == address(0)) revert ZeroAddress();
        owner = initialOwner;
        emit OwnershipTransferred(address(0), initialOwner);
    }

    /// @notice Hands ownership to `newOwner` in one step.
    /// @dev One step is enough here: a mistyped owner only loses admin knobs, never user funds.
    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }
}

/// @title ReentrancyGuard
/// @notice A reentrancy lock held in transient storage (EIP-1153).
/// @dev Transient storage is cleared at the end of every transaction, so the lock costs
///      ~200 gas instead of the ~5k (net) of a storage flag, and it can never be left
///      stuck. Requires the Cancun fork, which the embedded dev chain and every current
///      public network have.
abstract contract ReentrancyGuard {
    bool private transient _entered;

    /// @notice A guarded function was re-entered within the same call chain.
    error Reentrancy();

    modifier nonReentrant() {
        if (_entered) revert Reentrancy();
        _entered = true;
        _;
        _entered = false;
    }
}
