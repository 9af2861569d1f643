// Package testcontract holds Probe, the contract the evm package's node tests
// call on evmtest's chain (go-ethereum's EVM): its Solidity source (Probe.sol),
// its ABI (Probe.abi), its runtime bytecode (Probe.bin-runtime, hex) and the
// abigen binding (probe.go). The tests put the runtime code in the genesis
// alloc, so the contract is never deployed and no creation code is kept.
//
// The artifacts were made with solc 0.8.37 (the npm package solc@0.8.37,
// 0.8.37+commit.f401782d) and abigen v1.17.10. To regenerate them, from this
// directory:
//
//	d=$(mktemp -d) && (cd "$d" && npm init -y >/dev/null && npm install solc@0.8.37)
//	NODE_PATH="$d/node_modules" node compile.js .
//	(cd "$d" && go run github.com/ethereum/go-ethereum/cmd/abigen@v1.17.10 \
//		--abi "$OLDPWD/Probe.abi" --pkg testcontract --type Probe --out "$OLDPWD/probe.go")
//
// compile.js compiles with the standard-JSON interface: evmVersion prague,
// optimizer on (200 runs), metadata.bytecodeHash none; it writes the ABI and
// evm.deployedBytecode.object. abigen runs outside the module (from the temp
// directory) so that it does not touch go.mod; it writes v1 bindings
// (NewProbeCaller(address, bind.ContractCaller) and so on).
package testcontract

import (
	_ "embed"
	"encoding/hex"
	"strings"
)

//go:embed Probe.bin-runtime
var runtimeHex string

// RuntimeCode returns Probe's runtime bytecode, a fresh copy on every call.
func RuntimeCode() []byte {
	b, err := hex.DecodeString(strings.TrimSpace(runtimeHex))
	if err != nil {
		panic("testcontract: Probe.bin-runtime is not hex: " + err.Error())
	}
	return b
}
