// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package testcontract

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

// ProbeMetaData contains all meta data concerning the Probe contract.
var ProbeMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"code\",\"type\":\"uint256\"}],\"name\":\"Denied\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"echo\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"code\",\"type\":\"uint256\"}],\"name\":\"failCustom\",\"outputs\":[],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"d\",\"type\":\"uint256\"}],\"name\":\"failPanic\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"failRequire\",\"outputs\":[],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"v\",\"type\":\"uint256\"}],\"name\":\"setValue\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"value\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
}

// ProbeABI is the input ABI used to generate the binding from.
// Deprecated: Use ProbeMetaData.ABI instead.
var ProbeABI = ProbeMetaData.ABI

// Probe is an auto generated Go binding around an Ethereum contract.
type Probe struct {
	ProbeCaller     // Read-only binding to the contract
	ProbeTransactor // Write-only binding to the contract
	ProbeFilterer   // Log filterer for contract events
}

// ProbeCaller is an auto generated read-only Go binding around an Ethereum contract.
type ProbeCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// ProbeTransactor is an auto generated write-only Go binding around an Ethereum contract.
type ProbeTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// ProbeFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type ProbeFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// ProbeSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type ProbeSession struct {
	Contract     *Probe            // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// ProbeCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type ProbeCallerSession struct {
	Contract *ProbeCaller  // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts // Call options to use throughout this session
}

// ProbeTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type ProbeTransactorSession struct {
	Contract     *ProbeTransactor  // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// ProbeRaw is an auto generated low-level Go binding around an Ethereum contract.
type ProbeRaw struct {
	Contract *Probe // Generic contract binding to access the raw methods on
}

// ProbeCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type ProbeCallerRaw struct {
	Contract *ProbeCaller // Generic read-only contract binding to access the raw methods on
}

// ProbeTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type ProbeTransactorRaw struct {
	Contract *ProbeTransactor // Generic write-only contract binding to access the raw methods on
}

// NewProbe creates a new instance of Probe, bound to a specific deployed contract.
func NewProbe(address common.Address, backend bind.ContractBackend) (*Probe, error) {
	contract, err := bindProbe(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &Probe{ProbeCaller: ProbeCaller{contract: contract}, ProbeTransactor: ProbeTransactor{contract: contract}, ProbeFilterer: ProbeFilterer{contract: contract}}, nil
}

// NewProbeCaller creates a new read-only instance of Probe, bound to a specific deployed contract.
func NewProbeCaller(address common.Address, caller bind.ContractCaller) (*ProbeCaller, error) {
	contract, err := bindProbe(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &ProbeCaller{contract: contract}, nil
}

// NewProbeTransactor creates a new write-only instance of Probe, bound to a specific deployed contract.
func NewProbeTransactor(address common.Address, transactor bind.ContractTransactor) (*ProbeTransactor, error) {
	contract, err := bindProbe(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &ProbeTransactor{contract: contract}, nil
}

// NewProbeFilterer creates a new log filterer instance of Probe, bound to a specific deployed contract.
func NewProbeFilterer(address common.Address, filterer bind.ContractFilterer) (*ProbeFilterer, error) {
	contract, err := bindProbe(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &ProbeFilterer{contract: contract}, nil
}

// bindProbe binds a generic wrapper to an already deployed contract.
func bindProbe(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := ProbeMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_Probe *ProbeRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _Probe.Contract.ProbeCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_Probe *ProbeRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _Probe.Contract.ProbeTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_Probe *ProbeRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _Probe.Contract.ProbeTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_Probe *ProbeCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _Probe.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_Probe *ProbeTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _Probe.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_Probe *ProbeTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _Probe.Contract.contract.Transact(opts, method, params...)
}

// FailCustom is a free data retrieval call binding the contract method 0xa7b8133a.
//
// Solidity: function failCustom(uint256 code) view returns()
func (_Probe *ProbeCaller) FailCustom(opts *bind.CallOpts, code *big.Int) error {
	var out []interface{}
	err := _Probe.contract.Call(opts, &out, "failCustom", code)

	if err != nil {
		return err
	}

	return err

}

// FailCustom is a free data retrieval call binding the contract method 0xa7b8133a.
//
// Solidity: function failCustom(uint256 code) view returns()
func (_Probe *ProbeSession) FailCustom(code *big.Int) error {
	return _Probe.Contract.FailCustom(&_Probe.CallOpts, code)
}

// FailCustom is a free data retrieval call binding the contract method 0xa7b8133a.
//
// Solidity: function failCustom(uint256 code) view returns()
func (_Probe *ProbeCallerSession) FailCustom(code *big.Int) error {
	return _Probe.Contract.FailCustom(&_Probe.CallOpts, code)
}

// FailPanic is a free data retrieval call binding the contract method 0x74df253a.
//
// Solidity: function failPanic(uint256 d) pure returns(uint256)
func (_Probe *ProbeCaller) FailPanic(opts *bind.CallOpts, d *big.Int) (*big.Int, error) {
	var out []interface{}
	err := _Probe.contract.Call(opts, &out, "failPanic", d)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// FailPanic is a free data retrieval call binding the contract method 0x74df253a.
//
// Solidity: function failPanic(uint256 d) pure returns(uint256)
func (_Probe *ProbeSession) FailPanic(d *big.Int) (*big.Int, error) {
	return _Probe.Contract.FailPanic(&_Probe.CallOpts, d)
}

// FailPanic is a free data retrieval call binding the contract method 0x74df253a.
//
// Solidity: function failPanic(uint256 d) pure returns(uint256)
func (_Probe *ProbeCallerSession) FailPanic(d *big.Int) (*big.Int, error) {
	return _Probe.Contract.FailPanic(&_Probe.CallOpts, d)
}

// FailRequire is a free data retrieval call binding the contract method 0x9ec8fc6a.
//
// Solidity: function failRequire() pure returns()
func (_Probe *ProbeCaller) FailRequire(opts *bind.CallOpts) error {
	var out []interface{}
	err := _Probe.contract.Call(opts, &out, "failRequire")

	if err != nil {
		return err
	}

	return err

}

// FailRequire is a free data retrieval call binding the contract method 0x9ec8fc6a.
//
// Solidity: function failRequire() pure returns()
func (_Probe *ProbeSession) FailRequire() error {
	return _Probe.Contract.FailRequire(&_Probe.CallOpts)
}

// FailRequire is a free data retrieval call binding the contract method 0x9ec8fc6a.
//
// Solidity: function failRequire() pure returns()
func (_Probe *ProbeCallerSession) FailRequire() error {
	return _Probe.Contract.FailRequire(&_Probe.CallOpts)
}

// Value is a free data retrieval call binding the contract method 0x3fa4f245.
//
// Solidity: function value() view returns(uint256)
func (_Probe *ProbeCaller) Value(opts *bind.CallOpts) (*big.Int, error) {
	var out []interface{}
	err := _Probe.contract.Call(opts, &out, "value")

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// Value is a free data retrieval call binding the contract method 0x3fa4f245.
//
// Solidity: function value() view returns(uint256)
func (_Probe *ProbeSession) Value() (*big.Int, error) {
	return _Probe.Contract.Value(&_Probe.CallOpts)
}

// Value is a free data retrieval call binding the contract method 0x3fa4f245.
//
// Solidity: function value() view returns(uint256)
func (_Probe *ProbeCallerSession) Value() (*big.Int, error) {
	return _Probe.Contract.Value(&_Probe.CallOpts)
}

// Echo is a paid mutator transaction binding the contract method 0x29f4acb0.
//
// Solidity: function echo() payable returns(address sender, uint256 amount)
func (_Probe *ProbeTransactor) Echo(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _Probe.contract.Transact(opts, "echo")
}

// Echo is a paid mutator transaction binding the contract method 0x29f4acb0.
//
// Solidity: function echo() payable returns(address sender, uint256 amount)
func (_Probe *ProbeSession) Echo() (*types.Transaction, error) {
	return _Probe.Contract.Echo(&_Probe.TransactOpts)
}

// Echo is a paid mutator transaction binding the contract method 0x29f4acb0.
//
// Solidity: function echo() payable returns(address sender, uint256 amount)
func (_Probe *ProbeTransactorSession) Echo() (*types.Transaction, error) {
	return _Probe.Contract.Echo(&_Probe.TransactOpts)
}

// SetValue is a paid mutator transaction binding the contract method 0x55241077.
//
// Solidity: function setValue(uint256 v) returns()
func (_Probe *ProbeTransactor) SetValue(opts *bind.TransactOpts, v *big.Int) (*types.Transaction, error) {
	return _Probe.contract.Transact(opts, "setValue", v)
}

// SetValue is a paid mutator transaction binding the contract method 0x55241077.
//
// Solidity: function setValue(uint256 v) returns()
func (_Probe *ProbeSession) SetValue(v *big.Int) (*types.Transaction, error) {
	return _Probe.Contract.SetValue(&_Probe.TransactOpts, v)
}

// SetValue is a paid mutator transaction binding the contract method 0x55241077.
//
// Solidity: function setValue(uint256 v) returns()
func (_Probe *ProbeTransactorSession) SetValue(v *big.Int) (*types.Transaction, error) {
	return _Probe.Contract.SetValue(&_Probe.TransactOpts, v)
}
