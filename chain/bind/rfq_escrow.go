// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package bind

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// RfqEscrowFunding is an auto generated low-level Go binding around an user-defined struct.
type RfqEscrowFunding struct {
	Signer      common.Address
	ExecutionId [32]byte
	Escrow      common.Address
	QuoteHash   [32]byte
	Token       common.Address
	Amount      *big.Int
	Deadline    *big.Int
	Nonce       *big.Int
}

// RfqEscrowQuote is an auto generated low-level Go binding around an user-defined struct.
type RfqEscrowQuote struct {
	Maker     common.Address
	Taker     common.Address
	TokenIn   common.Address
	TokenOut  common.Address
	AmountIn  *big.Int
	AmountOut *big.Int
	Expiry    *big.Int
	Salt      *big.Int
}

// RfqEscrowMetaData contains all meta data concerning the RfqEscrow contract.
var RfqEscrowMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"permit2_\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"settleWindow_\",\"type\":\"uint64\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"}],\"name\":\"AlreadyRefunded\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"}],\"name\":\"AlreadySettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"}],\"name\":\"ExecutionIdUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FundingAmountMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FundingEscrowMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FundingQuoteHashMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FundingSignerMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FundingTokenMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidMakerSignature\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidQuote\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignature\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignatureLength\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignatureS\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"}],\"name\":\"MakerNotRegistered\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotMaker\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"quoteHash\",\"type\":\"bytes32\"}],\"name\":\"QuoteAlreadyUsed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"expiry\",\"type\":\"uint256\"}],\"name\":\"QuoteExpired\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Reentrancy\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"settleDeadline\",\"type\":\"uint256\"}],\"name\":\"RefundTooEarly\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"settleDeadline\",\"type\":\"uint256\"}],\"name\":\"SettleWindowClosed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenHasNoCode\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"}],\"name\":\"UnknownExecution\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"allowed\",\"type\":\"bool\"}],\"name\":\"MakerUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"quoteHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"taker\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"settleDeadline\",\"type\":\"uint256\"}],\"name\":\"QuoteEscrowed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"taker\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"QuoteRefunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"taker\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"name\":\"QuoteSettled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint64\",\"name\":\"settleWindow\",\"type\":\"uint64\"}],\"name\":\"SettleWindowUpdated\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DOMAIN_SEPARATOR\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"QUOTE_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"RFQ_ESCROW_FUNDING_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WITNESS_TYPE_STRING\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"taker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"expiry\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"}],\"internalType\":\"structRfqEscrow.Quote\",\"name\":\"quote\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"providerSignature\",\"type\":\"bytes\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"signer\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"escrow\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"quoteHash\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"internalType\":\"structRfqEscrow.Funding\",\"name\":\"funding\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"permit2Signature\",\"type\":\"bytes\"}],\"name\":\"escrowQuoteWithPermit2\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"}],\"name\":\"escrows\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"uint96\",\"name\":\"amountIn\",\"type\":\"uint96\"},{\"internalType\":\"address\",\"name\":\"taker\",\"type\":\"address\"},{\"internalType\":\"uint96\",\"name\":\"amountOut\",\"type\":\"uint96\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"settleDeadline\",\"type\":\"uint64\"},{\"internalType\":\"enumRfqEscrow.Status\",\"name\":\"status\",\"type\":\"uint8\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"signer\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"escrow\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"quoteHash\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"internalType\":\"structRfqEscrow.Funding\",\"name\":\"funding\",\"type\":\"tuple\"}],\"name\":\"hashFunding\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"taker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"expiry\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"}],\"internalType\":\"structRfqEscrow.Quote\",\"name\":\"quote\",\"type\":\"tuple\"}],\"name\":\"hashQuote\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"}],\"name\":\"isMaker\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"permit2\",\"outputs\":[{\"internalType\":\"contractISignatureTransfer\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"taker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"expiry\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"}],\"internalType\":\"structRfqEscrow.Quote\",\"name\":\"quote\",\"type\":\"tuple\"}],\"name\":\"quoteDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"quoteHash\",\"type\":\"bytes32\"}],\"name\":\"quoteUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"}],\"name\":\"refund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"allowed\",\"type\":\"bool\"}],\"name\":\"setMaker\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint64\",\"name\":\"settleWindow_\",\"type\":\"uint64\"}],\"name\":\"setSettleWindow\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"executionId\",\"type\":\"bytes32\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"settleWindow\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	Bin: "0x60a060405234801561000f575f5ffd5b50604051611de7380380611de783398101604081905261002e9161012c565b338061004d5760405163d92e233d60e01b815260040160405180910390fd5b5f80546001600160a01b0319166001600160a01b03831690811782556040519091907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a3506001600160a01b0382166100bc5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0382166080525f8054600160a01b600160e01b031916600160a01b6001600160401b038416908102919091179091556040519081527fcdc2f04daae351435b9f370b8795e4ca5b5cd72a5f8925767790ab972e2aebfe9060200160405180910390a1505061017a565b5f5f6040838503121561013d575f5ffd5b82516001600160a01b0381168114610153575f5ffd5b60208401519092506001600160401b038116811461016f575f5ffd5b809150509250929050565b608051611c4e6101995f395f818161012501526107240152611c4e5ff3fe608060405234801561000f575f5ffd5b506004361061011c575f3560e01c80638da5cb5b116100a9578063e75600c31161006e578063e75600c314610311578063f2fde38b14610343578063f758161514610356578063fc0426071461037d578063fecd4d7c14610390575f5ffd5b80638da5cb5b146102b3578063987757dd146102c557806398d07eeb146102d85780639a51ff19146102eb578063df9f37ef146102fe575f5ffd5b80633644e515116100ef5780633644e5151461023b5780634f7e00e91461025157806361c275fd146102785780637249fbb61461028d57806378e413be146102a0575f5ffd5b806312261ee714610120578063156e2152146101645780631c9963fa146101795780632d83549c146101aa575b5f5ffd5b6101477f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b0390911681526020015b60405180910390f35b61016c6103b2565b60405161015b91906115ff565b5f5461019290600160a01b90046001600160401b031681565b6040516001600160401b03909116815260200161015b565b6102276101b8366004611618565b600260208190525f918252604090912080546001820154928201546003909201546001600160a01b0380831694600160a01b938490046001600160601b0390811695838316959283900490911693838216939282046001600160401b031692600160e01b90920460ff16911688565b60405161015b989796959493929190611643565b6102436103cf565b60405190815260200161015b565b6102437f4edfc0249d617c8a655dc69713be2420d296c5606cbd4739e76aca9a7e5256fd81565b61028b610286366004611723565b610473565b005b61028b61029b366004611618565b610848565b61028b6102ae3660046117b8565b61098c565b5f54610147906001600160a01b031681565b61028b6102d3366004611618565b610a18565b6102436102e63660046117de565b610bb5565b61028b6102f9366004611814565b610c06565b61024361030c3660046117de565b610cb7565b61033361031f36600461184d565b60016020525f908152604090205460ff1681565b604051901515815260200161015b565b61028b61035136600461184d565b610cec565b6102437fd1fd7d92e3fe7cf3c92f5d5910b22e0998047c31dea0695931211e6bd096feca81565b61024361038b3660046117de565b610d98565b61033361039e366004611618565b60036020525f908152604090205460ff1681565b60405180610100016040528060d88152602001611b4160d8913981565b604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201527f3b8c7abfa3297028adbbd1d5fcae535ef49f7d0f1cc9cfeb3d4c3ce302f2e0c7918101919091527fc89efdaa54c0f20c7adf612882df0950f5a951637e0307cdcb4c672f298b8bc660608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b60ff5f5c16156104965760405163558a1e0360e11b815260040160405180910390fd5b60015f805c60ff19168217905d505f6104b0878787610dcc565b905060208401356104c2888387610fae565b5f81815260026020819052604082200154600160e01b900460ff1660038111156104ee576104ee61162f565b1461051457604051630ab0f91960e01b8152600481018290526024015b60405180910390fd5b5f8281526003602052604090205460ff16156105465760405163735bcc8b60e11b81526004810183905260240161050b565b5f805461056390600160a01b90046001600160401b03164261187a565b5f84815260036020908152604091829020805460ff191660011790558151610100810190925291925090819061059b908c018c61184d565b6001600160a01b031681526020018a608001356001600160601b031681526020018a60200160208101906105cf919061184d565b6001600160a01b031681526020018a60a001356001600160601b031681526020018a6040016020810190610603919061184d565b6001600160a01b031681526001600160401b03831660208201526040016001815260200161063760808c0160608d0161184d565b6001600160a01b039081169091525f848152600260208181526040928390208551918601516001600160601b03908116600160a01b90810293871693909317825593860151606087015190941682029385169390931760018401556080850151918301805460a08701516001600160401b03169092026001600160e01b031990921692909416919091171780835560c084015191929060ff60e01b1916600160e01b8360038111156106eb576106eb61162f565b021790555060e09190910151600390910180546001600160a01b0319166001600160a01b039283161790556040805160a08082019092527f00000000000000000000000000000000000000000000000000000000000000009092169163137c29fe91819060608201908190610765908d0160808e0161184d565b6001600160a01b0316815260a08c0135602091820181905291835260e08c01358382015260c08c01356040938401528251808401909352308352828101919091526107b2908b018b61184d565b6107bb8b610bb5565b60405180610100016040528060d88152602001611b4160d891398b8b6040518863ffffffff1660e01b81526004016107f9979695949392919061189f565b5f604051808303815f87803b158015610810575f5ffd5b505af1158015610822573d5f5f3e3d5ffd5b5050505061083282848b846110d4565b505f91505060ff19815c16815d50505050505050565b60ff5f5c161561086b5760405163558a1e0360e11b815260040160405180910390fd5b60015f805c60ff19168217905d505f61088382611192565b6002810154909150600160a01b90046001600160401b031642116108d157600281015460405163c97053b160e01b8152600160a01b9091046001600160401b0316600482015260240161050b565b60028101805460ff60e01b198116600360e01b1790915560018201548254610916926001600160a01b03908116921690600160a01b90046001600160601b0316611256565b805460018201546002830154604080516001600160a01b039283168152600160a01b85046001600160601b0316602082015293821693919092169185917f04b07159fee2bef3e3e327718af1b1210dee8c0fb98e04846cd7027cdaffda80910160405180910390a4505f60ff19815c16815d5050565b5f546001600160a01b031633146109b85760405163245aecd360e01b815233600482015260240161050b565b5f805467ffffffffffffffff60a01b1916600160a01b6001600160401b038416908102919091179091556040519081527fcdc2f04daae351435b9f370b8795e4ca5b5cd72a5f8925767790ab972e2aebfe9060200160405180910390a150565b60ff5f5c1615610a3b5760405163558a1e0360e11b815260040160405180910390fd5b60015f805c60ff19168217905d505f610a5382611192565b80549091506001600160a01b03163314610a825760405163eb7019f960e01b815233600482015260240161050b565b6002810154600160a01b90046001600160401b0316421115610ace576002810154604051634226e5b560e01b8152600160a01b9091046001600160401b0316600482015260240161050b565b60028101805460ff60e01b198116600160e11b179091558154600183015460038401546001600160a01b0380841694818416949082169391909216916001600160601b03600160a01b918290048116929190910416610b2f838787846112a7565b610b436001600160a01b0385168784611256565b604080516001600160a01b0386811682526020820185905285811682840152606082018490529151878316928916918b917fd0682185a0ecd8bcf7faaef4c502ac02ba1d3c08988fb54798a6ce219d29cc719181900360800190a4505f95505060ff19855c16935084925050505d5050565b5f7f4edfc0249d617c8a655dc69713be2420d296c5606cbd4739e76aca9a7e5256fd82604051602001610be9929190611954565b604051602081830303815290604052805190602001209050919050565b5f546001600160a01b03163314610c325760405163245aecd360e01b815233600482015260240161050b565b6001600160a01b038216610c595760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0382165f81815260016020908152604091829020805460ff191685151590811790915591519182527fb9722393798a983db7e06153419ee0e58e25506e650c06f2a850398c4355a9ab910160405180910390a25050565b5f610cc06103cf565b610cc983610d98565b60405161190160f01b602082015260228101929092526042820152606201610be9565b5f546001600160a01b03163314610d185760405163245aecd360e01b815233600482015260240161050b565b6001600160a01b038116610d3f5760405163d92e233d60e01b815260040160405180910390fd5b5f80546040516001600160a01b03808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a35f80546001600160a01b0319166001600160a01b0392909216919091179055565b5f7fd1fd7d92e3fe7cf3c92f5d5910b22e0998047c31dea0695931211e6bd096feca82604051602001610be99291906119f3565b5f8360c00135421115610df857604051638395159960e01b815260c0850135600482015260240161050b565b60808401351580610e0b575060a0840135155b80610e2057506001600160601b036080850135115b80610e3557506001600160601b0360a0850135115b80610e5757505f610e4c604086016020870161184d565b6001600160a01b0316145b80610e915750610e6d608085016060860161184d565b6001600160a01b0316610e86606086016040870161184d565b6001600160a01b0316145b15610eaf57604051630f86180360e41b815260040160405180910390fd5b60015f610ebf602087018761184d565b6001600160a01b0316815260208101919091526040015f205460ff16610f1157610eec602085018561184d565b60405163c0b26d7b60e01b81526001600160a01b03909116600482015260240161050b565b610f1a84610d98565b90505f610f256103cf565b60405161190160f01b602082015260228101919091526042810183905260620160408051601f1981840301815291905280516020918201209150610f6b9086018661184d565b6001600160a01b0316610f7f828686611306565b6001600160a01b031614610fa657604051630735572560e41b815260040160405180910390fd5b509392505050565b610fbe604084016020850161184d565b6001600160a01b0316610fd4602083018361184d565b6001600160a01b031614610ffb57604051633d21b97360e11b815260040160405180910390fd5b3061100c606083016040840161184d565b6001600160a01b03161461103357604051630c4c2f7560e31b815260040160405180910390fd5b8181606001351461105757604051636acdaaff60e11b815260040160405180910390fd5b611067606084016040850161184d565b6001600160a01b031661108060a083016080840161184d565b6001600160a01b0316146110a7576040516321826cff60e21b815260040160405180910390fd5b82608001358160a00135146110cf576040516307fe19c560e31b815260040160405180910390fd5b505050565b6110e4604083016020840161184d565b6001600160a01b031683857f14e2e3b0ed60d106eab6253d26d5eb496425bc7636ccbd67ff9539c233b6ba8761111d602087018761184d565b61112d606088016040890161184d565b608088018035906111419060608b0161184d565b604080516001600160a01b0395861681529385166020850152830191909152909116606082015260a08781013560808301526001600160401b0387169082015260c00160405180910390a450505050565b5f8181526002602081905260408220908101549091600160e01b90910460ff16908160038111156111c5576111c561162f565b036111e657604051630daaea1360e41b81526004810184905260240161050b565b60028160038111156111fa576111fa61162f565b0361121b576040516358cb522560e11b81526004810184905260240161050b565b600381600381111561122f5761122f61162f565b0361125057604051631316266b60e01b81526004810184905260240161050b565b50919050565b6040516001600160a01b0383166024820152604481018290526110cf90849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b1790526114e4565b6040516001600160a01b038085166024830152831660448201526064810182905261130090859060840160408051601f198184030181529190526020810180516001600160e01b03166323b872dd60e01b1790526114e4565b50505050565b5f80808060418590036113685761132060205f8789611a96565b61132991611abd565b9250611339604060208789611a96565b61134291611abd565b91508585604081811061135757611357611ada565b919091013560f81c91506113df9050565b60408590036113c65761137e60205f8789611a96565b61138791611abd565b92505f61139860406020888a611a96565b6113a191611abd565b6001600160ff1b038116935090506113be60ff82901c601b611aee565b9150506113df565b604051634be6321b60e01b815260040160405180910390fd5b7f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0821115611420576040516317e97eb760e31b815260040160405180910390fd5b8060ff16601b1415801561143857508060ff16601c14155b1561145657604051638baa579f60e01b815260040160405180910390fd5b604080515f81526020810180835289905260ff831691810191909152606081018490526080810183905260019060a0016020604051602081039080840390855afa1580156114a6573d5f5f3e3d5ffd5b5050604051601f1901519450506001600160a01b0384166114da57604051638baa579f60e01b815260040160405180910390fd5b5050509392505050565b816001600160a01b03163b5f036115195760405163d0b1b2a760e01b81526001600160a01b038316600482015260240161050b565b5f5f836001600160a01b0316836040516115339190611b07565b5f604051808303815f865af19150503d805f811461156c576040519150601f19603f3d011682016040523d82523d5f602084013e611571565b606091505b50915091508161158357805160208201fd5b8051158015906115a85750805160201415806115a857506115a381611b1d565b600114155b1561130057604051632b596cb760e01b81526001600160a01b038516600482015260240161050b565b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b602081525f61161160208301846115d1565b9392505050565b5f60208284031215611628575f5ffd5b5035919050565b634e487b7160e01b5f52602160045260245ffd5b6001600160a01b0389811682526001600160601b038981166020840152888216604084015287166060830152851660808201526001600160401b03841660a08201526101008101600484106116a657634e487b7160e01b5f52602160045260245ffd5b8360c08301526116c160e08301846001600160a01b03169052565b9998505050505050505050565b5f6101008284031215611250575f5ffd5b5f5f83601f8401126116ef575f5ffd5b5081356001600160401b03811115611705575f5ffd5b60208301915083602082850101111561171c575f5ffd5b9250929050565b5f5f5f5f5f5f6102408789031215611739575f5ffd5b61174388886116ce565b95506101008701356001600160401b0381111561175e575f5ffd5b61176a89828a016116df565b909650945061177f90508861012089016116ce565b92506102208701356001600160401b0381111561179a575f5ffd5b6117a689828a016116df565b979a9699509497509295939492505050565b5f602082840312156117c8575f5ffd5b81356001600160401b0381168114611611575f5ffd5b5f61010082840312156117ef575f5ffd5b61161183836116ce565b80356001600160a01b038116811461180f575f5ffd5b919050565b5f5f60408385031215611825575f5ffd5b61182e836117f9565b915060208301358015158114611842575f5ffd5b809150509250929050565b5f6020828403121561185d575f5ffd5b611611826117f9565b634e487b7160e01b5f52601160045260245ffd5b6001600160401b03818116838216019081111561189957611899611866565b92915050565b6118bd81895180516001600160a01b03168252602090810151910152565b60208801516040820152604088015160608201526118f1608082018880516001600160a01b03168252602090810151910152565b60018060a01b03861660c08201528460e08201526101406101008201525f61191d6101408301866115d1565b828103610120840152838152838560208301375f602085830101526020601f19601f86011682010191505098975050505050505050565b82815261012081016001600160a01b0361196d846117f9565b166020838101919091528301356040808401919091526001600160a01b03906119979085016117f9565b166060838101919091528301356080808401919091526001600160a01b03906119c19085016117f9565b1660a08381019190915283013560c08084019190915283013560e0808401919091529092013561010090910152919050565b82815261012081016001600160a01b03611a0c846117f9565b16602083015260018060a01b03611a25602085016117f9565b16604083015260018060a01b03611a3e604085016117f9565b166060830152611a50606084016117f9565b6001600160a01b038116608084015250608083013560a08381019190915283013560c08084019190915283013560e0808401919091529092013561010090910152919050565b5f5f85851115611aa4575f5ffd5b83861115611ab0575f5ffd5b5050820193919092039150565b80356020831015611899575f19602084900360031b1b1692915050565b634e487b7160e01b5f52603260045260245ffd5b60ff818116838216019081111561189957611899611866565b5f82518060208501845e5f920191825250919050565b80516020808301519190811015611250575f1960209190910360031b1b1691905056fe526671457363726f7746756e64696e67207769746e65737329526671457363726f7746756e64696e672861646472657373207369676e65722c6279746573333220657865637574696f6e49642c6164647265737320657363726f772c627974657333322071756f7465486173682c6164647265737320746f6b656e2c75696e7432353620616d6f756e742c75696e7432353620646561646c696e652c75696e74323536206e6f6e636529546f6b656e5065726d697373696f6e73286164647265737320746f6b656e2c75696e7432353620616d6f756e7429a2646970667358221220c42f66eb60cdee26422d9fc8ef076ddf8694f074e737c05e0648aa8baa518be964736f6c634300081c0033",
}

// RfqEscrowABI is the input ABI used to generate the binding from.
// Deprecated: Use RfqEscrowMetaData.ABI instead.
var RfqEscrowABI = RfqEscrowMetaData.ABI

// RfqEscrowBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use RfqEscrowMetaData.Bin instead.
var RfqEscrowBin = RfqEscrowMetaData.Bin

// DeployRfqEscrow deploys a new Ethereum contract, binding an instance of RfqEscrow to it.
func DeployRfqEscrow(auth *bind.TransactOpts, backend bind.ContractBackend, permit2_ common.Address, settleWindow_ uint64) (common.Address, *types.Transaction, *RfqEscrow, error) {
	parsed, err := RfqEscrowMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(RfqEscrowBin), backend, permit2_, settleWindow_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &RfqEscrow{RfqEscrowCaller: RfqEscrowCaller{contract: contract}, RfqEscrowTransactor: RfqEscrowTransactor{contract: contract}, RfqEscrowFilterer: RfqEscrowFilterer{contract: contract}}, nil
}

// RfqEscrow is an auto generated Go binding around an Ethereum contract.
type RfqEscrow struct {
	RfqEscrowCaller     // Read-only binding to the contract
	RfqEscrowTransactor // Write-only binding to the contract
	RfqEscrowFilterer   // Log filterer for contract events
}

// RfqEscrowCaller is an auto generated read-only Go binding around an Ethereum contract.
type RfqEscrowCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// RfqEscrowTransactor is an auto generated write-only Go binding around an Ethereum contract.
type RfqEscrowTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// RfqEscrowFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type RfqEscrowFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// RfqEscrowSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type RfqEscrowSession struct {
	Contract     *RfqEscrow        // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// RfqEscrowCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type RfqEscrowCallerSession struct {
	Contract *RfqEscrowCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts    // Call options to use throughout this session
}

// RfqEscrowTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type RfqEscrowTransactorSession struct {
	Contract     *RfqEscrowTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts    // Transaction auth options to use throughout this session
}

// RfqEscrowRaw is an auto generated low-level Go binding around an Ethereum contract.
type RfqEscrowRaw struct {
	Contract *RfqEscrow // Generic contract binding to access the raw methods on
}

// RfqEscrowCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type RfqEscrowCallerRaw struct {
	Contract *RfqEscrowCaller // Generic read-only contract binding to access the raw methods on
}

// RfqEscrowTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type RfqEscrowTransactorRaw struct {
	Contract *RfqEscrowTransactor // Generic write-only contract binding to access the raw methods on
}

// NewRfqEscrow creates a new instance of RfqEscrow, bound to a specific deployed contract.
func NewRfqEscrow(address common.Address, backend bind.ContractBackend) (*RfqEscrow, error) {
	contract, err := bindRfqEscrow(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &RfqEscrow{RfqEscrowCaller: RfqEscrowCaller{contract: contract}, RfqEscrowTransactor: RfqEscrowTransactor{contract: contract}, RfqEscrowFilterer: RfqEscrowFilterer{contract: contract}}, nil
}

// NewRfqEscrowCaller creates a new read-only instance of RfqEscrow, bound to a specific deployed contract.
func NewRfqEscrowCaller(address common.Address, caller bind.ContractCaller) (*RfqEscrowCaller, error) {
	contract, err := bindRfqEscrow(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowCaller{contract: contract}, nil
}

// NewRfqEscrowTransactor creates a new write-only instance of RfqEscrow, bound to a specific deployed contract.
func NewRfqEscrowTransactor(address common.Address, transactor bind.ContractTransactor) (*RfqEscrowTransactor, error) {
	contract, err := bindRfqEscrow(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowTransactor{contract: contract}, nil
}

// NewRfqEscrowFilterer creates a new log filterer instance of RfqEscrow, bound to a specific deployed contract.
func NewRfqEscrowFilterer(address common.Address, filterer bind.ContractFilterer) (*RfqEscrowFilterer, error) {
	contract, err := bindRfqEscrow(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowFilterer{contract: contract}, nil
}

// bindRfqEscrow binds a generic wrapper to an already deployed contract.
func bindRfqEscrow(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := RfqEscrowMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_RfqEscrow *RfqEscrowRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _RfqEscrow.Contract.RfqEscrowCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_RfqEscrow *RfqEscrowRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _RfqEscrow.Contract.RfqEscrowTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_RfqEscrow *RfqEscrowRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _RfqEscrow.Contract.RfqEscrowTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_RfqEscrow *RfqEscrowCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _RfqEscrow.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_RfqEscrow *RfqEscrowTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _RfqEscrow.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_RfqEscrow *RfqEscrowTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _RfqEscrow.Contract.contract.Transact(opts, method, params...)
}

// DOMAINSEPARATOR is a free data retrieval call binding the contract method 0x3644e515.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (_RfqEscrow *RfqEscrowCaller) DOMAINSEPARATOR(opts *bind.CallOpts) ([32]byte, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "DOMAIN_SEPARATOR")

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// DOMAINSEPARATOR is a free data retrieval call binding the contract method 0x3644e515.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (_RfqEscrow *RfqEscrowSession) DOMAINSEPARATOR() ([32]byte, error) {
	return _RfqEscrow.Contract.DOMAINSEPARATOR(&_RfqEscrow.CallOpts)
}

// DOMAINSEPARATOR is a free data retrieval call binding the contract method 0x3644e515.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (_RfqEscrow *RfqEscrowCallerSession) DOMAINSEPARATOR() ([32]byte, error) {
	return _RfqEscrow.Contract.DOMAINSEPARATOR(&_RfqEscrow.CallOpts)
}

// QUOTETYPEHASH is a free data retrieval call binding the contract method 0xf7581615.
//
// Solidity: function QUOTE_TYPEHASH() view returns(bytes32)
func (_RfqEscrow *RfqEscrowCaller) QUOTETYPEHASH(opts *bind.CallOpts) ([32]byte, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "QUOTE_TYPEHASH")

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// QUOTETYPEHASH is a free data retrieval call binding the contract method 0xf7581615.
//
// Solidity: function QUOTE_TYPEHASH() view returns(bytes32)
func (_RfqEscrow *RfqEscrowSession) QUOTETYPEHASH() ([32]byte, error) {
	return _RfqEscrow.Contract.QUOTETYPEHASH(&_RfqEscrow.CallOpts)
}

// QUOTETYPEHASH is a free data retrieval call binding the contract method 0xf7581615.
//
// Solidity: function QUOTE_TYPEHASH() view returns(bytes32)
func (_RfqEscrow *RfqEscrowCallerSession) QUOTETYPEHASH() ([32]byte, error) {
	return _RfqEscrow.Contract.QUOTETYPEHASH(&_RfqEscrow.CallOpts)
}

// RFQESCROWFUNDINGTYPEHASH is a free data retrieval call binding the contract method 0x4f7e00e9.
//
// Solidity: function RFQ_ESCROW_FUNDING_TYPEHASH() view returns(bytes32)
func (_RfqEscrow *RfqEscrowCaller) RFQESCROWFUNDINGTYPEHASH(opts *bind.CallOpts) ([32]byte, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "RFQ_ESCROW_FUNDING_TYPEHASH")

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// RFQESCROWFUNDINGTYPEHASH is a free data retrieval call binding the contract method 0x4f7e00e9.
//
// Solidity: function RFQ_ESCROW_FUNDING_TYPEHASH() view returns(bytes32)
func (_RfqEscrow *RfqEscrowSession) RFQESCROWFUNDINGTYPEHASH() ([32]byte, error) {
	return _RfqEscrow.Contract.RFQESCROWFUNDINGTYPEHASH(&_RfqEscrow.CallOpts)
}

// RFQESCROWFUNDINGTYPEHASH is a free data retrieval call binding the contract method 0x4f7e00e9.
//
// Solidity: function RFQ_ESCROW_FUNDING_TYPEHASH() view returns(bytes32)
func (_RfqEscrow *RfqEscrowCallerSession) RFQESCROWFUNDINGTYPEHASH() ([32]byte, error) {
	return _RfqEscrow.Contract.RFQESCROWFUNDINGTYPEHASH(&_RfqEscrow.CallOpts)
}

// WITNESSTYPESTRING is a free data retrieval call binding the contract method 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (_RfqEscrow *RfqEscrowCaller) WITNESSTYPESTRING(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "WITNESS_TYPE_STRING")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// WITNESSTYPESTRING is a free data retrieval call binding the contract method 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (_RfqEscrow *RfqEscrowSession) WITNESSTYPESTRING() (string, error) {
	return _RfqEscrow.Contract.WITNESSTYPESTRING(&_RfqEscrow.CallOpts)
}

// WITNESSTYPESTRING is a free data retrieval call binding the contract method 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (_RfqEscrow *RfqEscrowCallerSession) WITNESSTYPESTRING() (string, error) {
	return _RfqEscrow.Contract.WITNESSTYPESTRING(&_RfqEscrow.CallOpts)
}

// Escrows is a free data retrieval call binding the contract method 0x2d83549c.
//
// Solidity: function escrows(bytes32 executionId) view returns(address maker, uint96 amountIn, address taker, uint96 amountOut, address tokenIn, uint64 settleDeadline, uint8 status, address tokenOut)
func (_RfqEscrow *RfqEscrowCaller) Escrows(opts *bind.CallOpts, executionId [32]byte) (struct {
	Maker          common.Address
	AmountIn       *big.Int
	Taker          common.Address
	AmountOut      *big.Int
	TokenIn        common.Address
	SettleDeadline uint64
	Status         uint8
	TokenOut       common.Address
}, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "escrows", executionId)

	outstruct := new(struct {
		Maker          common.Address
		AmountIn       *big.Int
		Taker          common.Address
		AmountOut      *big.Int
		TokenIn        common.Address
		SettleDeadline uint64
		Status         uint8
		TokenOut       common.Address
	})
	if err != nil {
		return *outstruct, err
	}

	outstruct.Maker = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.AmountIn = *abi.ConvertType(out[1], new(*big.Int)).(**big.Int)
	outstruct.Taker = *abi.ConvertType(out[2], new(common.Address)).(*common.Address)
	outstruct.AmountOut = *abi.ConvertType(out[3], new(*big.Int)).(**big.Int)
	outstruct.TokenIn = *abi.ConvertType(out[4], new(common.Address)).(*common.Address)
	outstruct.SettleDeadline = *abi.ConvertType(out[5], new(uint64)).(*uint64)
	outstruct.Status = *abi.ConvertType(out[6], new(uint8)).(*uint8)
	outstruct.TokenOut = *abi.ConvertType(out[7], new(common.Address)).(*common.Address)

	return *outstruct, err

}

// Escrows is a free data retrieval call binding the contract method 0x2d83549c.
//
// Solidity: function escrows(bytes32 executionId) view returns(address maker, uint96 amountIn, address taker, uint96 amountOut, address tokenIn, uint64 settleDeadline, uint8 status, address tokenOut)
func (_RfqEscrow *RfqEscrowSession) Escrows(executionId [32]byte) (struct {
	Maker          common.Address
	AmountIn       *big.Int
	Taker          common.Address
	AmountOut      *big.Int
	TokenIn        common.Address
	SettleDeadline uint64
	Status         uint8
	TokenOut       common.Address
}, error) {
	return _RfqEscrow.Contract.Escrows(&_RfqEscrow.CallOpts, executionId)
}

// Escrows is a free data retrieval call binding the contract method 0x2d83549c.
//
// Solidity: function escrows(bytes32 executionId) view returns(address maker, uint96 amountIn, address taker, uint96 amountOut, address tokenIn, uint64 settleDeadline, uint8 status, address tokenOut)
func (_RfqEscrow *RfqEscrowCallerSession) Escrows(executionId [32]byte) (struct {
	Maker          common.Address
	AmountIn       *big.Int
	Taker          common.Address
	AmountOut      *big.Int
	TokenIn        common.Address
	SettleDeadline uint64
	Status         uint8
	TokenOut       common.Address
}, error) {
	return _RfqEscrow.Contract.Escrows(&_RfqEscrow.CallOpts, executionId)
}

// HashFunding is a free data retrieval call binding the contract method 0x98d07eeb.
//
// Solidity: function hashFunding((address,bytes32,address,bytes32,address,uint256,uint256,uint256) funding) pure returns(bytes32)
func (_RfqEscrow *RfqEscrowCaller) HashFunding(opts *bind.CallOpts, funding RfqEscrowFunding) ([32]byte, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "hashFunding", funding)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// HashFunding is a free data retrieval call binding the contract method 0x98d07eeb.
//
// Solidity: function hashFunding((address,bytes32,address,bytes32,address,uint256,uint256,uint256) funding) pure returns(bytes32)
func (_RfqEscrow *RfqEscrowSession) HashFunding(funding RfqEscrowFunding) ([32]byte, error) {
	return _RfqEscrow.Contract.HashFunding(&_RfqEscrow.CallOpts, funding)
}

// HashFunding is a free data retrieval call binding the contract method 0x98d07eeb.
//
// Solidity: function hashFunding((address,bytes32,address,bytes32,address,uint256,uint256,uint256) funding) pure returns(bytes32)
func (_RfqEscrow *RfqEscrowCallerSession) HashFunding(funding RfqEscrowFunding) ([32]byte, error) {
	return _RfqEscrow.Contract.HashFunding(&_RfqEscrow.CallOpts, funding)
}

// HashQuote is a free data retrieval call binding the contract method 0xfc042607.
//
// Solidity: function hashQuote((address,address,address,address,uint256,uint256,uint256,uint256) quote) pure returns(bytes32)
func (_RfqEscrow *RfqEscrowCaller) HashQuote(opts *bind.CallOpts, quote RfqEscrowQuote) ([32]byte, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "hashQuote", quote)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// HashQuote is a free data retrieval call binding the contract method 0xfc042607.
//
// Solidity: function hashQuote((address,address,address,address,uint256,uint256,uint256,uint256) quote) pure returns(bytes32)
func (_RfqEscrow *RfqEscrowSession) HashQuote(quote RfqEscrowQuote) ([32]byte, error) {
	return _RfqEscrow.Contract.HashQuote(&_RfqEscrow.CallOpts, quote)
}

// HashQuote is a free data retrieval call binding the contract method 0xfc042607.
//
// Solidity: function hashQuote((address,address,address,address,uint256,uint256,uint256,uint256) quote) pure returns(bytes32)
func (_RfqEscrow *RfqEscrowCallerSession) HashQuote(quote RfqEscrowQuote) ([32]byte, error) {
	return _RfqEscrow.Contract.HashQuote(&_RfqEscrow.CallOpts, quote)
}

// IsMaker is a free data retrieval call binding the contract method 0xe75600c3.
//
// Solidity: function isMaker(address maker) view returns(bool)
func (_RfqEscrow *RfqEscrowCaller) IsMaker(opts *bind.CallOpts, maker common.Address) (bool, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "isMaker", maker)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// IsMaker is a free data retrieval call binding the contract method 0xe75600c3.
//
// Solidity: function isMaker(address maker) view returns(bool)
func (_RfqEscrow *RfqEscrowSession) IsMaker(maker common.Address) (bool, error) {
	return _RfqEscrow.Contract.IsMaker(&_RfqEscrow.CallOpts, maker)
}

// IsMaker is a free data retrieval call binding the contract method 0xe75600c3.
//
// Solidity: function isMaker(address maker) view returns(bool)
func (_RfqEscrow *RfqEscrowCallerSession) IsMaker(maker common.Address) (bool, error) {
	return _RfqEscrow.Contract.IsMaker(&_RfqEscrow.CallOpts, maker)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_RfqEscrow *RfqEscrowCaller) Owner(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "owner")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_RfqEscrow *RfqEscrowSession) Owner() (common.Address, error) {
	return _RfqEscrow.Contract.Owner(&_RfqEscrow.CallOpts)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_RfqEscrow *RfqEscrowCallerSession) Owner() (common.Address, error) {
	return _RfqEscrow.Contract.Owner(&_RfqEscrow.CallOpts)
}

// Permit2 is a free data retrieval call binding the contract method 0x12261ee7.
//
// Solidity: function permit2() view returns(address)
func (_RfqEscrow *RfqEscrowCaller) Permit2(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "permit2")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Permit2 is a free data retrieval call binding the contract method 0x12261ee7.
//
// Solidity: function permit2() view returns(address)
func (_RfqEscrow *RfqEscrowSession) Permit2() (common.Address, error) {
	return _RfqEscrow.Contract.Permit2(&_RfqEscrow.CallOpts)
}

// Permit2 is a free data retrieval call binding the contract method 0x12261ee7.
//
// Solidity: function permit2() view returns(address)
func (_RfqEscrow *RfqEscrowCallerSession) Permit2() (common.Address, error) {
	return _RfqEscrow.Contract.Permit2(&_RfqEscrow.CallOpts)
}

// QuoteDigest is a free data retrieval call binding the contract method 0xdf9f37ef.
//
// Solidity: function quoteDigest((address,address,address,address,uint256,uint256,uint256,uint256) quote) view returns(bytes32)
func (_RfqEscrow *RfqEscrowCaller) QuoteDigest(opts *bind.CallOpts, quote RfqEscrowQuote) ([32]byte, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "quoteDigest", quote)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// QuoteDigest is a free data retrieval call binding the contract method 0xdf9f37ef.
//
// Solidity: function quoteDigest((address,address,address,address,uint256,uint256,uint256,uint256) quote) view returns(bytes32)
func (_RfqEscrow *RfqEscrowSession) QuoteDigest(quote RfqEscrowQuote) ([32]byte, error) {
	return _RfqEscrow.Contract.QuoteDigest(&_RfqEscrow.CallOpts, quote)
}

// QuoteDigest is a free data retrieval call binding the contract method 0xdf9f37ef.
//
// Solidity: function quoteDigest((address,address,address,address,uint256,uint256,uint256,uint256) quote) view returns(bytes32)
func (_RfqEscrow *RfqEscrowCallerSession) QuoteDigest(quote RfqEscrowQuote) ([32]byte, error) {
	return _RfqEscrow.Contract.QuoteDigest(&_RfqEscrow.CallOpts, quote)
}

// QuoteUsed is a free data retrieval call binding the contract method 0xfecd4d7c.
//
// Solidity: function quoteUsed(bytes32 quoteHash) view returns(bool)
func (_RfqEscrow *RfqEscrowCaller) QuoteUsed(opts *bind.CallOpts, quoteHash [32]byte) (bool, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "quoteUsed", quoteHash)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// QuoteUsed is a free data retrieval call binding the contract method 0xfecd4d7c.
//
// Solidity: function quoteUsed(bytes32 quoteHash) view returns(bool)
func (_RfqEscrow *RfqEscrowSession) QuoteUsed(quoteHash [32]byte) (bool, error) {
	return _RfqEscrow.Contract.QuoteUsed(&_RfqEscrow.CallOpts, quoteHash)
}

// QuoteUsed is a free data retrieval call binding the contract method 0xfecd4d7c.
//
// Solidity: function quoteUsed(bytes32 quoteHash) view returns(bool)
func (_RfqEscrow *RfqEscrowCallerSession) QuoteUsed(quoteHash [32]byte) (bool, error) {
	return _RfqEscrow.Contract.QuoteUsed(&_RfqEscrow.CallOpts, quoteHash)
}

// SettleWindow is a free data retrieval call binding the contract method 0x1c9963fa.
//
// Solidity: function settleWindow() view returns(uint64)
func (_RfqEscrow *RfqEscrowCaller) SettleWindow(opts *bind.CallOpts) (uint64, error) {
	var out []interface{}
	err := _RfqEscrow.contract.Call(opts, &out, "settleWindow")

	if err != nil {
		return *new(uint64), err
	}

	out0 := *abi.ConvertType(out[0], new(uint64)).(*uint64)

	return out0, err

}

// SettleWindow is a free data retrieval call binding the contract method 0x1c9963fa.
//
// Solidity: function settleWindow() view returns(uint64)
func (_RfqEscrow *RfqEscrowSession) SettleWindow() (uint64, error) {
	return _RfqEscrow.Contract.SettleWindow(&_RfqEscrow.CallOpts)
}

// SettleWindow is a free data retrieval call binding the contract method 0x1c9963fa.
//
// Solidity: function settleWindow() view returns(uint64)
func (_RfqEscrow *RfqEscrowCallerSession) SettleWindow() (uint64, error) {
	return _RfqEscrow.Contract.SettleWindow(&_RfqEscrow.CallOpts)
}

// EscrowQuoteWithPermit2 is a paid mutator transaction binding the contract method 0x61c275fd.
//
// Solidity: function escrowQuoteWithPermit2((address,address,address,address,uint256,uint256,uint256,uint256) quote, bytes providerSignature, (address,bytes32,address,bytes32,address,uint256,uint256,uint256) funding, bytes permit2Signature) returns()
func (_RfqEscrow *RfqEscrowTransactor) EscrowQuoteWithPermit2(opts *bind.TransactOpts, quote RfqEscrowQuote, providerSignature []byte, funding RfqEscrowFunding, permit2Signature []byte) (*types.Transaction, error) {
	return _RfqEscrow.contract.Transact(opts, "escrowQuoteWithPermit2", quote, providerSignature, funding, permit2Signature)
}

// EscrowQuoteWithPermit2 is a paid mutator transaction binding the contract method 0x61c275fd.
//
// Solidity: function escrowQuoteWithPermit2((address,address,address,address,uint256,uint256,uint256,uint256) quote, bytes providerSignature, (address,bytes32,address,bytes32,address,uint256,uint256,uint256) funding, bytes permit2Signature) returns()
func (_RfqEscrow *RfqEscrowSession) EscrowQuoteWithPermit2(quote RfqEscrowQuote, providerSignature []byte, funding RfqEscrowFunding, permit2Signature []byte) (*types.Transaction, error) {
	return _RfqEscrow.Contract.EscrowQuoteWithPermit2(&_RfqEscrow.TransactOpts, quote, providerSignature, funding, permit2Signature)
}

// EscrowQuoteWithPermit2 is a paid mutator transaction binding the contract method 0x61c275fd.
//
// Solidity: function escrowQuoteWithPermit2((address,address,address,address,uint256,uint256,uint256,uint256) quote, bytes providerSignature, (address,bytes32,address,bytes32,address,uint256,uint256,uint256) funding, bytes permit2Signature) returns()
func (_RfqEscrow *RfqEscrowTransactorSession) EscrowQuoteWithPermit2(quote RfqEscrowQuote, providerSignature []byte, funding RfqEscrowFunding, permit2Signature []byte) (*types.Transaction, error) {
	return _RfqEscrow.Contract.EscrowQuoteWithPermit2(&_RfqEscrow.TransactOpts, quote, providerSignature, funding, permit2Signature)
}

// Refund is a paid mutator transaction binding the contract method 0x7249fbb6.
//
// Solidity: function refund(bytes32 executionId) returns()
func (_RfqEscrow *RfqEscrowTransactor) Refund(opts *bind.TransactOpts, executionId [32]byte) (*types.Transaction, error) {
	return _RfqEscrow.contract.Transact(opts, "refund", executionId)
}

// Refund is a paid mutator transaction binding the contract method 0x7249fbb6.
//
// Solidity: function refund(bytes32 executionId) returns()
func (_RfqEscrow *RfqEscrowSession) Refund(executionId [32]byte) (*types.Transaction, error) {
	return _RfqEscrow.Contract.Refund(&_RfqEscrow.TransactOpts, executionId)
}

// Refund is a paid mutator transaction binding the contract method 0x7249fbb6.
//
// Solidity: function refund(bytes32 executionId) returns()
func (_RfqEscrow *RfqEscrowTransactorSession) Refund(executionId [32]byte) (*types.Transaction, error) {
	return _RfqEscrow.Contract.Refund(&_RfqEscrow.TransactOpts, executionId)
}

// SetMaker is a paid mutator transaction binding the contract method 0x9a51ff19.
//
// Solidity: function setMaker(address maker, bool allowed) returns()
func (_RfqEscrow *RfqEscrowTransactor) SetMaker(opts *bind.TransactOpts, maker common.Address, allowed bool) (*types.Transaction, error) {
	return _RfqEscrow.contract.Transact(opts, "setMaker", maker, allowed)
}

// SetMaker is a paid mutator transaction binding the contract method 0x9a51ff19.
//
// Solidity: function setMaker(address maker, bool allowed) returns()
func (_RfqEscrow *RfqEscrowSession) SetMaker(maker common.Address, allowed bool) (*types.Transaction, error) {
	return _RfqEscrow.Contract.SetMaker(&_RfqEscrow.TransactOpts, maker, allowed)
}

// SetMaker is a paid mutator transaction binding the contract method 0x9a51ff19.
//
// Solidity: function setMaker(address maker, bool allowed) returns()
func (_RfqEscrow *RfqEscrowTransactorSession) SetMaker(maker common.Address, allowed bool) (*types.Transaction, error) {
	return _RfqEscrow.Contract.SetMaker(&_RfqEscrow.TransactOpts, maker, allowed)
}

// SetSettleWindow is a paid mutator transaction binding the contract method 0x78e413be.
//
// Solidity: function setSettleWindow(uint64 settleWindow_) returns()
func (_RfqEscrow *RfqEscrowTransactor) SetSettleWindow(opts *bind.TransactOpts, settleWindow_ uint64) (*types.Transaction, error) {
	return _RfqEscrow.contract.Transact(opts, "setSettleWindow", settleWindow_)
}

// SetSettleWindow is a paid mutator transaction binding the contract method 0x78e413be.
//
// Solidity: function setSettleWindow(uint64 settleWindow_) returns()
func (_RfqEscrow *RfqEscrowSession) SetSettleWindow(settleWindow_ uint64) (*types.Transaction, error) {
	return _RfqEscrow.Contract.SetSettleWindow(&_RfqEscrow.TransactOpts, settleWindow_)
}

// SetSettleWindow is a paid mutator transaction binding the contract method 0x78e413be.
//
// Solidity: function setSettleWindow(uint64 settleWindow_) returns()
func (_RfqEscrow *RfqEscrowTransactorSession) SetSettleWindow(settleWindow_ uint64) (*types.Transaction, error) {
	return _RfqEscrow.Contract.SetSettleWindow(&_RfqEscrow.TransactOpts, settleWindow_)
}

// Settle is a paid mutator transaction binding the contract method 0x987757dd.
//
// Solidity: function settle(bytes32 executionId) returns()
func (_RfqEscrow *RfqEscrowTransactor) Settle(opts *bind.TransactOpts, executionId [32]byte) (*types.Transaction, error) {
	return _RfqEscrow.contract.Transact(opts, "settle", executionId)
}

// Settle is a paid mutator transaction binding the contract method 0x987757dd.
//
// Solidity: function settle(bytes32 executionId) returns()
func (_RfqEscrow *RfqEscrowSession) Settle(executionId [32]byte) (*types.Transaction, error) {
	return _RfqEscrow.Contract.Settle(&_RfqEscrow.TransactOpts, executionId)
}

// Settle is a paid mutator transaction binding the contract method 0x987757dd.
//
// Solidity: function settle(bytes32 executionId) returns()
func (_RfqEscrow *RfqEscrowTransactorSession) Settle(executionId [32]byte) (*types.Transaction, error) {
	return _RfqEscrow.Contract.Settle(&_RfqEscrow.TransactOpts, executionId)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_RfqEscrow *RfqEscrowTransactor) TransferOwnership(opts *bind.TransactOpts, newOwner common.Address) (*types.Transaction, error) {
	return _RfqEscrow.contract.Transact(opts, "transferOwnership", newOwner)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_RfqEscrow *RfqEscrowSession) TransferOwnership(newOwner common.Address) (*types.Transaction, error) {
	return _RfqEscrow.Contract.TransferOwnership(&_RfqEscrow.TransactOpts, newOwner)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_RfqEscrow *RfqEscrowTransactorSession) TransferOwnership(newOwner common.Address) (*types.Transaction, error) {
	return _RfqEscrow.Contract.TransferOwnership(&_RfqEscrow.TransactOpts, newOwner)
}

// RfqEscrowMakerUpdatedIterator is returned from FilterMakerUpdated and is used to iterate over the raw logs and unpacked data for MakerUpdated events raised by the RfqEscrow contract.
type RfqEscrowMakerUpdatedIterator struct {
	Event *RfqEscrowMakerUpdated // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *RfqEscrowMakerUpdatedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RfqEscrowMakerUpdated)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(RfqEscrowMakerUpdated)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *RfqEscrowMakerUpdatedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RfqEscrowMakerUpdatedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RfqEscrowMakerUpdated represents a MakerUpdated event raised by the RfqEscrow contract.
type RfqEscrowMakerUpdated struct {
	Maker   common.Address
	Allowed bool
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterMakerUpdated is a free log retrieval operation binding the contract event 0xb9722393798a983db7e06153419ee0e58e25506e650c06f2a850398c4355a9ab.
//
// Solidity: event MakerUpdated(address indexed maker, bool allowed)
func (_RfqEscrow *RfqEscrowFilterer) FilterMakerUpdated(opts *bind.FilterOpts, maker []common.Address) (*RfqEscrowMakerUpdatedIterator, error) {

	var makerRule []interface{}
	for _, makerItem := range maker {
		makerRule = append(makerRule, makerItem)
	}

	logs, sub, err := _RfqEscrow.contract.FilterLogs(opts, "MakerUpdated", makerRule)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowMakerUpdatedIterator{contract: _RfqEscrow.contract, event: "MakerUpdated", logs: logs, sub: sub}, nil
}

// WatchMakerUpdated is a free log subscription operation binding the contract event 0xb9722393798a983db7e06153419ee0e58e25506e650c06f2a850398c4355a9ab.
//
// Solidity: event MakerUpdated(address indexed maker, bool allowed)
func (_RfqEscrow *RfqEscrowFilterer) WatchMakerUpdated(opts *bind.WatchOpts, sink chan<- *RfqEscrowMakerUpdated, maker []common.Address) (event.Subscription, error) {

	var makerRule []interface{}
	for _, makerItem := range maker {
		makerRule = append(makerRule, makerItem)
	}

	logs, sub, err := _RfqEscrow.contract.WatchLogs(opts, "MakerUpdated", makerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RfqEscrowMakerUpdated)
				if err := _RfqEscrow.contract.UnpackLog(event, "MakerUpdated", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseMakerUpdated is a log parse operation binding the contract event 0xb9722393798a983db7e06153419ee0e58e25506e650c06f2a850398c4355a9ab.
//
// Solidity: event MakerUpdated(address indexed maker, bool allowed)
func (_RfqEscrow *RfqEscrowFilterer) ParseMakerUpdated(log types.Log) (*RfqEscrowMakerUpdated, error) {
	event := new(RfqEscrowMakerUpdated)
	if err := _RfqEscrow.contract.UnpackLog(event, "MakerUpdated", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RfqEscrowOwnershipTransferredIterator is returned from FilterOwnershipTransferred and is used to iterate over the raw logs and unpacked data for OwnershipTransferred events raised by the RfqEscrow contract.
type RfqEscrowOwnershipTransferredIterator struct {
	Event *RfqEscrowOwnershipTransferred // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *RfqEscrowOwnershipTransferredIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RfqEscrowOwnershipTransferred)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(RfqEscrowOwnershipTransferred)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *RfqEscrowOwnershipTransferredIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RfqEscrowOwnershipTransferredIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RfqEscrowOwnershipTransferred represents a OwnershipTransferred event raised by the RfqEscrow contract.
type RfqEscrowOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           types.Log // Blockchain specific contextual infos
}

// FilterOwnershipTransferred is a free log retrieval operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_RfqEscrow *RfqEscrowFilterer) FilterOwnershipTransferred(opts *bind.FilterOpts, previousOwner []common.Address, newOwner []common.Address) (*RfqEscrowOwnershipTransferredIterator, error) {

	var previousOwnerRule []interface{}
	for _, previousOwnerItem := range previousOwner {
		previousOwnerRule = append(previousOwnerRule, previousOwnerItem)
	}
	var newOwnerRule []interface{}
	for _, newOwnerItem := range newOwner {
		newOwnerRule = append(newOwnerRule, newOwnerItem)
	}

	logs, sub, err := _RfqEscrow.contract.FilterLogs(opts, "OwnershipTransferred", previousOwnerRule, newOwnerRule)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowOwnershipTransferredIterator{contract: _RfqEscrow.contract, event: "OwnershipTransferred", logs: logs, sub: sub}, nil
}

// WatchOwnershipTransferred is a free log subscription operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_RfqEscrow *RfqEscrowFilterer) WatchOwnershipTransferred(opts *bind.WatchOpts, sink chan<- *RfqEscrowOwnershipTransferred, previousOwner []common.Address, newOwner []common.Address) (event.Subscription, error) {

	var previousOwnerRule []interface{}
	for _, previousOwnerItem := range previousOwner {
		previousOwnerRule = append(previousOwnerRule, previousOwnerItem)
	}
	var newOwnerRule []interface{}
	for _, newOwnerItem := range newOwner {
		newOwnerRule = append(newOwnerRule, newOwnerItem)
	}

	logs, sub, err := _RfqEscrow.contract.WatchLogs(opts, "OwnershipTransferred", previousOwnerRule, newOwnerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RfqEscrowOwnershipTransferred)
				if err := _RfqEscrow.contract.UnpackLog(event, "OwnershipTransferred", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseOwnershipTransferred is a log parse operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_RfqEscrow *RfqEscrowFilterer) ParseOwnershipTransferred(log types.Log) (*RfqEscrowOwnershipTransferred, error) {
	event := new(RfqEscrowOwnershipTransferred)
	if err := _RfqEscrow.contract.UnpackLog(event, "OwnershipTransferred", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RfqEscrowQuoteEscrowedIterator is returned from FilterQuoteEscrowed and is used to iterate over the raw logs and unpacked data for QuoteEscrowed events raised by the RfqEscrow contract.
type RfqEscrowQuoteEscrowedIterator struct {
	Event *RfqEscrowQuoteEscrowed // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *RfqEscrowQuoteEscrowedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RfqEscrowQuoteEscrowed)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(RfqEscrowQuoteEscrowed)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *RfqEscrowQuoteEscrowedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RfqEscrowQuoteEscrowedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RfqEscrowQuoteEscrowed represents a QuoteEscrowed event raised by the RfqEscrow contract.
type RfqEscrowQuoteEscrowed struct {
	ExecutionId    [32]byte
	QuoteHash      [32]byte
	Taker          common.Address
	Maker          common.Address
	TokenIn        common.Address
	AmountIn       *big.Int
	TokenOut       common.Address
	AmountOut      *big.Int
	SettleDeadline *big.Int
	Raw            types.Log // Blockchain specific contextual infos
}

// FilterQuoteEscrowed is a free log retrieval operation binding the contract event 0x14e2e3b0ed60d106eab6253d26d5eb496425bc7636ccbd67ff9539c233b6ba87.
//
// Solidity: event QuoteEscrowed(bytes32 indexed executionId, bytes32 indexed quoteHash, address indexed taker, address maker, address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut, uint256 settleDeadline)
func (_RfqEscrow *RfqEscrowFilterer) FilterQuoteEscrowed(opts *bind.FilterOpts, executionId [][32]byte, quoteHash [][32]byte, taker []common.Address) (*RfqEscrowQuoteEscrowedIterator, error) {

	var executionIdRule []interface{}
	for _, executionIdItem := range executionId {
		executionIdRule = append(executionIdRule, executionIdItem)
	}
	var quoteHashRule []interface{}
	for _, quoteHashItem := range quoteHash {
		quoteHashRule = append(quoteHashRule, quoteHashItem)
	}
	var takerRule []interface{}
	for _, takerItem := range taker {
		takerRule = append(takerRule, takerItem)
	}

	logs, sub, err := _RfqEscrow.contract.FilterLogs(opts, "QuoteEscrowed", executionIdRule, quoteHashRule, takerRule)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowQuoteEscrowedIterator{contract: _RfqEscrow.contract, event: "QuoteEscrowed", logs: logs, sub: sub}, nil
}

// WatchQuoteEscrowed is a free log subscription operation binding the contract event 0x14e2e3b0ed60d106eab6253d26d5eb496425bc7636ccbd67ff9539c233b6ba87.
//
// Solidity: event QuoteEscrowed(bytes32 indexed executionId, bytes32 indexed quoteHash, address indexed taker, address maker, address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut, uint256 settleDeadline)
func (_RfqEscrow *RfqEscrowFilterer) WatchQuoteEscrowed(opts *bind.WatchOpts, sink chan<- *RfqEscrowQuoteEscrowed, executionId [][32]byte, quoteHash [][32]byte, taker []common.Address) (event.Subscription, error) {

	var executionIdRule []interface{}
	for _, executionIdItem := range executionId {
		executionIdRule = append(executionIdRule, executionIdItem)
	}
	var quoteHashRule []interface{}
	for _, quoteHashItem := range quoteHash {
		quoteHashRule = append(quoteHashRule, quoteHashItem)
	}
	var takerRule []interface{}
	for _, takerItem := range taker {
		takerRule = append(takerRule, takerItem)
	}

	logs, sub, err := _RfqEscrow.contract.WatchLogs(opts, "QuoteEscrowed", executionIdRule, quoteHashRule, takerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RfqEscrowQuoteEscrowed)
				if err := _RfqEscrow.contract.UnpackLog(event, "QuoteEscrowed", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseQuoteEscrowed is a log parse operation binding the contract event 0x14e2e3b0ed60d106eab6253d26d5eb496425bc7636ccbd67ff9539c233b6ba87.
//
// Solidity: event QuoteEscrowed(bytes32 indexed executionId, bytes32 indexed quoteHash, address indexed taker, address maker, address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut, uint256 settleDeadline)
func (_RfqEscrow *RfqEscrowFilterer) ParseQuoteEscrowed(log types.Log) (*RfqEscrowQuoteEscrowed, error) {
	event := new(RfqEscrowQuoteEscrowed)
	if err := _RfqEscrow.contract.UnpackLog(event, "QuoteEscrowed", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RfqEscrowQuoteRefundedIterator is returned from FilterQuoteRefunded and is used to iterate over the raw logs and unpacked data for QuoteRefunded events raised by the RfqEscrow contract.
type RfqEscrowQuoteRefundedIterator struct {
	Event *RfqEscrowQuoteRefunded // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *RfqEscrowQuoteRefundedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RfqEscrowQuoteRefunded)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(RfqEscrowQuoteRefunded)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *RfqEscrowQuoteRefundedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RfqEscrowQuoteRefundedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RfqEscrowQuoteRefunded represents a QuoteRefunded event raised by the RfqEscrow contract.
type RfqEscrowQuoteRefunded struct {
	ExecutionId [32]byte
	Taker       common.Address
	Maker       common.Address
	TokenIn     common.Address
	AmountIn    *big.Int
	Raw         types.Log // Blockchain specific contextual infos
}

// FilterQuoteRefunded is a free log retrieval operation binding the contract event 0x04b07159fee2bef3e3e327718af1b1210dee8c0fb98e04846cd7027cdaffda80.
//
// Solidity: event QuoteRefunded(bytes32 indexed executionId, address indexed taker, address indexed maker, address tokenIn, uint256 amountIn)
func (_RfqEscrow *RfqEscrowFilterer) FilterQuoteRefunded(opts *bind.FilterOpts, executionId [][32]byte, taker []common.Address, maker []common.Address) (*RfqEscrowQuoteRefundedIterator, error) {

	var executionIdRule []interface{}
	for _, executionIdItem := range executionId {
		executionIdRule = append(executionIdRule, executionIdItem)
	}
	var takerRule []interface{}
	for _, takerItem := range taker {
		takerRule = append(takerRule, takerItem)
	}
	var makerRule []interface{}
	for _, makerItem := range maker {
		makerRule = append(makerRule, makerItem)
	}

	logs, sub, err := _RfqEscrow.contract.FilterLogs(opts, "QuoteRefunded", executionIdRule, takerRule, makerRule)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowQuoteRefundedIterator{contract: _RfqEscrow.contract, event: "QuoteRefunded", logs: logs, sub: sub}, nil
}

// WatchQuoteRefunded is a free log subscription operation binding the contract event 0x04b07159fee2bef3e3e327718af1b1210dee8c0fb98e04846cd7027cdaffda80.
//
// Solidity: event QuoteRefunded(bytes32 indexed executionId, address indexed taker, address indexed maker, address tokenIn, uint256 amountIn)
func (_RfqEscrow *RfqEscrowFilterer) WatchQuoteRefunded(opts *bind.WatchOpts, sink chan<- *RfqEscrowQuoteRefunded, executionId [][32]byte, taker []common.Address, maker []common.Address) (event.Subscription, error) {

	var executionIdRule []interface{}
	for _, executionIdItem := range executionId {
		executionIdRule = append(executionIdRule, executionIdItem)
	}
	var takerRule []interface{}
	for _, takerItem := range taker {
		takerRule = append(takerRule, takerItem)
	}
	var makerRule []interface{}
	for _, makerItem := range maker {
		makerRule = append(makerRule, makerItem)
	}

	logs, sub, err := _RfqEscrow.contract.WatchLogs(opts, "QuoteRefunded", executionIdRule, takerRule, makerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RfqEscrowQuoteRefunded)
				if err := _RfqEscrow.contract.UnpackLog(event, "QuoteRefunded", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseQuoteRefunded is a log parse operation binding the contract event 0x04b07159fee2bef3e3e327718af1b1210dee8c0fb98e04846cd7027cdaffda80.
//
// Solidity: event QuoteRefunded(bytes32 indexed executionId, address indexed taker, address indexed maker, address tokenIn, uint256 amountIn)
func (_RfqEscrow *RfqEscrowFilterer) ParseQuoteRefunded(log types.Log) (*RfqEscrowQuoteRefunded, error) {
	event := new(RfqEscrowQuoteRefunded)
	if err := _RfqEscrow.contract.UnpackLog(event, "QuoteRefunded", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RfqEscrowQuoteSettledIterator is returned from FilterQuoteSettled and is used to iterate over the raw logs and unpacked data for QuoteSettled events raised by the RfqEscrow contract.
type RfqEscrowQuoteSettledIterator struct {
	Event *RfqEscrowQuoteSettled // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *RfqEscrowQuoteSettledIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RfqEscrowQuoteSettled)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(RfqEscrowQuoteSettled)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *RfqEscrowQuoteSettledIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RfqEscrowQuoteSettledIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RfqEscrowQuoteSettled represents a QuoteSettled event raised by the RfqEscrow contract.
type RfqEscrowQuoteSettled struct {
	ExecutionId [32]byte
	Maker       common.Address
	Taker       common.Address
	TokenIn     common.Address
	AmountIn    *big.Int
	TokenOut    common.Address
	AmountOut   *big.Int
	Raw         types.Log // Blockchain specific contextual infos
}

// FilterQuoteSettled is a free log retrieval operation binding the contract event 0xd0682185a0ecd8bcf7faaef4c502ac02ba1d3c08988fb54798a6ce219d29cc71.
//
// Solidity: event QuoteSettled(bytes32 indexed executionId, address indexed maker, address indexed taker, address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut)
func (_RfqEscrow *RfqEscrowFilterer) FilterQuoteSettled(opts *bind.FilterOpts, executionId [][32]byte, maker []common.Address, taker []common.Address) (*RfqEscrowQuoteSettledIterator, error) {

	var executionIdRule []interface{}
	for _, executionIdItem := range executionId {
		executionIdRule = append(executionIdRule, executionIdItem)
	}
	var makerRule []interface{}
	for _, makerItem := range maker {
		makerRule = append(makerRule, makerItem)
	}
	var takerRule []interface{}
	for _, takerItem := range taker {
		takerRule = append(takerRule, takerItem)
	}

	logs, sub, err := _RfqEscrow.contract.FilterLogs(opts, "QuoteSettled", executionIdRule, makerRule, takerRule)
	if err != nil {
		return nil, err
	}
	return &RfqEscrowQuoteSettledIterator{contract: _RfqEscrow.contract, event: "QuoteSettled", logs: logs, sub: sub}, nil
}

// WatchQuoteSettled is a free log subscription operation binding the contract event 0xd0682185a0ecd8bcf7faaef4c502ac02ba1d3c08988fb54798a6ce219d29cc71.
//
// Solidity: event QuoteSettled(bytes32 indexed executionId, address indexed maker, address indexed taker, address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut)
func (_RfqEscrow *RfqEscrowFilterer) WatchQuoteSettled(opts *bind.WatchOpts, sink chan<- *RfqEscrowQuoteSettled, executionId [][32]byte, maker []common.Address, taker []common.Address) (event.Subscription, error) {

	var executionIdRule []interface{}
	for _, executionIdItem := range executionId {
		executionIdRule = append(executionIdRule, executionIdItem)
	}
	var makerRule []interface{}
	for _, makerItem := range maker {
		makerRule = append(makerRule, makerItem)
	}
	var takerRule []interface{}
	for _, takerItem := range taker {
		takerRule = append(takerRule, takerItem)
	}

	logs, sub, err := _RfqEscrow.contract.WatchLogs(opts, "QuoteSettled", executionIdRule, makerRule, takerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RfqEscrowQuoteSettled)
				if err := _RfqEscrow.contract.UnpackLog(event, "QuoteSettled", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseQuoteSettled is a log parse operation binding the contract event 0xd0682185a0ecd8bcf7faaef4c502ac02ba1d3c08988fb54798a6ce219d29cc71.
//
// Solidity: event QuoteSettled(bytes32 indexed executionId, address indexed maker, address indexed taker, address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut)
func (_RfqEscrow *RfqEscrowFilterer) ParseQuoteSettled(log types.Log) (*RfqEscrowQuoteSettled, error) {
	event := new(RfqEscrowQuoteSettled)
	if err := _RfqEscrow.contract.UnpackLog(event, "QuoteSettled", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RfqEscrowSettleWindowUpdatedIterator is returned from FilterSettleWindowUpdated and is used to iterate over the raw logs and unpacked data for SettleWindowUpdated events raised by the RfqEscrow contract.
type RfqEscrowSettleWindowUpdatedIterator struct {
	Event *RfqEscrowSettleWindowUpdated // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *RfqEscrowSettleWindowUpdatedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RfqEscrowSettleWindowUpdated)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(RfqEscrowSettleWindowUpdated)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *RfqEscrowSettleWindowUpdatedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RfqEscrowSettleWindowUpdatedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RfqEscrowSettleWindowUpdated represents a SettleWindowUpdated event raised by the RfqEscrow contract.
type RfqEscrowSettleWindowUpdated struct {
	SettleWindow uint64
	Raw          types.Log // Blockchain specific contextual infos
}

// FilterSettleWindowUpdated is a free log retrieval operation binding the contract event 0xcdc2f04daae351435b9f370b8795e4ca5b5cd72a5f8925767790ab972e2aebfe.
//
// Solidity: event SettleWindowUpdated(uint64 settleWindow)
func (_RfqEscrow *RfqEscrowFilterer) FilterSettleWindowUpdated(opts *bind.FilterOpts) (*RfqEscrowSettleWindowUpdatedIterator, error) {

	logs, sub, err := _RfqEscrow.contract.FilterLogs(opts, "SettleWindowUpdated")
	if err != nil {
		return nil, err
	}
	return &RfqEscrowSettleWindowUpdatedIterator{contract: _RfqEscrow.contract, event: "SettleWindowUpdated", logs: logs, sub: sub}, nil
}

// WatchSettleWindowUpdated is a free log subscription operation binding the contract event 0xcdc2f04daae351435b9f370b8795e4ca5b5cd72a5f8925767790ab972e2aebfe.
//
// Solidity: event SettleWindowUpdated(uint64 settleWindow)
func (_RfqEscrow *RfqEscrowFilterer) WatchSettleWindowUpdated(opts *bind.WatchOpts, sink chan<- *RfqEscrowSettleWindowUpdated) (event.Subscription, error) {

	logs, sub, err := _RfqEscrow.contract.WatchLogs(opts, "SettleWindowUpdated")
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RfqEscrowSettleWindowUpdated)
				if err := _RfqEscrow.contract.UnpackLog(event, "SettleWindowUpdated", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseSettleWindowUpdated is a log parse operation binding the contract event 0xcdc2f04daae351435b9f370b8795e4ca5b5cd72a5f8925767790ab972e2aebfe.
//
// Solidity: event SettleWindowUpdated(uint64 settleWindow)
func (_RfqEscrow *RfqEscrowFilterer) ParseSettleWindowUpdated(log types.Log) (*RfqEscrowSettleWindowUpdated, error) {
	event := new(RfqEscrowSettleWindowUpdated)
	if err := _RfqEscrow.contract.UnpackLog(event, "SettleWindowUpdated", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
