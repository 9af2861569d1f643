// Command quickstart calls every operation of the SDK, on every chain, and
// prints the typed results.
//
//	go run ./examples/quickstart
//
// With no configuration it starts the SDK's local servers in-process, on
// 127.0.0.1 (evm/evmtest: a go-ethereum chain in memory; hyper/hypertest,
// ton/tontest: recorded data; beacon/beacontest: a generated state), and
// says so in its first line. Each chain whose URL is set in the environment
// is called on that service instead; the others stay local:
//
//	NODEACCESS_EVM_URL      an EVM node's base URL (https://host), or the whole
//	                        endpoint https://host/<KEY>; for the exchange chain's
//	                        EVM, where node-access services serve
//	                        ots_getInternalOperations, https://host/<KEY>/evm
//	NODEACCESS_EVM_KEY      its access key (unset when the URL carries it)
//	NODEACCESS_EVM_TO       the contract to eth_call and eth_getCode
//	NODEACCESS_EVM_DATA     the call data, hex (default: none)
//	NODEACCESS_EVM_TX       a transaction hash for ots_getInternalOperations
//
//	NODEACCESS_HYPER_URL         the Hyperliquid node's base URL, or the
//	                             endpoint https://host/<KEY> (or …/<KEY>/info,
//	                             …/<KEY>/evm)
//	NODEACCESS_HYPER_KEY         its access key (unset when the URL carries it)
//	NODEACCESS_HYPER_PUBLIC_URL  the public API for allMids (default
//	                             https://api.hyperliquid.xyz)
//	NODEACCESS_HYPER_USER        the user for userVaultEquities (default
//	                             0x2b804617c6f63c040377e95bb276811747006f4b)
//
//	NODEACCESS_TON_URL      the TON service's base URL
//	NODEACCESS_TON_KEY      its access key (required: v2 and v3 paths put it
//	                        in different places)
//	NODEACCESS_TON_SEQNO    a masterchain block for getBlockTransactionsExt
//	NODEACCESS_TON_ACCOUNT  an account for accountStates and pendingTransactions
//
//	NODEACCESS_BEACON_URL   the consensus node's base URL, or the endpoint
//	                        https://host/beacon/<KEY>
//	NODEACCESS_BEACON_KEY   its access key (unset when the URL carries it)
//	NODEACCESS_BEACON_STATE the state id (default head); a mainnet state is
//	                        about 300 MB: this downloads and decodes all of it
//
// It ends with what to do next: the URL variables still unset, the local
// servers for your own tests, the other examples, the tests. A call the
// environment gives no input for is skipped with a line saying which
// variable to set. A key set without its URL is refused (set both, or
// neither). The access keys are never printed.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// chains are the sections the program runs, in order.
var chains = []struct {
	name, env string
	run       func(ctx context.Context, out io.Writer, getenv func(string) string) error
}{
	{"EVM", "NODEACCESS_EVM_URL", runEVM},
	{"Hyperliquid", "NODEACCESS_HYPER_URL", runHyper},
	{"TON", "NODEACCESS_TON_URL", runTON},
	{"beacon", "NODEACCESS_BEACON_URL", runBeacon},
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	for _, c := range chains {
		// A key without its URL is a typo away from a real call: refuse it
		// rather than quietly call the local server.
		key := strings.TrimSuffix(c.env, "_URL") + "_KEY"
		if getenv(c.env) == "" && getenv(key) != "" {
			return fmt.Errorf("%s is set but %s is not: set both, or neither to use a local server", key, c.env)
		}
	}
	fmt.Fprintln(out, firstLine(getenv))
	for _, c := range chains {
		if err := c.run(ctx, out, getenv); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	fmt.Fprint(out, nextSteps(getenv))
	return nil
}

// nextSteps is the program's last words: what to do after this run.
func nextSteps(getenv func(string) string) string {
	var b strings.Builder
	b.WriteString("\nNext:\n")
	var local []string
	for _, c := range chains {
		if getenv(c.env) == "" {
			local = append(local, c.env)
		}
	}
	if len(local) > 0 {
		b.WriteString("  - Call your provider instead of a local server: set " + strings.Join(local, ", ") +
			"\n    (and the matching _KEY, or the key inside the URL); go doc ./examples/quickstart lists every variable.\n")
	}
	b.WriteString("  - Test your own code against these local servers: evmtest.NewT(t), hypertest, tontest, beacontest\n" +
		"    (README.md#testing-your-code, docs/local-servers.md).\n" +
		"  - Run the other examples: go run ./examples/erc20, ./examples/evmfollow, ./examples/vaults,\n" +
		"    ./examples/tonfollow, ./examples/tonblock, ./examples/budget, ./examples/beaconstate,\n" +
		"    ./examples/verified (examples/README.md).\n" +
		"  - Run the tests: " + testCommand + "\n")
	return b.String()
}

// testCommand runs the tests as CI runs them: the README's second command.
const testCommand = "go test -race -count=1 -timeout 30m ./..."

// firstLine says where the calls go.
func firstLine(getenv func(string) string) string {
	var remote, local []string
	for _, c := range chains {
		if getenv(c.env) != "" {
			remote = append(remote, c.name)
		} else {
			local = append(local, c.name)
		}
	}
	switch {
	case len(remote) == 0:
		return "No NODEACCESS_*_URL set: every call goes to local servers started in-process on 127.0.0.1 (evmtest, hypertest, tontest, beacontest)."
	case len(local) == 0:
		return "Calling the services in NODEACCESS_*_URL for " + strings.Join(remote, ", ") + "."
	}
	return "Calling the services in NODEACCESS_*_URL for " + strings.Join(remote, ", ") +
		"; local servers started in-process on 127.0.0.1 for " + strings.Join(local, ", ") + "."
}

// count writes n and the noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
