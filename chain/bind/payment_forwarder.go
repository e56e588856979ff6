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

// PaymentForwarderMetaData contains all meta data concerning the PaymentForwarder contract.
var PaymentForwarderMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"payout_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenHasNoCode\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroPayout\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"payout\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Forwarded\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"forward\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"payout\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	Bin: "0x60a060405234801561000f575f5ffd5b5060405161047738038061047783398101604081905261002e91610066565b6001600160a01b03811661005557604051635788801b60e11b815260040160405180910390fd5b6001600160a01b0316608052610093565b5f60208284031215610076575f5ffd5b81516001600160a01b038116811461008c575f5ffd5b9392505050565b6080516103bf6100b85f395f8181606301528181610124015261014b01526103bf5ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c8063101e89521461003857806363bd1d4a1461005e575b5f5ffd5b61004b610046366004610309565b61009d565b6040519081526020015b60405180910390f35b6100857f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610055565b6040516370a0823160e01b81523060048201525f906001600160a01b038316906370a0823190602401602060405180830381865afa1580156100e1573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906101059190610336565b9050805f0361011557505f919050565b6101496001600160a01b0383167f0000000000000000000000000000000000000000000000000000000000000000836101bb565b7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b03167f0571d85fc9cce8d2ebf18e983becef6cc884e37503f377f9b6383d65850f96d2836040516101ae91815260200190565b60405180910390a3919050565b6040516001600160a01b03831660248201526044810182905261020c90849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b179052610211565b505050565b816001600160a01b03163b5f0361024b5760405163d0b1b2a760e01b81526001600160a01b03831660048201526024015b60405180910390fd5b5f5f836001600160a01b031683604051610265919061034d565b5f604051808303815f865af19150503d805f811461029e576040519150601f19603f3d011682016040523d82523d5f602084013e6102a3565b606091505b5091509150816102b557805160208201fd5b8051158015906102da5750805160201415806102da57506102d581610363565b600114155b1561030357604051632b596cb760e01b81526001600160a01b0385166004820152602401610242565b50505050565b5f60208284031215610319575f5ffd5b81356001600160a01b038116811461032f575f5ffd5b9392505050565b5f60208284031215610346575f5ffd5b5051919050565b5f82518060208501845e5f920191825250919050565b80516020808301519190811015610383575f198160200360031b1b821691505b5091905056fea2646970667358221220aeba9c3e40814af73d627d976561c26f58e37bbc4d894dfd736acc877523905364736f6c634300081c0033",
}

// PaymentForwarderABI is the input ABI used to generate the binding from.
// Deprecated: Use PaymentForwarderMetaData.ABI instead.
var PaymentForwarderABI = PaymentForwarderMetaData.ABI

// PaymentForwarderBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use PaymentForwarderMetaData.Bin instead.
var PaymentForwarderBin = PaymentForwarderMetaData.Bin

// DeployPaymentForwarder deploys a new Ethereum contract, binding an instance of PaymentForwarder to it.
func DeployPaymentForwarder(auth *bind.TransactOpts, backend bind.ContractBackend, payout_ common.Address) (common.Address, *types.Transaction, *PaymentForwarder, error) {
	parsed, err := PaymentForwarderMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(PaymentForwarderBin), backend, payout_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &PaymentForwarder{PaymentForwarderCaller: PaymentForwarderCaller{contract: contract}, PaymentForwarderTransactor: PaymentForwarderTransactor{contract: contract}, PaymentForwarderFilterer: PaymentForwarderFilterer{contract: contract}}, nil
}

// PaymentForwarder is an auto generated Go binding around an Ethereum contract.
type PaymentForwarder struct {
	PaymentForwarderCaller     // Read-only binding to the contract
	PaymentForwarderTransactor // Write-only binding to the contract
	PaymentForwarderFilterer   // Log filterer for contract events
}

// PaymentForwarderCaller is an auto generated read-only Go binding around an Ethereum contract.
type PaymentForwarderCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// PaymentForwarderTransactor is an auto generated write-only Go binding around an Ethereum contract.
type PaymentForwarderTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// PaymentForwarderFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type PaymentForwarderFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// PaymentForwarderSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type PaymentForwarderSession struct {
	Contract     *PaymentForwarder // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// PaymentForwarderCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type PaymentForwarderCallerSession struct {
	Contract *PaymentForwarderCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts           // Call options to use throughout this session
}

// PaymentForwarderTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type PaymentForwarderTransactorSession struct {
	Contract     *PaymentForwarderTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts           // Transaction auth options to use throughout this session
}

// PaymentForwarderRaw is an auto generated low-level Go binding around an Ethereum contract.
type PaymentForwarderRaw struct {
	Contract *PaymentForwarder // Generic contract binding to access the raw methods on
}

// PaymentForwarderCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type PaymentForwarderCallerRaw struct {
	Contract *PaymentForwarderCaller // Generic read-only contract binding to access the raw methods on
}

// PaymentForwarderTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type PaymentForwarderTransactorRaw struct {
	Contract *PaymentForwarderTransactor // Generic write-only contract binding to access the raw methods on
}

// NewPaymentForwarder creates a new instance of PaymentForwarder, bound to a specific deployed contract.
func NewPaymentForwarder(address common.Address, backend bind.ContractBackend) (*PaymentForwarder, error) {
	contract, err := bindPaymentForwarder(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &PaymentForwarder{PaymentForwarderCaller: PaymentForwarderCaller{contract: contract}, PaymentForwarderTransactor: PaymentForwarderTransactor{contract: contract}, PaymentForwarderFilterer: PaymentForwarderFilterer{contract: contract}}, nil
}

// NewPaymentForwarderCaller creates a new read-only instance of PaymentForwarder, bound to a specific deployed contract.
func NewPaymentForwarderCaller(address common.Address, caller bind.ContractCaller) (*PaymentForwarderCaller, error) {
	contract, err := bindPaymentForwarder(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &PaymentForwarderCaller{contract: contract}, nil
}

// NewPaymentForwarderTransactor creates a new write-only instance of PaymentForwarder, bound to a specific deployed contract.
func NewPaymentForwarderTransactor(address common.Address, transactor bind.ContractTransactor) (*PaymentForwarderTransactor, error) {
	contract, err := bindPaymentForwarder(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &PaymentForwarderTransactor{contract: contract}, nil
}

// NewPaymentForwarderFilterer creates a new log filterer instance of PaymentForwarder, bound to a specific deployed contract.
func NewPaymentForwarderFilterer(address common.Address, filterer bind.ContractFilterer) (*PaymentForwarderFilterer, error) {
	contract, err := bindPaymentForwarder(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &PaymentForwarderFilterer{contract: contract}, nil
}

// bindPaymentForwarder binds a generic wrapper to an already deployed contract.
func bindPaymentForwarder(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := PaymentForwarderMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_PaymentForwarder *PaymentForwarderRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _PaymentForwarder.Contract.PaymentForwarderCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_PaymentForwarder *PaymentForwarderRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _PaymentForwarder.Contract.PaymentForwarderTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_PaymentForwarder *PaymentForwarderRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _PaymentForwarder.Contract.PaymentForwarderTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_PaymentForwarder *PaymentForwarderCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _PaymentForwarder.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_PaymentForwarder *PaymentForwarderTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _PaymentForwarder.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_PaymentForwarder *PaymentForwarderTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _PaymentForwarder.Contract.contract.Transact(opts, method, params...)
}

// Payout is a free data retrieval call binding the contract method 0x63bd1d4a.
//
// Solidity: function payout() view returns(address)
func (_PaymentForwarder *PaymentForwarderCaller) Payout(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _PaymentForwarder.contract.Call(opts, &out, "payout")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Payout is a free data retrieval call binding the contract method 0x63bd1d4a.
//
// Solidity: function payout() view returns(address)
func (_PaymentForwarder *PaymentForwarderSession) Payout() (common.Address, error) {
	return _PaymentForwarder.Contract.Payout(&_PaymentForwarder.CallOpts)
}

// Payout is a free data retrieval call binding the contract method 0x63bd1d4a.
//
// Solidity: function payout() view returns(address)
func (_PaymentForwarder *PaymentForwarderCallerSession) Payout() (common.Address, error) {
	return _PaymentForwarder.Contract.Payout(&_PaymentForwarder.CallOpts)
}

// Forward is a paid mutator transaction binding the contract method 0x101e8952.
//
// Solidity: function forward(address token) returns(uint256 amount)
func (_PaymentForwarder *PaymentForwarderTransactor) Forward(opts *bind.TransactOpts, token common.Address) (*types.Transaction, error) {
	return _PaymentForwarder.contract.Transact(opts, "forward", token)
}

// Forward is a paid mutator transaction binding the contract method 0x101e8952.
//
// Solidity: function forward(address token) returns(uint256 amount)
func (_PaymentForwarder *PaymentForwarderSession) Forward(token common.Address) (*types.Transaction, error) {
	return _PaymentForwarder.Contract.Forward(&_PaymentForwarder.TransactOpts, token)
}

// Forward is a paid mutator transaction binding the contract method 0x101e8952.
//
// Solidity: function forward(address token) returns(uint256 amount)
func (_PaymentForwarder *PaymentForwarderTransactorSession) Forward(token common.Address) (*types.Transaction, error) {
	return _PaymentForwarder.Contract.Forward(&_PaymentForwarder.TransactOpts, token)
}

// PaymentForwarderForwardedIterator is returned from FilterForwarded and is used to iterate over the raw logs and unpacked data for Forwarded events raised by the PaymentForwarder contract.
type PaymentForwarderForwardedIterator struct {
	Event *PaymentForwarderForwarded // Event containing the contract specifics and raw log

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
func (it *PaymentForwarderForwardedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(PaymentForwarderForwarded)
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
		it.Event = new(PaymentForwarderForwarded)
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
func (it *PaymentForwarderForwardedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *PaymentForwarderForwardedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// PaymentForwarderForwarded represents a Forwarded event raised by the PaymentForwarder contract.
type PaymentForwarderForwarded struct {
	Token  common.Address
	Payout common.Address
	Amount *big.Int
	Raw    types.Log // Blockchain specific contextual infos
}

// FilterForwarded is a free log retrieval operation binding the contract event 0x0571d85fc9cce8d2ebf18e983becef6cc884e37503f377f9b6383d65850f96d2.
//
// Solidity: event Forwarded(address indexed token, address indexed payout, uint256 amount)
func (_PaymentForwarder *PaymentForwarderFilterer) FilterForwarded(opts *bind.FilterOpts, token []common.Address, payout []common.Address) (*PaymentForwarderForwardedIterator, error) {

	var tokenRule []interface{}
	for _, tokenItem := range token {
		tokenRule = append(tokenRule, tokenItem)
	}
	var payoutRule []interface{}
	for _, payoutItem := range payout {
		payoutRule = append(payoutRule, payoutItem)
	}

	logs, sub, err := _PaymentForwarder.contract.FilterLogs(opts, "Forwarded", tokenRule, payoutRule)
	if err != nil {
		return nil, err
	}
	return &PaymentForwarderForwardedIterator{contract: _PaymentForwarder.contract, event: "Forwarded", logs: logs, sub: sub}, nil
}

// WatchForwarded is a free log subscription operation binding the contract event 0x0571d85fc9cce8d2ebf18e983becef6cc884e37503f377f9b6383d65850f96d2.
//
// Solidity: event Forwarded(address indexed token, address indexed payout, uint256 amount)
func (_PaymentForwarder *PaymentForwarderFilterer) WatchForwarded(opts *bind.WatchOpts, sink chan<- *PaymentForwarderForwarded, token []common.Address, payout []common.Address) (event.Subscription, error) {

	var tokenRule []interface{}
	for _, tokenItem := range token {
		tokenRule = append(tokenRule, tokenItem)
	}
	var payoutRule []interface{}
	for _, payoutItem := range payout {
		payoutRule = append(payoutRule, payoutItem)
	}

	logs, sub, err := _PaymentForwarder.contract.WatchLogs(opts, "Forwarded", tokenRule, payoutRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(PaymentForwarderForwarded)
				if err := _PaymentForwarder.contract.UnpackLog(event, "Forwarded", log); err != nil {
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

// ParseForwarded is a log parse operation binding the contract event 0x0571d85fc9cce8d2ebf18e983becef6cc884e37503f377f9b6383d65850f96d2.
//
// Solidity: event Forwarded(address indexed token, address indexed payout, uint256 amount)
func (_PaymentForwarder *PaymentForwarderFilterer) ParseForwarded(log types.Log) (*PaymentForwarderForwarded, error) {
	event := new(PaymentForwarderForwarded)
	if err := _PaymentForwarder.contract.UnpackLog(event, "Forwarded", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
