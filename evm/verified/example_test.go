package verified_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
)

// Verified reads against a local chain: the anchor here is made of the
// chain's own blocks (chainAnchor, a test helper); for a real chain it is
// a light client, such as *light.Client of package beacon/light.
func Example() {
	srv, err := evmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	v, err := verified.New(c, chainAnchor{srv})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	holder, token := evmtest.Holder(), evmtest.Token()

	// A storage slot: the token's balanceOf[holder] (a mapping at slot 1).
	slot := crypto.Keccak256Hash(common.LeftPadBytes(holder[:], 32), common.LeftPadBytes([]byte{1}, 32))
	word, err := v.StorageAt(ctx, token, slot, evm.Latest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("slot:", word.Big())

	// A verified eth_call: balanceOf(holder), run here on proven state.
	data := append(crypto.Keccak256([]byte("balanceOf(address)"))[:4], common.LeftPadBytes(holder[:], 32)...)
	out, err := v.Call(ctx, evm.CallMsg{To: token, Data: data}, evm.Latest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("balanceOf:", new(big.Int).SetBytes(out))

	// A provider that lies is caught.
	srv.Lie(evmtest.Lie{Slot: true})
	_, err = v.StorageAt(ctx, token, slot, evm.Latest)
	fmt.Println("lie caught:", errors.Is(err, nodeaccess.ErrUnverified))
	// Output:
	// slot: 1200000000
	// balanceOf: 1200000000
	// lie caught: true
}
