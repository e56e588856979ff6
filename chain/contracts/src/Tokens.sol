// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IERC20
/// @notice The subset of ERC-20 the fxd contracts call.
interface IERC20 {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title SafeTransferLib
/// @notice ERC-20 transfers that fail loudly.
/// @dev Accepts tokens that return `true` and tokens that return nothing (USDT-style);
///      anything else, a `false`, or a call to an address without code reverts. Checking
///      for code matters: a low-level call to an empty account "succeeds", which would let
///      a bogus token address fake a payment. A reverting token's own error is bubbled up
///      unchanged so callers see e.g. the token's insufficient-balance error.
library SafeTransferLib {
    /// @notice `token` has no code, so it cannot be an ERC-20 contract.
    error TokenHasNoCode(address token);
    /// @notice `token` returned false or malformed data from transfer/transferFrom.
    error TokenTransferFailed(address token);

    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20.transfer, (to, amount)));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20.transferFrom, (from, to, amount)));
    }

    function _call(address token, bytes memory data) private {
        if (token.code.length == 0) revert TokenHasNoCode(token);
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
        if (ret.length != 0 && (ret.length != 32 || uint256(bytes32(ret)) != 1)) {
            revert TokenTransferFailed(token);
        }
    }
}
