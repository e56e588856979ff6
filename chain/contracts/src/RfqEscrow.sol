// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISignatureTransfer} from "./Permit2.sol";
import {ECDSA} from "./ECDSA.sol";
import {SafeTransferLib} from "./Tokens.sol";
import {Owned, ReentrancyGuard} from "./Owned.sol";

/// @title RfqEscrow
/// @notice Escrow for firm RFQ quotes. A registered market maker signs a Quote (EIP-712,
///         domain {name "FxdRfqEscrow", version "1", chainId, this contract}); the taker
///         signs a Permit2 PermitWitnessTransferFrom whose witness is an RfqEscrowFunding
///         that names this escrow and the quote's hash, and broadcasts
///         escrowQuoteWithPermit2 at its own cost. The taker's input is then held here until
///         either the maker settles (pays amountOut to the taker and receives amountIn) within
///         the settlement window, or, once the window has passed, anyone refunds the taker.
/// @dev The window splits time in two so settle and refund can never race:
///      settle is allowed while block.timestamp <= settleDeadline, refund only after it.
///      Each quote (by its hash) can be escrowed once, and each executionId names one escrow.
contract RfqEscrow is Owned, ReentrancyGuard {
    using SafeTransferLib for address;

    /// @notice A firm quote signed by `maker`: the maker will pay `amountOut` of tokenOut
    ///         to `taker` for `amountIn` of tokenIn if the taker funds it before `expiry`.
    ///         `salt` makes otherwise-equal quotes distinct (each quote is single-use).
    struct Quote {
        address maker;
        address taker;
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint256 amountOut;
        uint256 expiry;
        uint256 salt;
    }

    /// @notice The Permit2 witness the taker signs. Field order is part of the signed type,
    ///         whose EIP-712 name is "RfqEscrowFunding" (see RFQ_ESCROW_FUNDING_TYPEHASH);
    ///         the Solidity name is shorter only because it lives inside RfqEscrow.
    struct Funding {
        address signer; // the taker, owner of the input tokens
        bytes32 executionId; // the service's id for this execution, single-use
        address escrow; // this contract
        bytes32 quoteHash; // hashQuote(quote)
        address token; // quote.tokenIn
        uint256 amount; // quote.amountIn
        uint256 deadline; // Permit2 deadline
        uint256 nonce; // Permit2 unordered nonce of `signer`
    }

    enum Status {
        None,
        Escrowed,
        Settled,
        Refunded
    }

    /// @notice One escrowed execution, packed into four storage slots (creating storage
    ///         is the dominant cost of escrowing): amounts are stored as uint96, which is
    ///         7.9e22 whole tokens at 6 decimals (7.9e10 at 18); larger quotes are refused.
    struct Escrow {
        address maker; // slot 0
        uint96 amountIn; // slot 0
        address taker; // slot 1
        uint96 amountOut; // slot 1
        address tokenIn; // slot 2
        uint64 settleDeadline; // slot 2
        Status status; // slot 2
        address tokenOut; // slot 3
    }

    bytes32 private constant _DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant _HASHED_NAME = keccak256("FxdRfqEscrow");
    bytes32 private constant _HASHED_VERSION = keccak256("1");

    /// @notice keccak256 of the Quote EIP-712 type.
    bytes32 public constant QUOTE_TYPEHASH = keccak256(
        "Quote(address maker,address taker,address tokenIn,address tokenOut,uint256 amountIn,uint256 amountOut,uint256 expiry,uint256 salt)"
    );

    /// @notice keccak256 of the RfqEscrowFunding EIP-712 type.
    bytes32 public constant RFQ_ESCROW_FUNDING_TYPEHASH = keccak256(
        "RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)"
    );

    /// @notice The Permit2 witness type string the taker's typed data must use.
    string public constant WITNESS_TYPE_STRING =
        "RfqEscrowFunding witness)RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)";

    /// @notice The Permit2 contract the taker's signatures are made for.
    ISignatureTransfer public immutable permit2;

    /// @notice Seconds the maker has to settle after funding; copied into each escrow.
    uint64 public settleWindow;

    /// @notice Market makers whose quotes are accepted (owner-managed allowlist).
    mapping(address maker => bool) public isMaker;

    /// @notice Escrows by executionId.
    mapping(bytes32 executionId => Escrow) public escrows;

    /// @notice Quotes (by hashQuote) that were already escrowed.
    mapping(bytes32 quoteHash => bool) public quoteUsed;

    event MakerUpdated(address indexed maker, bool allowed);
    event SettleWindowUpdated(uint64 settleWindow);

    /// @notice The taker's funds are escrowed; the maker must settle by settleDeadline.
    event QuoteEscrowed(
        bytes32 indexed executionId,
        bytes32 indexed quoteHash,
        address indexed taker,
        address maker,
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        uint256 amountOut,
        uint256 settleDeadline
    );
    /// @notice The maker paid amountOut to the taker and received amountIn.
    event QuoteSettled(
        bytes32 indexed executionId,
        address indexed maker,
        address indexed taker,
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        uint256 amountOut
    );
    /// @notice The maker missed the window; amountIn went back to the taker.
    event QuoteRefunded(
        bytes32 indexed executionId, address indexed taker, address indexed maker, address tokenIn, uint256 amountIn
    );

    /// @notice block.timestamp is past the quote's expiry.
    error QuoteExpired(uint256 expiry);
    /// @notice The quote's maker is not on the allowlist.
    error MakerNotRegistered(address maker);
    /// @notice The provider signature does not recover to quote.maker.
    error InvalidMakerSignature();
    /// @notice The quote has a zero amount, an amount above type(uint96).max, a zero taker,
    ///         or the same token on both sides.
    error InvalidQuote();
    /// @notice The quote was already escrowed (under any executionId).
    error QuoteAlreadyUsed(bytes32 quoteHash);
    /// @notice funding.signer != quote.taker.
    error FundingSignerMismatch();
    /// @notice funding.escrow != address(this).
    error FundingEscrowMismatch();
    /// @notice funding.quoteHash != hashQuote(quote).
    error FundingQuoteHashMismatch();
    /// @notice funding.token != quote.tokenIn.
    error FundingTokenMismatch();
    /// @notice funding.amount != quote.amountIn.
    error FundingAmountMismatch();
    /// @notice The executionId was already used.
    error ExecutionIdUsed(bytes32 executionId);
    /// @notice No escrow with this executionId.
    error UnknownExecution(bytes32 executionId);
    /// @notice The escrow was already settled.
    error AlreadySettled(bytes32 executionId);
    /// @notice The escrow was already refunded.
    error AlreadyRefunded(bytes32 executionId);
    /// @notice settle was called by someone other than the escrow's maker.
    error NotMaker(address caller);
    /// @notice settle after the settlement deadline (the escrow can only be refunded now).
    error SettleWindowClosed(uint256 settleDeadline);
    /// @notice refund before the settlement deadline has passed.
    error RefundTooEarly(uint256 settleDeadline);

    constructor(address permit2_, uint64 settleWindow_) Owned(msg.sender) {
        if (permit2_ == address(0)) revert ZeroAddress();
        permit2 = ISignatureTransfer(permit2_);
        settleWindow = settleWindow_;
        emit SettleWindowUpdated(settleWindow_);
    }

    // ------------------------------------------------------------------ admin

    /// @notice Owner only: allows (or stops) quotes signed by `maker`.
    /// @dev Removing a maker does not affect its open escrows: it can still settle them.
    function setMaker(address maker, bool allowed) external onlyOwner {
        if (maker == address(0)) revert ZeroAddress();
        isMaker[maker] = allowed;
        emit MakerUpdated(maker, allowed);
    }

    /// @notice Owner only: sets the settlement window for escrows funded from now on.
    function setSettleWindow(uint64 settleWindow_) external onlyOwner {
        settleWindow = settleWindow_;
        emit SettleWindowUpdated(settleWindow_);
    }

    // ------------------------------------------------------------------ hashing

    /// @notice EIP-712 domain separator, recomputed from block.chainid and address(this).
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(_DOMAIN_TYPEHASH, _HASHED_NAME, _HASHED_VERSION, block.chainid, address(this)));
    }

    /// @notice EIP-712 struct hash of `quote`: the quoteHash the funding must name.
    /// @dev All fields are static, so abi.encode(typehash, quote) equals EIP-712 encodeData.
    function hashQuote(Quote calldata quote) public pure returns (bytes32) {
        return keccak256(abi.encode(QUOTE_TYPEHASH, quote));
    }

    /// @notice The EIP-712 digest the maker signs: keccak256("\x19\x01" || domain || hashQuote).
    function quoteDigest(Quote calldata quote) public view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), hashQuote(quote)));
    }

    /// @notice EIP-712 struct hash of `funding`: the Permit2 witness.
    function hashFunding(Funding calldata funding) public pure returns (bytes32) {
        return keccak256(abi.encode(RFQ_ESCROW_FUNDING_TYPEHASH, funding));
    }

    // ------------------------------------------------------------------ flow

    /// @notice Escrows the taker's input for a maker-signed quote, pulling it with the
    ///         taker's Permit2 witness signature (spender = this escrow). Callable by anyone;
    ///         the signatures bind everything.
    /// @param quote The maker's firm quote.
    /// @param providerSignature The maker's EIP-712 signature of `quote` (65 or 64 bytes).
    /// @param funding The taker's funding witness; must match the quote field by field.
    /// @param permit2Signature The taker's Permit2 PermitWitnessTransferFrom signature with
    ///        permitted = (funding.token, funding.amount), spender = this, nonce and deadline
    ///        from `funding`, witness = hashFunding(funding).
    function escrowQuoteWithPermit2(
        Quote calldata quote,
        bytes calldata providerSignature,
        Funding calldata funding,
        bytes calldata permit2Signature
    ) external nonReentrant {
        bytes32 quoteHash = _checkQuote(quote, providerSignature);
        bytes32 executionId = funding.executionId;
        _checkFunding(quote, quoteHash, funding);
        if (escrows[executionId].status != Status.None) revert ExecutionIdUsed(executionId);
        if (quoteUsed[quoteHash]) revert QuoteAlreadyUsed(quoteHash);

        // Effects first: the record exists before any token moves.
        uint64 settleDeadline = uint64(block.timestamp) + settleWindow;
        quoteUsed[quoteHash] = true;
        escrows[executionId] = Escrow({
            maker: quote.maker,
            amountIn: uint96(quote.amountIn), // bounded in _checkQuote
            taker: quote.taker,
            amountOut: uint96(quote.amountOut), // bounded in _checkQuote
            tokenIn: quote.tokenIn,
            settleDeadline: settleDeadline,
            status: Status.Escrowed,
            tokenOut: quote.tokenOut
        });

        permit2.permitWitnessTransferFrom(
            ISignatureTransfer.PermitTransferFrom({
                permitted: ISignatureTransfer.TokenPermissions({token: funding.token, amount: funding.amount}),
                nonce: funding.nonce,
                deadline: funding.deadline
            }),
            ISignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: funding.amount}),
            funding.signer,
            hashFunding(funding),
            WITNESS_TYPE_STRING,
            permit2Signature
        );

        _emitEscrowed(executionId, quoteHash, quote, settleDeadline);
    }

    /// @notice The maker settles: pays amountOut of tokenOut to the taker (from the maker's
    ///         balance, the escrow needs an allowance) and receives the escrowed amountIn.
    function settle(bytes32 executionId) external nonReentrant {
        Escrow storage e = _open(executionId);
        if (msg.sender != e.maker) revert NotMaker(msg.sender);
        if (block.timestamp > e.settleDeadline) revert SettleWindowClosed(e.settleDeadline);
        e.status = Status.Settled;

        address maker = e.maker;
        address taker = e.taker;
        address tokenIn = e.tokenIn;
        address tokenOut = e.tokenOut;
        uint256 amountIn = e.amountIn;
        uint256 amountOut = e.amountOut;
        tokenOut.safeTransferFrom(maker, taker, amountOut);
        tokenIn.safeTransfer(maker, amountIn);
        emit QuoteSettled(executionId, maker, taker, tokenIn, amountIn, tokenOut, amountOut);
    }

    /// @notice After the settlement deadline, anyone may return the escrowed input to the taker.
    function refund(bytes32 executionId) external nonReentrant {
        Escrow storage e = _open(executionId);
        if (block.timestamp <= e.settleDeadline) revert RefundTooEarly(e.settleDeadline);
        e.status = Status.Refunded;

        e.tokenIn.safeTransfer(e.taker, e.amountIn);
        emit QuoteRefunded(executionId, e.taker, e.maker, e.tokenIn, e.amountIn);
    }

    // ------------------------------------------------------------------ internals

    function _checkQuote(Quote calldata quote, bytes calldata providerSignature) private view returns (bytes32 quoteHash) {
        if (block.timestamp > quote.expiry) revert QuoteExpired(quote.expiry);
        if (
            quote.amountIn == 0 || quote.amountOut == 0 || quote.amountIn > type(uint96).max
                || quote.amountOut > type(uint96).max || quote.taker == address(0) || quote.tokenIn == quote.tokenOut
        ) revert InvalidQuote();
        if (!isMaker[quote.maker]) revert MakerNotRegistered(quote.maker);
        quoteHash = hashQuote(quote);
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), quoteHash));
        if (ECDSA.recover(digest, providerSignature) != quote.maker) revert InvalidMakerSignature();
    }

    function _checkFunding(Quote calldata quote, bytes32 quoteHash, Funding calldata funding) private view {
        if (funding.signer != quote.taker) revert FundingSignerMismatch();
        if (funding.escrow != address(this)) revert FundingEscrowMismatch();
        if (funding.quoteHash != quoteHash) revert FundingQuoteHashMismatch();
        if (funding.token != quote.tokenIn) revert FundingTokenMismatch();
        if (funding.amount != quote.amountIn) revert FundingAmountMismatch();
    }

    function _open(bytes32 executionId) private view returns (Escrow storage e) {
        e = escrows[executionId];
        Status s = e.status;
        if (s == Status.None) revert UnknownExecution(executionId);
        if (s == Status.Settled) revert AlreadySettled(executionId);
        if (s == Status.Refunded) revert AlreadyRefunded(executionId);
    }

    function _emitEscrowed(bytes32 executionId, bytes32 quoteHash, Quote calldata quote, uint64 settleDeadline) private {
        emit QuoteEscrowed(
            executionId,
            quoteHash,
            quote.taker,
            quote.maker,
            quote.tokenIn,
            quote.amountIn,
            quote.tokenOut,
            quote.amountOut,
            settleDeadline
        );
    }
}
