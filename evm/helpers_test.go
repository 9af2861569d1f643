package evm_test

import (
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
)

func gethCallMsg(to common.Address) ethereum.CallMsg { return ethereum.CallMsg{To: &to} }

// resultErr is a BatchResult's error alone.
func resultErr[T any](r *evm.BatchResult[T]) error {
	_, err := r.Result()
	return err
}
