// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20, SafeTransferLib} from "./Tokens.sol";
import {Owned, ReentrancyGuard} from "./Owned.sol";

/// @title Pool
/// @notice A constant-product (x * y = k) market for one token pair, with a swap fee
///         fixed at construction. Liquidity belongs to the owner (the deployer, which seeds
///         it); there are no LP shares.
/// @dev Two ways to swap, sharing one code path:
///      - `swapExactIn` (pay first, Uniswap-v2 style): the caller transfers `tokenIn` into
///        the pool and then calls swapExactIn in the same transaction; the input amount is
///        the pool's balance of tokenIn above its recorded reserve. The RelayRouter uses
///        this: Permit2 moves the signer's tokens straight into the pool, saving a transfer.
///        Tokens sent to the pool outside a swap are credited to the next swap (as in v2),
///        so a contract must pay and swap atomically.
///      - `swap` (pull): the pool pulls `amountIn` from msg.sender with transferFrom (needs
///        an allowance), then proceeds the same way. For direct callers and tests.
///      Reserves only change in this contract's functions, and always to values not above
///      the balances, so `balance - reserve` is exactly what was paid in.
contract Pool is Owned, ReentrancyGuard {
    using SafeTransferLib for address;

    /// @notice Basis-point denominator for the fee.
    uint256 public constant BPS = 10_000;
    /// @notice The highest fee the constructor accepts: 10%.
    uint256 public constant MAX_FEE_BPS = 1_000;

    /// @notice The pair's tokens, sorted by address (token0 < token1) so a pair has one order.
    address public immutable token0;
    address public immutable token1;
    /// @notice Swap fee in basis points of the input amount (5 = 0.05%); it stays in the pool.
    uint256 public immutable feeBps;

    uint256 private _reserve0;
    uint256 private _reserve1;

    /// @notice A swap: `sender` is the caller (e.g. the RelayRouter), `recipient` got `amountOut`.
    event Swap(
        address indexed sender,
        address indexed tokenIn,
        address indexed tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        address recipient
    );
    /// @notice Reserves after any change (swap or liquidity), for indexers and price feeds.
    event Sync(uint256 reserve0, uint256 reserve1);
    /// @notice The owner added liquidity.
    event LiquidityAdded(address indexed provider, uint256 amount0, uint256 amount1);
    /// @notice The owner withdrew liquidity to `to`.
    event LiquidityRemoved(address indexed to, uint256 amount0, uint256 amount1);

    /// @notice The constructor was given the same token twice or a zero address.
    error InvalidPair(address tokenA, address tokenB);
    /// @notice The fee is above MAX_FEE_BPS.
    error InvalidFee(uint256 feeBps);
    /// @notice `token` is not one of the pair's tokens.
    error InvalidToken(address token);
    /// @notice Nothing was paid in (swapExactIn) or amountIn is zero (swap).
    error InsufficientInput();
    /// @notice A reserve is empty, or a withdrawal exceeds the reserves.
    error InsufficientLiquidity();
    /// @notice The swap would pay `amountOut`, below the caller's `minAmountOut` (or zero).
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);
    /// @notice The recipient is address(0) or the pool itself.
    error InvalidRecipient(address recipient);

    constructor(address tokenA, address tokenB, uint256 feeBps_) Owned(msg.sender) {
        if (tokenA == tokenB || tokenA == address(0) || tokenB == address(0)) revert InvalidPair(tokenA, tokenB);
        if (feeBps_ > MAX_FEE_BPS) revert InvalidFee(feeBps_);
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        feeBps = feeBps_;
    }

    /// @notice Current reserves of token0 and token1.
    function getReserves() external view returns (uint256 reserve0, uint256 reserve1) {
        return (_reserve0, _reserve1);
    }

    /// @notice What a swap of `amountIn` of `tokenIn` would pay out at the current reserves.
    /// @dev Returns 0 when a reserve is empty; reverts for a token outside the pair.
    function quote(address tokenIn, uint256 amountIn) external view returns (uint256 amountOut) {
        (uint256 reserveIn, uint256 reserveOut,) = _sides(tokenIn);
        if (reserveIn == 0 || reserveOut == 0) return 0;
        return _amountOut(amountIn, reserveIn, reserveOut);
    }

    /// @notice Swaps whatever `tokenIn` was paid into the pool since the last update.
    /// @param tokenIn The token paid in; the other token of the pair is paid out.
    /// @param minAmountOut Revert unless at least this much is paid out.
    /// @param recipient Receives the output tokens.
    /// @return amountOut The amount of the other token sent to `recipient`.
    function swapExactIn(address tokenIn, uint256 minAmountOut, address recipient)
        external
        nonReentrant
        returns (uint256 amountOut)
    {
        return _swap(tokenIn, minAmountOut, recipient);
    }

    /// @notice Pulls `amountIn` of `tokenIn` from msg.sender (allowance needed) and swaps it.
    function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address recipient)
        external
        nonReentrant
        returns (uint256 amountOut)
    {
        if (amountIn == 0) revert InsufficientInput();
        if (tokenIn != token0 && tokenIn != token1) revert InvalidToken(tokenIn);
        tokenIn.safeTransferFrom(msg.sender, address(this), amountIn);
        return _swap(tokenIn, minAmountOut, recipient);
    }

    /// @notice Owner only: pulls `amount0` of token0 and `amount1` of token1 from the owner
    ///         (allowance needed) into the reserves. Sets the price when the pool is empty.
    function addLiquidity(uint256 amount0, uint256 amount1) external onlyOwner nonReentrant {
        if (amount0 != 0) token0.safeTransferFrom(msg.sender, address(this), amount0);
        if (amount1 != 0) token1.safeTransferFrom(msg.sender, address(this), amount1);
        // Credit what actually arrived (plus any stray donations), not what was asked.
        _sync(IERC20(token0).balanceOf(address(this)), IERC20(token1).balanceOf(address(this)));
        emit LiquidityAdded(msg.sender, amount0, amount1);
    }

    /// @notice Owner only: withdraws liquidity to `to`.
    function removeLiquidity(uint256 amount0, uint256 amount1, address to) external onlyOwner nonReentrant {
        if (amount0 > _reserve0 || amount1 > _reserve1) revert InsufficientLiquidity();
        _sync(_reserve0 - amount0, _reserve1 - amount1);
        if (amount0 != 0) token0.safeTransfer(to, amount0);
        if (amount1 != 0) token1.safeTransfer(to, amount1);
        emit LiquidityRemoved(to, amount0, amount1);
    }

    function _swap(address tokenIn, uint256 minAmountOut, address recipient) private returns (uint256 amountOut) {
        if (recipient == address(0) || recipient == address(this)) revert InvalidRecipient(recipient);
        (uint256 reserveIn, uint256 reserveOut, address tokenOut) = _sides(tokenIn);
        if (reserveIn == 0 || reserveOut == 0) revert InsufficientLiquidity();

        uint256 balanceIn = IERC20(tokenIn).balanceOf(address(this));
        if (balanceIn <= reserveIn) revert InsufficientInput();
        uint256 amountIn = balanceIn - reserveIn;

        amountOut = _amountOut(amountIn, reserveIn, reserveOut);
        if (amountOut == 0 || amountOut < minAmountOut) revert InsufficientOutput(amountOut, minAmountOut);

        // Effects before the outgoing transfer. amountOut < reserveOut always holds (see _amountOut).
        if (tokenIn == token0) {
            _sync(balanceIn, reserveOut - amountOut);
        } else {
            _sync(reserveOut - amountOut, balanceIn);
        }
        tokenOut.safeTransfer(recipient, amountOut);
        emit Swap(msg.sender, tokenIn, tokenOut, amountIn, amountOut, recipient);
    }

    /// @dev out = in * (1 - fee) * rOut / (rIn + in * (1 - fee)), rounded down, so the product
    ///      of the reserves never decreases and out is strictly below rOut.
    function _amountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) private view returns (uint256) {
        uint256 inWithFee = amountIn * (BPS - feeBps);
        return (inWithFee * reserveOut) / (reserveIn * BPS + inWithFee);
    }

    function _sides(address tokenIn) private view returns (uint256 reserveIn, uint256 reserveOut, address tokenOut) {
        if (tokenIn == token0) return (_reserve0, _reserve1, token1);
        if (tokenIn == token1) return (_reserve1, _reserve0, token0);
        revert InvalidToken(tokenIn);
    }

    function _sync(uint256 reserve0, uint256 reserve1) private {
        _reserve0 = reserve0;
        _reserve1 = reserve1;
        emit Sync(reserve0, reserve1);
    }
}
