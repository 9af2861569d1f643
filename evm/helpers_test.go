package evm_test

import (
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

func gethCallMsg(to common.Address) ethereum.CallMsg { return ethereum.CallMsg{To: &to} }
