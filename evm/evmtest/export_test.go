package evmtest

// The fixtures the package keeps to itself, for its own tests (package
// evmtest_test): what the default scenario and the genesis are made of.
var (
	AccountBalance      = accountBalance
	AccountCount        = accountCount
	Forwarder           = forwarder
	Factory             = factory
	ForwarderABI        = forwarderABI
	FactoryABI          = factoryABI
	ChildABI            = childABI
	TokenCode           = tokenCode
	ChildInitCode       = childInitCode
	TokenBalanceSlot    = tokenBalanceSlot
	Multicall3CodeHash  = multicall3CodeHash
	Multicall3Code      = multicall3Code
	Recipient           = recipient
	Beneficiary         = beneficiary
	TransferValue       = transferValue
	CreateValue         = createValue
	TokenTransferAmount = tokenTransferAmount
	Create2Salt         = create2Salt
	WriteError          = writeError
)
