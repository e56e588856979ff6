// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISignatureTransfer} from "./Permit2.sol";
import {Owned, ReentrancyGuard} from "./Owned.sol";

/// @title IPool
/// @notice What the router needs from a Pool.
interface IPool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swapExactIn(address tokenIn, uint256 minAmountOut, address recipient) external returns (uint256 amountOut);
}

/// @title RelayRouter
/// @notice Executes gasless swap orders: a user signs one Permit2 PermitWitnessTransferFrom
///         whose witness is a GaslessOrder, and anyone (the service's relayer, which pays the
///         gas) submits it here. The router pulls the input through Permit2 straight into the
///         order's pool, swaps, and the pool pays the output to the order's recipient.
/// @dev Why this is safe to leave open to any caller: the signature covers every field of
///      the order (via the witness) plus spender = this router, the token, the amount, the
///      nonce and the deadline (via Permit2). A caller can only execute the exact order the
///      signer signed, once (Permit2's nonce), before its deadline, and only with at least
///      minAmountOut delivered to the signed recipient. Copying a pending relay transaction
///      yields the same result for the signer.
contract RelayRouter is Owned, ReentrancyGuard {
    /// @notice A gasless swap order. Field order is part of the signed type; do not reorder.
    struct GaslessOrder {
        address signer; // owner of the input tokens, who signed
        address tokenIn;
        address tokenOut;
        uint256 amountIn; // exact input, also the Permit2 permitted amount
        uint256 minAmountOut; // slippage bound
        address recipient; // receives tokenOut (the signer for FX, a payee for payments)
        address pool; // the registered pool for (tokenIn, tokenOut) that must be used
        uint256 deadline; // unix seconds; also the Permit2 deadline
        uint256 nonce; // Permit2 unordered nonce of `signer`
    }

    /// @notice keccak256 of the GaslessOrder EIP-712 type.
    bytes32 public constant GASLESS_ORDER_TYPEHASH = keccak256(
        "GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)"
    );

    /// @notice The Permit2 witness type string the signer's typed data must use.
    string public constant WITNESS_TYPE_STRING =
        "GaslessOrder witness)GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)";

    /// @notice The Permit2 contract the signatures are made for.
    ISignatureTransfer public immutable permit2;

    struct Pair {
        address token0;
        address token1;
    }

    /// @notice Registered pools and their (sorted) pair; token0 == address(0) if not registered.
    mapping(address pool => Pair) public pools;

    /// @notice A pool was registered for its pair.
    event PoolRegistered(address indexed pool, address token0, address token1);
    /// @notice A pool was removed; orders naming it revert from now on.
    event PoolDeregistered(address indexed pool);
    /// @notice A gasless order was executed. `orderHash` is the EIP-712 struct hash of the
    ///         GaslessOrder (the Permit2 witness), see hashGaslessOrder.
    event GaslessOrderExecuted(
        bytes32 indexed orderHash,
        address indexed signer,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        address recipient,
        uint256 nonce
    );

    /// @notice block.timestamp is past the order's deadline.
    error OrderExpired(uint256 deadline);
    /// @notice The order's pool is not registered.
    error PoolNotRegistered(address pool);
    /// @notice The order's pool trades another pair than (tokenIn, tokenOut).
    error PoolPairMismatch(address pool, address tokenIn, address tokenOut);
    /// @notice amountIn is zero.
    error ZeroAmount();
    /// @notice The pool paid less than minAmountOut (defence in depth; the pool checks too).
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);

    constructor(address permit2_) Owned(msg.sender) {
        if (permit2_ == address(0)) revert ZeroAddress();
        permit2 = ISignatureTransfer(permit2_);
    }

    /// @notice Owner only: allows orders to use `pool` for its pair.
    function registerPool(address pool) external onlyOwner {
        address t0 = IPool(pool).token0();
        address t1 = IPool(pool).token1();
        if (t0 == address(0) || t1 == address(0) || t0 == t1) revert PoolPairMismatch(pool, t0, t1);
        pools[pool] = Pair(t0, t1);
        emit PoolRegistered(pool, t0, t1);
    }

    /// @notice Owner only: stops orders from using `pool`.
    function deregisterPool(address pool) external onlyOwner {
        if (pools[pool].token0 == address(0)) revert PoolNotRegistered(pool);
        delete pools[pool];
        emit PoolDeregistered(pool);
    }

    /// @notice EIP-712 struct hash of `order`: the Permit2 witness and the event's orderHash.
    /// @dev Every field is a static type, so abi.encode(typehash, order) lays the fields out
    ///      exactly as EIP-712 encodeData does (one 32-byte word each, in declaration order).
    function hashGaslessOrder(GaslessOrder calldata order) public pure returns (bytes32) {
        return keccak256(abi.encode(GASLESS_ORDER_TYPEHASH, order));
    }

    /// @notice Executes a signed gasless order; callable by anyone, the caller pays gas.
    /// @param order The order exactly as signed.
    /// @param signature The signer's Permit2 PermitWitnessTransferFrom signature (65 or 64 bytes)
    ///        with permitted = (tokenIn, amountIn), spender = this router, nonce = order.nonce,
    ///        deadline = order.deadline and witness = hashGaslessOrder(order).
    /// @return amountOut The amount of tokenOut delivered to order.recipient.
    function executeGaslessOrder(GaslessOrder calldata order, bytes calldata signature)
        external
        nonReentrant
        returns (uint256 amountOut)
    {
        // Permit2 checks the deadline too; checking here first gives a clearer error.
        if (block.timestamp > order.deadline) revert OrderExpired(order.deadline);
        if (order.amountIn == 0) revert ZeroAmount();
        Pair memory pair = pools[order.pool];
        if (pair.token0 == address(0)) revert PoolNotRegistered(order.pool);
        if (
            !((pair.token0 == order.tokenIn && pair.token1 == order.tokenOut)
                    || (pair.token0 == order.tokenOut && pair.token1 == order.tokenIn))
        ) revert PoolPairMismatch(order.pool, order.tokenIn, order.tokenOut);

        bytes32 orderHash = hashGaslessOrder(order);

        // Pull the input straight into the pool; Permit2 verifies the signature over
        // (token, amount, spender = this, nonce, deadline, witness = orderHash) and burns the nonce.
        permit2.permitWitnessTransferFrom(
            ISignatureTransfer.PermitTransferFrom({
                permitted: ISignatureTransfer.TokenPermissions({token: order.tokenIn, amount: order.amountIn}),
                nonce: order.nonce,
                deadline: order.deadline
            }),
            ISignatureTransfer.SignatureTransferDetails({to: order.pool, requestedAmount: order.amountIn}),
            order.signer,
            orderHash,
            WITNESS_TYPE_STRING,
            signature
        );

        amountOut = IPool(order.pool).swapExactIn(order.tokenIn, order.minAmountOut, order.recipient);
        if (amountOut < order.minAmountOut) revert InsufficientOutput(amountOut, order.minAmountOut);

        emit GaslessOrderExecuted(
            orderHash,
            order.signer,
            order.tokenIn,
            order.tokenOut,
            order.amountIn,
            amountOut,
            order.recipient,
            order.nonce
        );
    }
}
