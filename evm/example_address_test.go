package evm_test

import (
	"fmt"

	"github.com/nodeaccess/nodeaccess/evm"
)

// Addresses as users type them: ParseAddress checks the text before a
// call such as hyper.Client.UserVaultEquities sends anything.
func ExampleParseAddress() {
	for _, s := range []string{
		"0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D",
		"0x07fd993f0fa3a185f7207adccd29f7a87404689d",
		"0x07fD993f0fA3A185F7207ADcCD29f7A87404689D",
		"07fd993f0fa3a185f7207adccd29f7a87404689d",
	} {
		a, err := evm.ParseAddress(s)
		fmt.Println(a.Hex(), err)
	}
	// Output:
	// 0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D <nil>
	// 0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D <nil>
	// 0x0000000000000000000000000000000000000000 invalid input: address: "0x07fD993f0fA3A185F7207ADcCD29f7A87404689D": the mixed case does not match the address's EIP-55 checksum: check it for a typo
	// 0x0000000000000000000000000000000000000000 invalid input: address: "07fd993f0fa3a185f7207adccd29f7a87404689d": want 0x and 40 hex digits (42 characters), got 40 characters
}
