// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "./Tokens.sol";
import {Owned} from "./Owned.sol";

/// @title TestToken
/// @notice A plain 6-decimal ERC-20 standing in for USDC, USDT and EURC on the test chain.
/// @dev Deployed once per currency with its own name and symbol. Supply is created only by
///      the owner (the deployer, which the service's admin faucet uses) through `mint`.
///      Semantics follow the common OpenZeppelin behaviour so that wallets and libraries
///      treat it like the real stablecoins: transfers return true, an allowance of
///      type(uint256).max is never decreased, and transfers to address(0) are refused.
contract TestToken is IERC20, Owned {
    /// @notice Human-readable token name, e.g. "USD Coin".
    string public name;
    /// @notice Ticker, e.g. "USDC".
    string public symbol;
    /// @notice All three stand-ins use 6 decimals, like the real USDC, USDT and EURC.
    uint8 public constant decimals = 6;

    /// @inheritdoc IERC20
    uint256 public totalSupply;
    /// @inheritdoc IERC20
    mapping(address account => uint256) public balanceOf;
    /// @inheritdoc IERC20
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    /// @notice `from` holds `balance`, less than the `needed` amount.
    error InsufficientBalance(address from, uint256 balance, uint256 needed);
    /// @notice `spender` may move `allowed` of the owner's tokens, less than `needed`.
    error InsufficientAllowance(address spender, uint256 allowed, uint256 needed);
    /// @notice Tokens cannot be sent to (or minted to) address(0); use a real account.
    error InvalidReceiver(address receiver);

    constructor(string memory name_, string memory symbol_) Owned(msg.sender) {
        name = name_;
        symbol = symbol_;
    }

    /// @notice Creates `amount` new tokens for `to`. Owner only (the faucet).
    function mint(address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert InvalidReceiver(to);
        totalSupply += amount;
        // Cannot overflow: every balance is bounded by totalSupply, which was checked above.
        unchecked {
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }

    /// @inheritdoc IERC20
    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// @inheritdoc IERC20
    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    /// @inheritdoc IERC20
    /// @dev An allowance of type(uint256).max is treated as infinite and left untouched;
    ///      this is what Permit2 users grant once per token.
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(msg.sender, allowed, amount);
            unchecked {
                allowance[from][msg.sender] = allowed - amount;
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) private {
        if (to == address(0)) revert InvalidReceiver(to);
        uint256 bal = balanceOf[from];
        if (bal < amount) revert InsufficientBalance(from, bal, amount);
        unchecked {
            balanceOf[from] = bal - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
