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

// PaymentLinkFactoryMetaData contains all meta data concerning the PaymentLinkFactory contract.
var PaymentLinkFactoryMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"ZeroPayout\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"forwarder\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"payout\",\"type\":\"address\"}],\"name\":\"ForwarderDeployed\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"payout\",\"type\":\"address\"}],\"name\":\"deploy\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"forwarder\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"payout\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"forward\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"payout\",\"type\":\"address\"}],\"name\":\"forwarderAddress\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	Bin: "0x6080604052348015600e575f5ffd5b5061082b8061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80633211f5d1146100435780638c1fb93114610073578063c8d4e2f114610086575b5f5ffd5b6100566100513660046102d9565b6100a7565b6040516001600160a01b0390911681526020015b60405180910390f35b6100566100813660046102d9565b610191565b610099610094366004610303565b610233565b60405190815260200161006a565b5f6001600160a01b0382166100cf57604051635788801b60e11b815260040160405180910390fd5b5f604051806020016100e0906102b1565b601f1982820381018352601f9091011660408181526001600160a01b03861660208301520160408051601f19818403018152908290526101239291602001610353565b60408051601f1981840301815282825280516020918201206001600160f81b0319828501523060601b6bffffffffffffffffffffffff191660218501526035840188905260558085019190915282518085039091018152607590930190915281519101209150505b92915050565b5f61019c83836100a7565b9050806001600160a01b03163b5f0361018b5782826040516101bd906102b1565b6001600160a01b0390911681526020018190604051809103905ff59050801580156101ea573d5f5f3e3d5ffd5b5050816001600160a01b0316816001600160a01b0316847fc0a536fc19f321e40e80c2fd0b68c819d4ad2ba802eea4a2ec327689129bb31c60405160405180910390a492915050565b5f61023e8484610191565b60405163080f44a960e11b81526001600160a01b038481166004830152919091169063101e8952906024016020604051808303815f875af1158015610285573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906102a99190610367565b949350505050565b6104778061037f83390190565b80356001600160a01b03811681146102d4575f5ffd5b919050565b5f5f604083850312156102ea575f5ffd5b823591506102fa602084016102be565b90509250929050565b5f5f5f60608486031215610315575f5ffd5b83359250610325602085016102be565b9150610333604085016102be565b90509250925092565b5f81518060208401855e5f93019283525090919050565b5f6102a9610361838661033c565b8461033c565b5f60208284031215610377575f5ffd5b505191905056fe60a060405234801561000f575f5ffd5b5060405161047738038061047783398101604081905261002e91610066565b6001600160a01b03811661005557604051635788801b60e11b815260040160405180910390fd5b6001600160a01b0316608052610093565b5f60208284031215610076575f5ffd5b81516001600160a01b038116811461008c575f5ffd5b9392505050565b6080516103bf6100b85f395f8181606301528181610124015261014b01526103bf5ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c8063101e89521461003857806363bd1d4a1461005e575b5f5ffd5b61004b610046366004610309565b61009d565b6040519081526020015b60405180910390f35b6100857f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610055565b6040516370a0823160e01b81523060048201525f906001600160a01b038316906370a0823190602401602060405180830381865afa1580156100e1573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906101059190610336565b9050805f0361011557505f919050565b6101496001600160a01b0383167f0000000000000000000000000000000000000000000000000000000000000000836101bb565b7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b03167f0571d85fc9cce8d2ebf18e983becef6cc884e37503f377f9b6383d65850f96d2836040516101ae91815260200190565b60405180910390a3919050565b6040516001600160a01b03831660248201526044810182905261020c90849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b179052610211565b505050565b816001600160a01b03163b5f0361024b5760405163d0b1b2a760e01b81526001600160a01b03831660048201526024015b60405180910390fd5b5f5f836001600160a01b031683604051610265919061034d565b5f604051808303815f865af19150503d805f811461029e576040519150601f19603f3d011682016040523d82523d5f602084013e6102a3565b606091505b5091509150816102b557805160208201fd5b8051158015906102da5750805160201415806102da57506102d581610363565b600114155b1561030357604051632b596cb760e01b81526001600160a01b0385166004820152602401610242565b50505050565b5f60208284031215610319575f5ffd5b81356001600160a01b038116811461032f575f5ffd5b9392505050565b5f60208284031215610346575f5ffd5b5051919050565b5f82518060208501845e5f920191825250919050565b80516020808301519190811015610383575f198160200360031b1b821691505b5091905056fea2646970667358221220aeba9c3e40814af73d627d976561c26f58e37bbc4d894dfd736acc877523905364736f6c634300081c0033a26469706673582212208275821a09352662cd26baa09968ea12f7a9a010cb421438654bf38c39ab834864736f6c634300081c0033",
}

// PaymentLinkFactoryABI is the input ABI used to generate the binding from.
// Deprecated: Use PaymentLinkFactoryMetaData.ABI instead.
var PaymentLinkFactoryABI = PaymentLinkFactoryMetaData.ABI

// PaymentLinkFactoryBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use PaymentLinkFactoryMetaData.Bin instead.
var PaymentLinkFactoryBin = PaymentLinkFactoryMetaData.Bin

// DeployPaymentLinkFactory deploys a new Ethereum contract, binding an instance of PaymentLinkFactory to it.
func DeployPaymentLinkFactory(auth *bind.TransactOpts, backend bind.ContractBackend) (common.Address, *types.Transaction, *PaymentLinkFactory, error) {
	parsed, err := PaymentLinkFactoryMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(PaymentLinkFactoryBin), backend)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &PaymentLinkFactory{PaymentLinkFactoryCaller: PaymentLinkFactoryCaller{contract: contract}, PaymentLinkFactoryTransactor: PaymentLinkFactoryTransactor{contract: contract}, PaymentLinkFactoryFilterer: PaymentLinkFactoryFilterer{contract: contract}}, nil
}

// PaymentLinkFactory is an auto generated Go binding around an Ethereum contract.
type PaymentLinkFactory struct {
	PaymentLinkFactoryCaller     // Read-only binding to the contract
	PaymentLinkFactoryTransactor // Write-only binding to the contract
	PaymentLinkFactoryFilterer   // Log filterer for contract events
}

// PaymentLinkFactoryCaller is an auto generated read-only Go binding around an Ethereum contract.
type PaymentLinkFactoryCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// PaymentLinkFactoryTransactor is an auto generated write-only Go binding around an Ethereum contract.
type PaymentLinkFactoryTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// PaymentLinkFactoryFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type PaymentLinkFactoryFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// PaymentLinkFactorySession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type PaymentLinkFactorySession struct {
	Contract     *PaymentLinkFactory // Generic contract binding to set the session for
	CallOpts     bind.CallOpts       // Call options to use throughout this session
	TransactOpts bind.TransactOpts   // Transaction auth options to use throughout this session
}

// PaymentLinkFactoryCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type PaymentLinkFactoryCallerSession struct {
	Contract *PaymentLinkFactoryCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts             // Call options to use throughout this session
}

// PaymentLinkFactoryTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type PaymentLinkFactoryTransactorSession struct {
	Contract     *PaymentLinkFactoryTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts             // Transaction auth options to use throughout this session
}

// PaymentLinkFactoryRaw is an auto generated low-level Go binding around an Ethereum contract.
type PaymentLinkFactoryRaw struct {
	Contract *PaymentLinkFactory // Generic contract binding to access the raw methods on
}

// PaymentLinkFactoryCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type PaymentLinkFactoryCallerRaw struct {
	Contract *PaymentLinkFactoryCaller // Generic read-only contract binding to access the raw methods on
}

// PaymentLinkFactoryTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type PaymentLinkFactoryTransactorRaw struct {
	Contract *PaymentLinkFactoryTransactor // Generic write-only contract binding to access the raw methods on
}

// NewPaymentLinkFactory creates a new instance of PaymentLinkFactory, bound to a specific deployed contract.
func NewPaymentLinkFactory(address common.Address, backend bind.ContractBackend) (*PaymentLinkFactory, error) {
	contract, err := bindPaymentLinkFactory(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &PaymentLinkFactory{PaymentLinkFactoryCaller: PaymentLinkFactoryCaller{contract: contract}, PaymentLinkFactoryTransactor: PaymentLinkFactoryTransactor{contract: contract}, PaymentLinkFactoryFilterer: PaymentLinkFactoryFilterer{contract: contract}}, nil
}

// NewPaymentLinkFactoryCaller creates a new read-only instance of PaymentLinkFactory, bound to a specific deployed contract.
func NewPaymentLinkFactoryCaller(address common.Address, caller bind.ContractCaller) (*PaymentLinkFactoryCaller, error) {
	contract, err := bindPaymentLinkFactory(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &PaymentLinkFactoryCaller{contract: contract}, nil
}

// NewPaymentLinkFactoryTransactor creates a new write-only instance of PaymentLinkFactory, bound to a specific deployed contract.
func NewPaymentLinkFactoryTransactor(address common.Address, transactor bind.ContractTransactor) (*PaymentLinkFactoryTransactor, error) {
	contract, err := bindPaymentLinkFactory(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &PaymentLinkFactoryTransactor{contract: contract}, nil
}

// NewPaymentLinkFactoryFilterer creates a new log filterer instance of PaymentLinkFactory, bound to a specific deployed contract.
func NewPaymentLinkFactoryFilterer(address common.Address, filterer bind.ContractFilterer) (*PaymentLinkFactoryFilterer, error) {
	contract, err := bindPaymentLinkFactory(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &PaymentLinkFactoryFilterer{contract: contract}, nil
}

// bindPaymentLinkFactory binds a generic wrapper to an already deployed contract.
func bindPaymentLinkFactory(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := PaymentLinkFactoryMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_PaymentLinkFactory *PaymentLinkFactoryRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _PaymentLinkFactory.Contract.PaymentLinkFactoryCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_PaymentLinkFactory *PaymentLinkFactoryRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.PaymentLinkFactoryTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_PaymentLinkFactory *PaymentLinkFactoryRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.PaymentLinkFactoryTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_PaymentLinkFactory *PaymentLinkFactoryCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _PaymentLinkFactory.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_PaymentLinkFactory *PaymentLinkFactoryTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_PaymentLinkFactory *PaymentLinkFactoryTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.contract.Transact(opts, method, params...)
}

// ForwarderAddress is a free data retrieval call binding the contract method 0x3211f5d1.
//
// Solidity: function forwarderAddress(bytes32 salt, address payout) view returns(address)
func (_PaymentLinkFactory *PaymentLinkFactoryCaller) ForwarderAddress(opts *bind.CallOpts, salt [32]byte, payout common.Address) (common.Address, error) {
	var out []interface{}
	err := _PaymentLinkFactory.contract.Call(opts, &out, "forwarderAddress", salt, payout)

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// ForwarderAddress is a free data retrieval call binding the contract method 0x3211f5d1.
//
// Solidity: function forwarderAddress(bytes32 salt, address payout) view returns(address)
func (_PaymentLinkFactory *PaymentLinkFactorySession) ForwarderAddress(salt [32]byte, payout common.Address) (common.Address, error) {
	return _PaymentLinkFactory.Contract.ForwarderAddress(&_PaymentLinkFactory.CallOpts, salt, payout)
}

// ForwarderAddress is a free data retrieval call binding the contract method 0x3211f5d1.
//
// Solidity: function forwarderAddress(bytes32 salt, address payout) view returns(address)
func (_PaymentLinkFactory *PaymentLinkFactoryCallerSession) ForwarderAddress(salt [32]byte, payout common.Address) (common.Address, error) {
	return _PaymentLinkFactory.Contract.ForwarderAddress(&_PaymentLinkFactory.CallOpts, salt, payout)
}

// Deploy is a paid mutator transaction binding the contract method 0x8c1fb931.
//
// Solidity: function deploy(bytes32 salt, address payout) returns(address forwarder)
func (_PaymentLinkFactory *PaymentLinkFactoryTransactor) Deploy(opts *bind.TransactOpts, salt [32]byte, payout common.Address) (*types.Transaction, error) {
	return _PaymentLinkFactory.contract.Transact(opts, "deploy", salt, payout)
}

// Deploy is a paid mutator transaction binding the contract method 0x8c1fb931.
//
// Solidity: function deploy(bytes32 salt, address payout) returns(address forwarder)
func (_PaymentLinkFactory *PaymentLinkFactorySession) Deploy(salt [32]byte, payout common.Address) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.Deploy(&_PaymentLinkFactory.TransactOpts, salt, payout)
}

// Deploy is a paid mutator transaction binding the contract method 0x8c1fb931.
//
// Solidity: function deploy(bytes32 salt, address payout) returns(address forwarder)
func (_PaymentLinkFactory *PaymentLinkFactoryTransactorSession) Deploy(salt [32]byte, payout common.Address) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.Deploy(&_PaymentLinkFactory.TransactOpts, salt, payout)
}

// Forward is a paid mutator transaction binding the contract method 0xc8d4e2f1.
//
// Solidity: function forward(bytes32 salt, address payout, address token) returns(uint256 amount)
func (_PaymentLinkFactory *PaymentLinkFactoryTransactor) Forward(opts *bind.TransactOpts, salt [32]byte, payout common.Address, token common.Address) (*types.Transaction, error) {
	return _PaymentLinkFactory.contract.Transact(opts, "forward", salt, payout, token)
}

// Forward is a paid mutator transaction binding the contract method 0xc8d4e2f1.
//
// Solidity: function forward(bytes32 salt, address payout, address token) returns(uint256 amount)
func (_PaymentLinkFactory *PaymentLinkFactorySession) Forward(salt [32]byte, payout common.Address, token common.Address) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.Forward(&_PaymentLinkFactory.TransactOpts, salt, payout, token)
}

// Forward is a paid mutator transaction binding the contract method 0xc8d4e2f1.
//
// Solidity: function forward(bytes32 salt, address payout, address token) returns(uint256 amount)
func (_PaymentLinkFactory *PaymentLinkFactoryTransactorSession) Forward(salt [32]byte, payout common.Address, token common.Address) (*types.Transaction, error) {
	return _PaymentLinkFactory.Contract.Forward(&_PaymentLinkFactory.TransactOpts, salt, payout, token)
}

// PaymentLinkFactoryForwarderDeployedIterator is returned from FilterForwarderDeployed and is used to iterate over the raw logs and unpacked data for ForwarderDeployed events raised by the PaymentLinkFactory contract.
type PaymentLinkFactoryForwarderDeployedIterator struct {
	Event *PaymentLinkFactoryForwarderDeployed // Event containing the contract specifics and raw log

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
func (it *PaymentLinkFactoryForwarderDeployedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(PaymentLinkFactoryForwarderDeployed)
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
		it.Event = new(PaymentLinkFactoryForwarderDeployed)
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
func (it *PaymentLinkFactoryForwarderDeployedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *PaymentLinkFactoryForwarderDeployedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// PaymentLinkFactoryForwarderDeployed represents a ForwarderDeployed event raised by the PaymentLinkFactory contract.
type PaymentLinkFactoryForwarderDeployed struct {
	Salt      [32]byte
	Forwarder common.Address
	Payout    common.Address
	Raw       types.Log // Blockchain specific contextual infos
}

// FilterForwarderDeployed is a free log retrieval operation binding the contract event 0xc0a536fc19f321e40e80c2fd0b68c819d4ad2ba802eea4a2ec327689129bb31c.
//
// Solidity: event ForwarderDeployed(bytes32 indexed salt, address indexed forwarder, address indexed payout)
func (_PaymentLinkFactory *PaymentLinkFactoryFilterer) FilterForwarderDeployed(opts *bind.FilterOpts, salt [][32]byte, forwarder []common.Address, payout []common.Address) (*PaymentLinkFactoryForwarderDeployedIterator, error) {

	var saltRule []interface{}
	for _, saltItem := range salt {
		saltRule = append(saltRule, saltItem)
	}
	var forwarderRule []interface{}
	for _, forwarderItem := range forwarder {
		forwarderRule = append(forwarderRule, forwarderItem)
	}
	var payoutRule []interface{}
	for _, payoutItem := range payout {
		payoutRule = append(payoutRule, payoutItem)
	}

	logs, sub, err := _PaymentLinkFactory.contract.FilterLogs(opts, "ForwarderDeployed", saltRule, forwarderRule, payoutRule)
	if err != nil {
		return nil, err
	}
	return &PaymentLinkFactoryForwarderDeployedIterator{contract: _PaymentLinkFactory.contract, event: "ForwarderDeployed", logs: logs, sub: sub}, nil
}

// WatchForwarderDeployed is a free log subscription operation binding the contract event 0xc0a536fc19f321e40e80c2fd0b68c819d4ad2ba802eea4a2ec327689129bb31c.
//
// Solidity: event ForwarderDeployed(bytes32 indexed salt, address indexed forwarder, address indexed payout)
func (_PaymentLinkFactory *PaymentLinkFactoryFilterer) WatchForwarderDeployed(opts *bind.WatchOpts, sink chan<- *PaymentLinkFactoryForwarderDeployed, salt [][32]byte, forwarder []common.Address, payout []common.Address) (event.Subscription, error) {

	var saltRule []interface{}
	for _, saltItem := range salt {
		saltRule = append(saltRule, saltItem)
	}
	var forwarderRule []interface{}
	for _, forwarderItem := range forwarder {
		forwarderRule = append(forwarderRule, forwarderItem)
	}
	var payoutRule []interface{}
	for _, payoutItem := range payout {
		payoutRule = append(payoutRule, payoutItem)
	}

	logs, sub, err := _PaymentLinkFactory.contract.WatchLogs(opts, "ForwarderDeployed", saltRule, forwarderRule, payoutRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(PaymentLinkFactoryForwarderDeployed)
				if err := _PaymentLinkFactory.contract.UnpackLog(event, "ForwarderDeployed", log); err != nil {
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

// ParseForwarderDeployed is a log parse operation binding the contract event 0xc0a536fc19f321e40e80c2fd0b68c819d4ad2ba802eea4a2ec327689129bb31c.
//
// Solidity: event ForwarderDeployed(bytes32 indexed salt, address indexed forwarder, address indexed payout)
func (_PaymentLinkFactory *PaymentLinkFactoryFilterer) ParseForwarderDeployed(log types.Log) (*PaymentLinkFactoryForwarderDeployed, error) {
	event := new(PaymentLinkFactoryForwarderDeployed)
	if err := _PaymentLinkFactory.contract.UnpackLog(event, "ForwarderDeployed", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
