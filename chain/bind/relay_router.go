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

// RelayRouterGaslessOrder is an auto generated low-level Go binding around an user-defined struct.
type RelayRouterGaslessOrder struct {
	Signer       common.Address
	TokenIn      common.Address
	TokenOut     common.Address
	AmountIn     *big.Int
	MinAmountOut *big.Int
	Recipient    common.Address
	Pool         common.Address
	Deadline     *big.Int
	Nonce        *big.Int
}

// RelayRouterMetaData contains all meta data concerning the RelayRouter contract.
var RelayRouterMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"permit2_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"}],\"name\":\"InsufficientOutput\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"name\":\"OrderExpired\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"}],\"name\":\"PoolNotRegistered\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"}],\"name\":\"PoolPairMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Reentrancy\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAmount\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"signer\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"name\":\"GaslessOrderExecuted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"}],\"name\":\"PoolDeregistered\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"token0\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"token1\",\"type\":\"address\"}],\"name\":\"PoolRegistered\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"GASLESS_ORDER_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WITNESS_TYPE_STRING\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"}],\"name\":\"deregisterPool\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"signer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"internalType\":\"structRelayRouter.GaslessOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"executeGaslessOrder\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"signer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"internalType\":\"structRelayRouter.GaslessOrder\",\"name\":\"order\",\"type\":\"tuple\"}],\"name\":\"hashGaslessOrder\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"permit2\",\"outputs\":[{\"internalType\":\"contractISignatureTransfer\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"}],\"name\":\"pools\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"token0\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token1\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pool\",\"type\":\"address\"}],\"name\":\"registerPool\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	Bin: "0x60a060405234801561000f575f5ffd5b5060405161101038038061101083398101604081905261002e916100cd565b338061004d5760405163d92e233d60e01b815260040160405180910390fd5b5f80546001600160a01b0319166001600160a01b03831690811782556040519091907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a3506001600160a01b0381166100bc5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b03166080526100fa565b5f602082840312156100dd575f5ffd5b81516001600160a01b03811681146100f3575f5ffd5b9392505050565b608051610ef86101185f395f818160a401526105670152610ef85ff3fe608060405234801561000f575f5ffd5b506004361061009b575f3560e01c806398b76f0e1161006357806398b76f0e1461014057806399a12ead14610153578063a4063dbc1461017a578063abd90846146101cd578063f2fde38b146101e0575f5ffd5b806312261ee71461009f578063156e2152146100e35780632093d5c7146100f85780637e72c7d7146101195780638da5cb5b1461012e575b5f5ffd5b6100c67f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b0390911681526020015b60405180910390f35b6100eb6101f3565b6040516100da9190610b1d565b61010b610106366004610b4d565b610210565b6040519081526020016100da565b61012c610127366004610b8f565b610261565b005b5f546100c6906001600160a01b031681565b61010b61014e366004610baa565b610330565b61010b7f34d575c6a02b9790ab35340cf82da1b817d9241860c1a2b200afe2fca8f1ea3581565b6101ad610188366004610b8f565b600160208190525f918252604090912080549101546001600160a01b03918216911682565b604080516001600160a01b039384168152929091166020830152016100da565b61012c6101db366004610b8f565b610844565b61012c6101ee366004610b8f565b610a43565b60405180610120016040528060e48152602001610ddf60e4913981565b5f7f34d575c6a02b9790ab35340cf82da1b817d9241860c1a2b200afe2fca8f1ea3582604051602001610244929190610c2b565b604051602081830303815290604052805190602001209050919050565b5f546001600160a01b031633146102925760405163245aecd360e01b81523360048201526024015b60405180910390fd5b6001600160a01b038181165f90815260016020526040902054166102d4576040516327946f5760e21b81526001600160a01b0382166004820152602401610289565b6001600160a01b0381165f81815260016020819052604080832080546001600160a01b0319908116825592018054909216909155517f334d0b2111287dfddebe4b4c1c5af3ae644909d7fcd024377bf601e236ed5abb9190a250565b5f60ff815c16156103545760405163558a1e0360e11b815260040160405180910390fd5b60015f805c60ff19168217905d508360e0013542111561038d576040516306b4c23760e21b815260e08501356004820152602401610289565b83606001355f036103b157604051631f2a200560e01b815260040160405180910390fd5b5f6001816103c560e0880160c08901610b8f565b6001600160a01b03908116825260208083019390935260409182015f2082518084019093528054821680845260019091015490911692820192909252915061043c5761041760e0860160c08701610b8f565b6040516327946f5760e21b81526001600160a01b039091166004820152602401610289565b61044c6040860160208701610b8f565b6001600160a01b0316815f01516001600160a01b0316148015610493575061047a6060860160408701610b8f565b6001600160a01b031681602001516001600160a01b0316145b806104f057506104a96060860160408701610b8f565b6001600160a01b0316815f01516001600160a01b03161480156104f057506104d76040860160208701610b8f565b6001600160a01b031681602001516001600160a01b0316145b6105595761050460e0860160c08701610b8f565b6105146040870160208801610b8f565b6105246060880160408901610b8f565b6040516308ce3d7d60e31b81526001600160a01b03938416600482015291831660248301529091166044820152606401610289565b5f61056386610210565b90507f00000000000000000000000000000000000000000000000000000000000000006001600160a01b031663137c29fe604051806060016040528060405180604001604052808b60200160208101906105bd9190610b8f565b6001600160a01b0316815260608c01356020918201529082526101008b01359082015260e08a018035604092830152815180830190925281906106039060c08d01610b8f565b6001600160a01b0316815260608b0135602091820152610625908b018b610b8f565b8560405180610120016040528060e48152602001610ddf60e491398b8b6040518863ffffffff1660e01b81526004016106649796959493929190610cf7565b5f604051808303815f87803b15801561067b575f5ffd5b505af115801561068d573d5f5f3e3d5ffd5b506106a29250505060e0870160c08801610b8f565b6001600160a01b0316632e5283c66106c06040890160208a01610b8f565b60808901356106d560c08b0160a08c01610b8f565b60405160e085901b6001600160e01b03191681526001600160a01b039384166004820152602481019290925290911660448201526064016020604051808303815f875af1158015610728573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061074c9190610dac565b9250856080013583101561078057604051630583371760e31b81526004810184905260808701356024820152604401610289565b61078d6020870187610b8f565b6001600160a01b0316817f27583eebd33eb37e6b57208a12a7c067fa0006a9065a8f2ba688aec46c07e6356107c860408a0160208b01610b8f565b6107d860608b0160408c01610b8f565b60608b0135886107ee60c08e0160a08f01610b8f565b604080516001600160a01b0396871681529486166020860152840192909252606083015290911660808201526101008a013560a082015260c00160405180910390a3505f905060ff19815c16815d509392505050565b5f546001600160a01b031633146108705760405163245aecd360e01b8152336004820152602401610289565b5f816001600160a01b0316630dfe16816040518163ffffffff1660e01b8152600401602060405180830381865afa1580156108ad573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906108d19190610dc3565b90505f826001600160a01b031663d21220a76040518163ffffffff1660e01b8152600401602060405180830381865afa158015610910573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906109349190610dc3565b90506001600160a01b038216158061095357506001600160a01b038116155b8061096f5750806001600160a01b0316826001600160a01b0316145b156109a8576040516308ce3d7d60e31b81526001600160a01b038085166004830152808416602483015282166044820152606401610289565b6040805180820182526001600160a01b0384811680835284821660208085018281528985165f818152600180855290899020975188549088166001600160a01b031991821617895592519701805497909616969091169590951790935584519182529181019190915290917f61afef2e121f71511fab2583c5ac49a5dc1d7a8ad8ad91c44c8465f073a73ac4910160405180910390a2505050565b5f546001600160a01b03163314610a6f5760405163245aecd360e01b8152336004820152602401610289565b6001600160a01b038116610a965760405163d92e233d60e01b815260040160405180910390fd5b5f80546040516001600160a01b03808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a35f80546001600160a01b0319166001600160a01b0392909216919091179055565b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b602081525f610b2f6020830184610aef565b9392505050565b5f6101208284031215610b47575f5ffd5b50919050565b5f6101208284031215610b5e575f5ffd5b610b2f8383610b36565b6001600160a01b0381168114610b7c575f5ffd5b50565b8035610b8a81610b68565b919050565b5f60208284031215610b9f575f5ffd5b8135610b2f81610b68565b5f5f5f6101408486031215610bbd575f5ffd5b610bc78585610b36565b925061012084013567ffffffffffffffff811115610be3575f5ffd5b8401601f81018613610bf3575f5ffd5b803567ffffffffffffffff811115610c09575f5ffd5b866020828401011115610c1a575f5ffd5b939660209190910195509293505050565b82815261014081018235610c3e81610b68565b6001600160a01b0316602083810191909152610c5b908401610b7f565b6001600160a01b038116604084015250610c7760408401610b7f565b6001600160a01b038116606084015250606083013560808381019190915283013560a080840191909152610cac908401610b7f565b6001600160a01b03811660c084015250610cc860c08401610b7f565b6001600160a01b03811660e08401525060e0830135610100838101919091529092013561012090910152919050565b610d1581895180516001600160a01b03168252602090810151910152565b6020880151604082015260408801516060820152610d49608082018880516001600160a01b03168252602090810151910152565b60018060a01b03861660c08201528460e08201526101406101008201525f610d75610140830186610aef565b828103610120840152838152838560208301375f602085830101526020601f19601f86011682010191505098975050505050505050565b5f60208284031215610dbc575f5ffd5b5051919050565b5f60208284031215610dd3575f5ffd5b8151610b2f81610b6856fe4761736c6573734f72646572207769746e657373294761736c6573734f726465722861646472657373207369676e65722c6164647265737320746f6b656e496e2c6164647265737320746f6b656e4f75742c75696e7432353620616d6f756e74496e2c75696e74323536206d696e416d6f756e744f75742c6164647265737320726563697069656e742c6164647265737320706f6f6c2c75696e7432353620646561646c696e652c75696e74323536206e6f6e636529546f6b656e5065726d697373696f6e73286164647265737320746f6b656e2c75696e7432353620616d6f756e7429a2646970667358221220c94f212e4d32e49f657553d0071e6028095857997fdde9474cfe9aa5e49f720564736f6c634300081c0033",
}

// RelayRouterABI is the input ABI used to generate the binding from.
// Deprecated: Use RelayRouterMetaData.ABI instead.
var RelayRouterABI = RelayRouterMetaData.ABI

// RelayRouterBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use RelayRouterMetaData.Bin instead.
var RelayRouterBin = RelayRouterMetaData.Bin

// DeployRelayRouter deploys a new Ethereum contract, binding an instance of RelayRouter to it.
func DeployRelayRouter(auth *bind.TransactOpts, backend bind.ContractBackend, permit2_ common.Address) (common.Address, *types.Transaction, *RelayRouter, error) {
	parsed, err := RelayRouterMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(RelayRouterBin), backend, permit2_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &RelayRouter{RelayRouterCaller: RelayRouterCaller{contract: contract}, RelayRouterTransactor: RelayRouterTransactor{contract: contract}, RelayRouterFilterer: RelayRouterFilterer{contract: contract}}, nil
}

// RelayRouter is an auto generated Go binding around an Ethereum contract.
type RelayRouter struct {
	RelayRouterCaller     // Read-only binding to the contract
	RelayRouterTransactor // Write-only binding to the contract
	RelayRouterFilterer   // Log filterer for contract events
}

// RelayRouterCaller is an auto generated read-only Go binding around an Ethereum contract.
type RelayRouterCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// RelayRouterTransactor is an auto generated write-only Go binding around an Ethereum contract.
type RelayRouterTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// RelayRouterFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type RelayRouterFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// RelayRouterSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type RelayRouterSession struct {
	Contract     *RelayRouter      // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// RelayRouterCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type RelayRouterCallerSession struct {
	Contract *RelayRouterCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts      // Call options to use throughout this session
}

// RelayRouterTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type RelayRouterTransactorSession struct {
	Contract     *RelayRouterTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts      // Transaction auth options to use throughout this session
}

// RelayRouterRaw is an auto generated low-level Go binding around an Ethereum contract.
type RelayRouterRaw struct {
	Contract *RelayRouter // Generic contract binding to access the raw methods on
}

// RelayRouterCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type RelayRouterCallerRaw struct {
	Contract *RelayRouterCaller // Generic read-only contract binding to access the raw methods on
}

// RelayRouterTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type RelayRouterTransactorRaw struct {
	Contract *RelayRouterTransactor // Generic write-only contract binding to access the raw methods on
}

// NewRelayRouter creates a new instance of RelayRouter, bound to a specific deployed contract.
func NewRelayRouter(address common.Address, backend bind.ContractBackend) (*RelayRouter, error) {
	contract, err := bindRelayRouter(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &RelayRouter{RelayRouterCaller: RelayRouterCaller{contract: contract}, RelayRouterTransactor: RelayRouterTransactor{contract: contract}, RelayRouterFilterer: RelayRouterFilterer{contract: contract}}, nil
}

// NewRelayRouterCaller creates a new read-only instance of RelayRouter, bound to a specific deployed contract.
func NewRelayRouterCaller(address common.Address, caller bind.ContractCaller) (*RelayRouterCaller, error) {
	contract, err := bindRelayRouter(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &RelayRouterCaller{contract: contract}, nil
}

// NewRelayRouterTransactor creates a new write-only instance of RelayRouter, bound to a specific deployed contract.
func NewRelayRouterTransactor(address common.Address, transactor bind.ContractTransactor) (*RelayRouterTransactor, error) {
	contract, err := bindRelayRouter(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &RelayRouterTransactor{contract: contract}, nil
}

// NewRelayRouterFilterer creates a new log filterer instance of RelayRouter, bound to a specific deployed contract.
func NewRelayRouterFilterer(address common.Address, filterer bind.ContractFilterer) (*RelayRouterFilterer, error) {
	contract, err := bindRelayRouter(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &RelayRouterFilterer{contract: contract}, nil
}

// bindRelayRouter binds a generic wrapper to an already deployed contract.
func bindRelayRouter(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := RelayRouterMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_RelayRouter *RelayRouterRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _RelayRouter.Contract.RelayRouterCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_RelayRouter *RelayRouterRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _RelayRouter.Contract.RelayRouterTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_RelayRouter *RelayRouterRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _RelayRouter.Contract.RelayRouterTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_RelayRouter *RelayRouterCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _RelayRouter.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_RelayRouter *RelayRouterTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _RelayRouter.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_RelayRouter *RelayRouterTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _RelayRouter.Contract.contract.Transact(opts, method, params...)
}

// GASLESSORDERTYPEHASH is a free data retrieval call binding the contract method 0x99a12ead.
//
// Solidity: function GASLESS_ORDER_TYPEHASH() view returns(bytes32)
func (_RelayRouter *RelayRouterCaller) GASLESSORDERTYPEHASH(opts *bind.CallOpts) ([32]byte, error) {
	var out []interface{}
	err := _RelayRouter.contract.Call(opts, &out, "GASLESS_ORDER_TYPEHASH")

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// GASLESSORDERTYPEHASH is a free data retrieval call binding the contract method 0x99a12ead.
//
// Solidity: function GASLESS_ORDER_TYPEHASH() view returns(bytes32)
func (_RelayRouter *RelayRouterSession) GASLESSORDERTYPEHASH() ([32]byte, error) {
	return _RelayRouter.Contract.GASLESSORDERTYPEHASH(&_RelayRouter.CallOpts)
}

// GASLESSORDERTYPEHASH is a free data retrieval call binding the contract method 0x99a12ead.
//
// Solidity: function GASLESS_ORDER_TYPEHASH() view returns(bytes32)
func (_RelayRouter *RelayRouterCallerSession) GASLESSORDERTYPEHASH() ([32]byte, error) {
	return _RelayRouter.Contract.GASLESSORDERTYPEHASH(&_RelayRouter.CallOpts)
}

// WITNESSTYPESTRING is a free data retrieval call binding the contract method 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (_RelayRouter *RelayRouterCaller) WITNESSTYPESTRING(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _RelayRouter.contract.Call(opts, &out, "WITNESS_TYPE_STRING")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// WITNESSTYPESTRING is a free data retrieval call binding the contract method 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (_RelayRouter *RelayRouterSession) WITNESSTYPESTRING() (string, error) {
	return _RelayRouter.Contract.WITNESSTYPESTRING(&_RelayRouter.CallOpts)
}

// WITNESSTYPESTRING is a free data retrieval call binding the contract method 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (_RelayRouter *RelayRouterCallerSession) WITNESSTYPESTRING() (string, error) {
	return _RelayRouter.Contract.WITNESSTYPESTRING(&_RelayRouter.CallOpts)
}

// HashGaslessOrder is a free data retrieval call binding the contract method 0x2093d5c7.
//
// Solidity: function hashGaslessOrder((address,address,address,uint256,uint256,address,address,uint256,uint256) order) pure returns(bytes32)
func (_RelayRouter *RelayRouterCaller) HashGaslessOrder(opts *bind.CallOpts, order RelayRouterGaslessOrder) ([32]byte, error) {
	var out []interface{}
	err := _RelayRouter.contract.Call(opts, &out, "hashGaslessOrder", order)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// HashGaslessOrder is a free data retrieval call binding the contract method 0x2093d5c7.
//
// Solidity: function hashGaslessOrder((address,address,address,uint256,uint256,address,address,uint256,uint256) order) pure returns(bytes32)
func (_RelayRouter *RelayRouterSession) HashGaslessOrder(order RelayRouterGaslessOrder) ([32]byte, error) {
	return _RelayRouter.Contract.HashGaslessOrder(&_RelayRouter.CallOpts, order)
}

// HashGaslessOrder is a free data retrieval call binding the contract method 0x2093d5c7.
//
// Solidity: function hashGaslessOrder((address,address,address,uint256,uint256,address,address,uint256,uint256) order) pure returns(bytes32)
func (_RelayRouter *RelayRouterCallerSession) HashGaslessOrder(order RelayRouterGaslessOrder) ([32]byte, error) {
	return _RelayRouter.Contract.HashGaslessOrder(&_RelayRouter.CallOpts, order)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_RelayRouter *RelayRouterCaller) Owner(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _RelayRouter.contract.Call(opts, &out, "owner")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_RelayRouter *RelayRouterSession) Owner() (common.Address, error) {
	return _RelayRouter.Contract.Owner(&_RelayRouter.CallOpts)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_RelayRouter *RelayRouterCallerSession) Owner() (common.Address, error) {
	return _RelayRouter.Contract.Owner(&_RelayRouter.CallOpts)
}

// Permit2 is a free data retrieval call binding the contract method 0x12261ee7.
//
// Solidity: function permit2() view returns(address)
func (_RelayRouter *RelayRouterCaller) Permit2(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _RelayRouter.contract.Call(opts, &out, "permit2")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Permit2 is a free data retrieval call binding the contract method 0x12261ee7.
//
// Solidity: function permit2() view returns(address)
func (_RelayRouter *RelayRouterSession) Permit2() (common.Address, error) {
	return _RelayRouter.Contract.Permit2(&_RelayRouter.CallOpts)
}

// Permit2 is a free data retrieval call binding the contract method 0x12261ee7.
//
// Solidity: function permit2() view returns(address)
func (_RelayRouter *RelayRouterCallerSession) Permit2() (common.Address, error) {
	return _RelayRouter.Contract.Permit2(&_RelayRouter.CallOpts)
}

// Pools is a free data retrieval call binding the contract method 0xa4063dbc.
//
// Solidity: function pools(address pool) view returns(address token0, address token1)
func (_RelayRouter *RelayRouterCaller) Pools(opts *bind.CallOpts, pool common.Address) (struct {
	Token0 common.Address
	Token1 common.Address
}, error) {
	var out []interface{}
	err := _RelayRouter.contract.Call(opts, &out, "pools", pool)

	outstruct := new(struct {
		Token0 common.Address
		Token1 common.Address
	})
	if err != nil {
		return *outstruct, err
	}

	outstruct.Token0 = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.Token1 = *abi.ConvertType(out[1], new(common.Address)).(*common.Address)

	return *outstruct, err

}

// Pools is a free data retrieval call binding the contract method 0xa4063dbc.
//
// Solidity: function pools(address pool) view returns(address token0, address token1)
func (_RelayRouter *RelayRouterSession) Pools(pool common.Address) (struct {
	Token0 common.Address
	Token1 common.Address
}, error) {
	return _RelayRouter.Contract.Pools(&_RelayRouter.CallOpts, pool)
}

// Pools is a free data retrieval call binding the contract method 0xa4063dbc.
//
// Solidity: function pools(address pool) view returns(address token0, address token1)
func (_RelayRouter *RelayRouterCallerSession) Pools(pool common.Address) (struct {
	Token0 common.Address
	Token1 common.Address
}, error) {
	return _RelayRouter.Contract.Pools(&_RelayRouter.CallOpts, pool)
}

// DeregisterPool is a paid mutator transaction binding the contract method 0x7e72c7d7.
//
// Solidity: function deregisterPool(address pool) returns()
func (_RelayRouter *RelayRouterTransactor) DeregisterPool(opts *bind.TransactOpts, pool common.Address) (*types.Transaction, error) {
	return _RelayRouter.contract.Transact(opts, "deregisterPool", pool)
}

// DeregisterPool is a paid mutator transaction binding the contract method 0x7e72c7d7.
//
// Solidity: function deregisterPool(address pool) returns()
func (_RelayRouter *RelayRouterSession) DeregisterPool(pool common.Address) (*types.Transaction, error) {
	return _RelayRouter.Contract.DeregisterPool(&_RelayRouter.TransactOpts, pool)
}

// DeregisterPool is a paid mutator transaction binding the contract method 0x7e72c7d7.
//
// Solidity: function deregisterPool(address pool) returns()
func (_RelayRouter *RelayRouterTransactorSession) DeregisterPool(pool common.Address) (*types.Transaction, error) {
	return _RelayRouter.Contract.DeregisterPool(&_RelayRouter.TransactOpts, pool)
}

// ExecuteGaslessOrder is a paid mutator transaction binding the contract method 0x98b76f0e.
//
// Solidity: function executeGaslessOrder((address,address,address,uint256,uint256,address,address,uint256,uint256) order, bytes signature) returns(uint256 amountOut)
func (_RelayRouter *RelayRouterTransactor) ExecuteGaslessOrder(opts *bind.TransactOpts, order RelayRouterGaslessOrder, signature []byte) (*types.Transaction, error) {
	return _RelayRouter.contract.Transact(opts, "executeGaslessOrder", order, signature)
}

// ExecuteGaslessOrder is a paid mutator transaction binding the contract method 0x98b76f0e.
//
// Solidity: function executeGaslessOrder((address,address,address,uint256,uint256,address,address,uint256,uint256) order, bytes signature) returns(uint256 amountOut)
func (_RelayRouter *RelayRouterSession) ExecuteGaslessOrder(order RelayRouterGaslessOrder, signature []byte) (*types.Transaction, error) {
	return _RelayRouter.Contract.ExecuteGaslessOrder(&_RelayRouter.TransactOpts, order, signature)
}

// ExecuteGaslessOrder is a paid mutator transaction binding the contract method 0x98b76f0e.
//
// Solidity: function executeGaslessOrder((address,address,address,uint256,uint256,address,address,uint256,uint256) order, bytes signature) returns(uint256 amountOut)
func (_RelayRouter *RelayRouterTransactorSession) ExecuteGaslessOrder(order RelayRouterGaslessOrder, signature []byte) (*types.Transaction, error) {
	return _RelayRouter.Contract.ExecuteGaslessOrder(&_RelayRouter.TransactOpts, order, signature)
}

// RegisterPool is a paid mutator transaction binding the contract method 0xabd90846.
//
// Solidity: function registerPool(address pool) returns()
func (_RelayRouter *RelayRouterTransactor) RegisterPool(opts *bind.TransactOpts, pool common.Address) (*types.Transaction, error) {
	return _RelayRouter.contract.Transact(opts, "registerPool", pool)
}

// RegisterPool is a paid mutator transaction binding the contract method 0xabd90846.
//
// Solidity: function registerPool(address pool) returns()
func (_RelayRouter *RelayRouterSession) RegisterPool(pool common.Address) (*types.Transaction, error) {
	return _RelayRouter.Contract.RegisterPool(&_RelayRouter.TransactOpts, pool)
}

// RegisterPool is a paid mutator transaction binding the contract method 0xabd90846.
//
// Solidity: function registerPool(address pool) returns()
func (_RelayRouter *RelayRouterTransactorSession) RegisterPool(pool common.Address) (*types.Transaction, error) {
	return _RelayRouter.Contract.RegisterPool(&_RelayRouter.TransactOpts, pool)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_RelayRouter *RelayRouterTransactor) TransferOwnership(opts *bind.TransactOpts, newOwner common.Address) (*types.Transaction, error) {
	return _RelayRouter.contract.Transact(opts, "transferOwnership", newOwner)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_RelayRouter *RelayRouterSession) TransferOwnership(newOwner common.Address) (*types.Transaction, error) {
	return _RelayRouter.Contract.TransferOwnership(&_RelayRouter.TransactOpts, newOwner)
}

// TransferOwnership is a paid mutator transaction binding the contract method 0xf2fde38b.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (_RelayRouter *RelayRouterTransactorSession) TransferOwnership(newOwner common.Address) (*types.Transaction, error) {
	return _RelayRouter.Contract.TransferOwnership(&_RelayRouter.TransactOpts, newOwner)
}

// RelayRouterGaslessOrderExecutedIterator is returned from FilterGaslessOrderExecuted and is used to iterate over the raw logs and unpacked data for GaslessOrderExecuted events raised by the RelayRouter contract.
type RelayRouterGaslessOrderExecutedIterator struct {
	Event *RelayRouterGaslessOrderExecuted // Event containing the contract specifics and raw log

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
func (it *RelayRouterGaslessOrderExecutedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RelayRouterGaslessOrderExecuted)
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
		it.Event = new(RelayRouterGaslessOrderExecuted)
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
func (it *RelayRouterGaslessOrderExecutedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RelayRouterGaslessOrderExecutedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RelayRouterGaslessOrderExecuted represents a GaslessOrderExecuted event raised by the RelayRouter contract.
type RelayRouterGaslessOrderExecuted struct {
	OrderHash [32]byte
	Signer    common.Address
	TokenIn   common.Address
	TokenOut  common.Address
	AmountIn  *big.Int
	AmountOut *big.Int
	Recipient common.Address
	Nonce     *big.Int
	Raw       types.Log // Blockchain specific contextual infos
}

// FilterGaslessOrderExecuted is a free log retrieval operation binding the contract event 0x27583eebd33eb37e6b57208a12a7c067fa0006a9065a8f2ba688aec46c07e635.
//
// Solidity: event GaslessOrderExecuted(bytes32 indexed orderHash, address indexed signer, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut, address recipient, uint256 nonce)
func (_RelayRouter *RelayRouterFilterer) FilterGaslessOrderExecuted(opts *bind.FilterOpts, orderHash [][32]byte, signer []common.Address) (*RelayRouterGaslessOrderExecutedIterator, error) {

	var orderHashRule []interface{}
	for _, orderHashItem := range orderHash {
		orderHashRule = append(orderHashRule, orderHashItem)
	}
	var signerRule []interface{}
	for _, signerItem := range signer {
		signerRule = append(signerRule, signerItem)
	}

	logs, sub, err := _RelayRouter.contract.FilterLogs(opts, "GaslessOrderExecuted", orderHashRule, signerRule)
	if err != nil {
		return nil, err
	}
	return &RelayRouterGaslessOrderExecutedIterator{contract: _RelayRouter.contract, event: "GaslessOrderExecuted", logs: logs, sub: sub}, nil
}

// WatchGaslessOrderExecuted is a free log subscription operation binding the contract event 0x27583eebd33eb37e6b57208a12a7c067fa0006a9065a8f2ba688aec46c07e635.
//
// Solidity: event GaslessOrderExecuted(bytes32 indexed orderHash, address indexed signer, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut, address recipient, uint256 nonce)
func (_RelayRouter *RelayRouterFilterer) WatchGaslessOrderExecuted(opts *bind.WatchOpts, sink chan<- *RelayRouterGaslessOrderExecuted, orderHash [][32]byte, signer []common.Address) (event.Subscription, error) {

	var orderHashRule []interface{}
	for _, orderHashItem := range orderHash {
		orderHashRule = append(orderHashRule, orderHashItem)
	}
	var signerRule []interface{}
	for _, signerItem := range signer {
		signerRule = append(signerRule, signerItem)
	}

	logs, sub, err := _RelayRouter.contract.WatchLogs(opts, "GaslessOrderExecuted", orderHashRule, signerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RelayRouterGaslessOrderExecuted)
				if err := _RelayRouter.contract.UnpackLog(event, "GaslessOrderExecuted", log); err != nil {
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

// ParseGaslessOrderExecuted is a log parse operation binding the contract event 0x27583eebd33eb37e6b57208a12a7c067fa0006a9065a8f2ba688aec46c07e635.
//
// Solidity: event GaslessOrderExecuted(bytes32 indexed orderHash, address indexed signer, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut, address recipient, uint256 nonce)
func (_RelayRouter *RelayRouterFilterer) ParseGaslessOrderExecuted(log types.Log) (*RelayRouterGaslessOrderExecuted, error) {
	event := new(RelayRouterGaslessOrderExecuted)
	if err := _RelayRouter.contract.UnpackLog(event, "GaslessOrderExecuted", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RelayRouterOwnershipTransferredIterator is returned from FilterOwnershipTransferred and is used to iterate over the raw logs and unpacked data for OwnershipTransferred events raised by the RelayRouter contract.
type RelayRouterOwnershipTransferredIterator struct {
	Event *RelayRouterOwnershipTransferred // Event containing the contract specifics and raw log

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
func (it *RelayRouterOwnershipTransferredIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RelayRouterOwnershipTransferred)
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
		it.Event = new(RelayRouterOwnershipTransferred)
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
func (it *RelayRouterOwnershipTransferredIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RelayRouterOwnershipTransferredIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RelayRouterOwnershipTransferred represents a OwnershipTransferred event raised by the RelayRouter contract.
type RelayRouterOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           types.Log // Blockchain specific contextual infos
}

// FilterOwnershipTransferred is a free log retrieval operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_RelayRouter *RelayRouterFilterer) FilterOwnershipTransferred(opts *bind.FilterOpts, previousOwner []common.Address, newOwner []common.Address) (*RelayRouterOwnershipTransferredIterator, error) {

	var previousOwnerRule []interface{}
	for _, previousOwnerItem := range previousOwner {
		previousOwnerRule = append(previousOwnerRule, previousOwnerItem)
	}
	var newOwnerRule []interface{}
	for _, newOwnerItem := range newOwner {
		newOwnerRule = append(newOwnerRule, newOwnerItem)
	}

	logs, sub, err := _RelayRouter.contract.FilterLogs(opts, "OwnershipTransferred", previousOwnerRule, newOwnerRule)
	if err != nil {
		return nil, err
	}
	return &RelayRouterOwnershipTransferredIterator{contract: _RelayRouter.contract, event: "OwnershipTransferred", logs: logs, sub: sub}, nil
}

// WatchOwnershipTransferred is a free log subscription operation binding the contract event 0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (_RelayRouter *RelayRouterFilterer) WatchOwnershipTransferred(opts *bind.WatchOpts, sink chan<- *RelayRouterOwnershipTransferred, previousOwner []common.Address, newOwner []common.Address) (event.Subscription, error) {

	var previousOwnerRule []interface{}
	for _, previousOwnerItem := range previousOwner {
		previousOwnerRule = append(previousOwnerRule, previousOwnerItem)
	}
	var newOwnerRule []interface{}
	for _, newOwnerItem := range newOwner {
		newOwnerRule = append(newOwnerRule, newOwnerItem)
	}

	logs, sub, err := _RelayRouter.contract.WatchLogs(opts, "OwnershipTransferred", previousOwnerRule, newOwnerRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RelayRouterOwnershipTransferred)
				if err := _RelayRouter.contract.UnpackLog(event, "OwnershipTransferred", log); err != nil {
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
func (_RelayRouter *RelayRouterFilterer) ParseOwnershipTransferred(log types.Log) (*RelayRouterOwnershipTransferred, error) {
	event := new(RelayRouterOwnershipTransferred)
	if err := _RelayRouter.contract.UnpackLog(event, "OwnershipTransferred", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RelayRouterPoolDeregisteredIterator is returned from FilterPoolDeregistered and is used to iterate over the raw logs and unpacked data for PoolDeregistered events raised by the RelayRouter contract.
type RelayRouterPoolDeregisteredIterator struct {
	Event *RelayRouterPoolDeregistered // Event containing the contract specifics and raw log

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
func (it *RelayRouterPoolDeregisteredIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RelayRouterPoolDeregistered)
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
		it.Event = new(RelayRouterPoolDeregistered)
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
func (it *RelayRouterPoolDeregisteredIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RelayRouterPoolDeregisteredIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RelayRouterPoolDeregistered represents a PoolDeregistered event raised by the RelayRouter contract.
type RelayRouterPoolDeregistered struct {
	Pool common.Address
	Raw  types.Log // Blockchain specific contextual infos
}

// FilterPoolDeregistered is a free log retrieval operation binding the contract event 0x334d0b2111287dfddebe4b4c1c5af3ae644909d7fcd024377bf601e236ed5abb.
//
// Solidity: event PoolDeregistered(address indexed pool)
func (_RelayRouter *RelayRouterFilterer) FilterPoolDeregistered(opts *bind.FilterOpts, pool []common.Address) (*RelayRouterPoolDeregisteredIterator, error) {

	var poolRule []interface{}
	for _, poolItem := range pool {
		poolRule = append(poolRule, poolItem)
	}

	logs, sub, err := _RelayRouter.contract.FilterLogs(opts, "PoolDeregistered", poolRule)
	if err != nil {
		return nil, err
	}
	return &RelayRouterPoolDeregisteredIterator{contract: _RelayRouter.contract, event: "PoolDeregistered", logs: logs, sub: sub}, nil
}

// WatchPoolDeregistered is a free log subscription operation binding the contract event 0x334d0b2111287dfddebe4b4c1c5af3ae644909d7fcd024377bf601e236ed5abb.
//
// Solidity: event PoolDeregistered(address indexed pool)
func (_RelayRouter *RelayRouterFilterer) WatchPoolDeregistered(opts *bind.WatchOpts, sink chan<- *RelayRouterPoolDeregistered, pool []common.Address) (event.Subscription, error) {

	var poolRule []interface{}
	for _, poolItem := range pool {
		poolRule = append(poolRule, poolItem)
	}

	logs, sub, err := _RelayRouter.contract.WatchLogs(opts, "PoolDeregistered", poolRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RelayRouterPoolDeregistered)
				if err := _RelayRouter.contract.UnpackLog(event, "PoolDeregistered", log); err != nil {
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

// ParsePoolDeregistered is a log parse operation binding the contract event 0x334d0b2111287dfddebe4b4c1c5af3ae644909d7fcd024377bf601e236ed5abb.
//
// Solidity: event PoolDeregistered(address indexed pool)
func (_RelayRouter *RelayRouterFilterer) ParsePoolDeregistered(log types.Log) (*RelayRouterPoolDeregistered, error) {
	event := new(RelayRouterPoolDeregistered)
	if err := _RelayRouter.contract.UnpackLog(event, "PoolDeregistered", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// RelayRouterPoolRegisteredIterator is returned from FilterPoolRegistered and is used to iterate over the raw logs and unpacked data for PoolRegistered events raised by the RelayRouter contract.
type RelayRouterPoolRegisteredIterator struct {
	Event *RelayRouterPoolRegistered // Event containing the contract specifics and raw log

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
func (it *RelayRouterPoolRegisteredIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(RelayRouterPoolRegistered)
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
		it.Event = new(RelayRouterPoolRegistered)
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
func (it *RelayRouterPoolRegisteredIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *RelayRouterPoolRegisteredIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// RelayRouterPoolRegistered represents a PoolRegistered event raised by the RelayRouter contract.
type RelayRouterPoolRegistered struct {
	Pool   common.Address
	Token0 common.Address
	Token1 common.Address
	Raw    types.Log // Blockchain specific contextual infos
}

// FilterPoolRegistered is a free log retrieval operation binding the contract event 0x61afef2e121f71511fab2583c5ac49a5dc1d7a8ad8ad91c44c8465f073a73ac4.
//
// Solidity: event PoolRegistered(address indexed pool, address token0, address token1)
func (_RelayRouter *RelayRouterFilterer) FilterPoolRegistered(opts *bind.FilterOpts, pool []common.Address) (*RelayRouterPoolRegisteredIterator, error) {

	var poolRule []interface{}
	for _, poolItem := range pool {
		poolRule = append(poolRule, poolItem)
	}

	logs, sub, err := _RelayRouter.contract.FilterLogs(opts, "PoolRegistered", poolRule)
	if err != nil {
		return nil, err
	}
	return &RelayRouterPoolRegisteredIterator{contract: _RelayRouter.contract, event: "PoolRegistered", logs: logs, sub: sub}, nil
}

// WatchPoolRegistered is a free log subscription operation binding the contract event 0x61afef2e121f71511fab2583c5ac49a5dc1d7a8ad8ad91c44c8465f073a73ac4.
//
// Solidity: event PoolRegistered(address indexed pool, address token0, address token1)
func (_RelayRouter *RelayRouterFilterer) WatchPoolRegistered(opts *bind.WatchOpts, sink chan<- *RelayRouterPoolRegistered, pool []common.Address) (event.Subscription, error) {

	var poolRule []interface{}
	for _, poolItem := range pool {
		poolRule = append(poolRule, poolItem)
	}

	logs, sub, err := _RelayRouter.contract.WatchLogs(opts, "PoolRegistered", poolRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(RelayRouterPoolRegistered)
				if err := _RelayRouter.contract.UnpackLog(event, "PoolRegistered", log); err != nil {
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

// ParsePoolRegistered is a log parse operation binding the contract event 0x61afef2e121f71511fab2583c5ac49a5dc1d7a8ad8ad91c44c8465f073a73ac4.
//
// Solidity: event PoolRegistered(address indexed pool, address token0, address token1)
func (_RelayRouter *RelayRouterFilterer) ParsePoolRegistered(log types.Log) (*RelayRouterPoolRegistered, error) {
	event := new(RelayRouterPoolRegistered)
	if err := _RelayRouter.contract.UnpackLog(event, "PoolRegistered", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
