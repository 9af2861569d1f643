package beacon_test

import (
	"encoding/binary"
	"math/bits"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Shorthands for the proofs the tests make, each one Prove of a path that
// GIndexOf resolves: the way the package's documentation tells users to
// prove a field, a validator, one of its fields or a balance.

// prove proves the node path names.
func prove(p *beacon.Prover, path ...any) (beacon.Proof, error) {
	g, err := p.GIndexOf(path...)
	if err != nil {
		return beacon.Proof{}, err
	}
	return p.Prove(g)
}

// proveField proves a top-level field of the state.
func proveField(p *beacon.Prover, name string) (beacon.Proof, error) { return prove(p, name) }

// fieldGIndex is a top-level field's generalized index.
func fieldGIndex(p *beacon.Prover, name string) (beacon.GIndex, error) { return p.GIndexOf(name) }

// proveLatestBlockHeader proves the state's latest_block_header.
func proveLatestBlockHeader(p *beacon.Prover) (beacon.Proof, error) {
	return prove(p, "latest_block_header")
}

// validatorGIndex is validator i's generalized index.
func validatorGIndex(p *beacon.Prover, i beacon.ValidatorIndex) (beacon.GIndex, error) {
	return p.GIndexOf("validators", i)
}

// proveValidator proves validator i's root.
func proveValidator(p *beacon.Prover, i beacon.ValidatorIndex) (beacon.Proof, error) {
	return prove(p, "validators", i)
}

// proveValidatorField proves field f (the specs' name) of validator i.
func proveValidatorField(p *beacon.Prover, i beacon.ValidatorIndex, f string) (beacon.Proof, error) {
	return prove(p, "validators", i, f)
}

// balanceGIndex is the generalized index of the chunk holding validator
// i's balance.
func balanceGIndex(p *beacon.Prover, i beacon.ValidatorIndex) (beacon.GIndex, error) {
	return p.GIndexOf("balances", i)
}

// proveBalance proves the chunk of four balances that holds validator i's.
func proveBalance(p *beacon.Prover, i beacon.ValidatorIndex) (beacon.Proof, error) {
	return prove(p, "balances", i)
}

// balanceIn reads validator i's balance from the chunk a balance proof
// proves: four little-endian uint64s, validator i's at i%4.
func balanceIn(pr beacon.Proof, i beacon.ValidatorIndex) beacon.Gwei {
	return beacon.Gwei(binary.LittleEndian.Uint64(pr.Leaf[8*(i%4):]))
}

// The validator fields by their specs' names, in the container's order.
var validatorFieldNames = []string{"pubkey", "withdrawal_credentials", "effective_balance", "slashed",
	"activation_eligibility_epoch", "activation_epoch", "exit_epoch", "withdrawable_epoch"}

// gDepth and gIndex are a generalized index's depth and its position among
// the nodes of that depth (the specs' get_generalized_index_length and
// get_subtree_index), computed here from the definition.
func gDepth(g beacon.GIndex) int    { return bits.Len64(uint64(g)) - 1 }
func gIndex(g beacon.GIndex) uint64 { return uint64(g) - 1<<gDepth(g) }
func concatGIndices(gs ...beacon.GIndex) beacon.GIndex {
	o := beacon.GIndex(1)
	for _, g := range gs {
		o = o<<gDepth(g) | beacon.GIndex(gIndex(g))
	}
	return o
}
