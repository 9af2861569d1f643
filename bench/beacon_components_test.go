package bench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// peerHasher is what go-eth2-client's containers have.
type peerHasher interface {
	HashTreeRoot() ([32]byte, error)
}

// component is one container of our state, with the name of the field of
// go-eth2-client's BeaconState that holds it, and its root and JSON in
// ours.
type component struct {
	name, peerField string
	n               int // elements of a list field; 0 for a single container
	ours            func(i int) (beacon.Root, []byte, error)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// components lists the containers of st that go-eth2-client also has.
func components(st *beacon.State) []component {
	v := st.Version
	one := func(r beacon.Root, x any) func(int) (beacon.Root, []byte, error) {
		return func(int) (beacon.Root, []byte, error) { return r, mustJSON(x), nil }
	}
	c := []component{
		{"fork", "Fork", 0, one(rootOrPanic(beacon.HashTreeRoot(st.Fork)), st.Fork)},
		{"latest_block_header", "LatestBlockHeader", 0, one(rootOrPanic(beacon.HashTreeRoot(st.LatestBlockHeader)), st.LatestBlockHeader)},
		{"eth1_data", "ETH1Data", 0, one(rootOrPanic(beacon.HashTreeRoot(st.Eth1Data)), st.Eth1Data)},
		{"previous_justified_checkpoint", "PreviousJustifiedCheckpoint", 0, one(rootOrPanic(beacon.HashTreeRoot(st.PreviousJustifiedCheckpoint)), st.PreviousJustifiedCheckpoint)},
		{"current_justified_checkpoint", "CurrentJustifiedCheckpoint", 0, one(rootOrPanic(beacon.HashTreeRoot(st.CurrentJustifiedCheckpoint)), st.CurrentJustifiedCheckpoint)},
		{"finalized_checkpoint", "FinalizedCheckpoint", 0, one(rootOrPanic(beacon.HashTreeRoot(st.FinalizedCheckpoint)), st.FinalizedCheckpoint)},
		{"validators", "Validators", len(st.Validators), func(i int) (beacon.Root, []byte, error) {
			return rootOrPanic(beacon.HashTreeRoot(st.Validators[i])), mustJSON(st.Validators[i]), nil
		}},
		{"eth1_data_votes", "ETH1DataVotes", len(st.Eth1DataVotes), func(i int) (beacon.Root, []byte, error) {
			return rootOrPanic(beacon.HashTreeRoot(st.Eth1DataVotes[i])), mustJSON(st.Eth1DataVotes[i]), nil
		}},
	}
	if v == beacon.Phase0 {
		c = append(c, component{"previous_epoch_attestations", "PreviousEpochAttestations", len(st.PreviousEpochAttestations), func(i int) (beacon.Root, []byte, error) {
			r, err := beacon.HashTreeRoot(st.PreviousEpochAttestations[i])
			return r, mustJSON(st.PreviousEpochAttestations[i]), err
		}})
	}
	if v >= beacon.Altair {
		c = append(c, component{"current_sync_committee", "CurrentSyncCommittee", 0, func(int) (beacon.Root, []byte, error) {
			r, err := beacon.HashTreeRoot(st.CurrentSyncCommittee)
			return r, mustJSON(st.CurrentSyncCommittee), err
		}})
	}
	if v >= beacon.Bellatrix && v < beacon.Gloas {
		c = append(c, component{"latest_execution_payload_header", "LatestExecutionPayloadHeader", 0, func(int) (beacon.Root, []byte, error) {
			// The header's root and JSON of the state's fork: its leaf in
			// the state's tree, and its member of the state's JSON.
			p, err := beacon.NewProver(st)
			if err != nil {
				return beacon.Root{}, nil, err
			}
			g, err := p.GIndexOf("latest_execution_payload_header")
			if err != nil {
				return beacon.Root{}, nil, err
			}
			pr, err := p.Prove(g)
			if err != nil {
				return beacon.Root{}, nil, err
			}
			js, err := stateMember(st, "latest_execution_payload_header")
			return pr.Leaf, js, err
		}})
	}
	if v >= beacon.Capella {
		c = append(c, component{"historical_summaries", "HistoricalSummaries", len(st.HistoricalSummaries), func(i int) (beacon.Root, []byte, error) {
			return rootOrPanic(beacon.HashTreeRoot(st.HistoricalSummaries[i])), mustJSON(st.HistoricalSummaries[i]), nil
		}})
	}
	if v >= beacon.Electra {
		c = append(c,
			component{"pending_deposits", "PendingDeposits", len(st.PendingDeposits), func(i int) (beacon.Root, []byte, error) {
				return rootOrPanic(beacon.HashTreeRoot(st.PendingDeposits[i])), mustJSON(st.PendingDeposits[i]), nil
			}},
			component{"pending_partial_withdrawals", "PendingPartialWithdrawals", len(st.PendingPartialWithdrawals), func(i int) (beacon.Root, []byte, error) {
				return rootOrPanic(beacon.HashTreeRoot(st.PendingPartialWithdrawals[i])), mustJSON(st.PendingPartialWithdrawals[i]), nil
			}},
			component{"pending_consolidations", "PendingConsolidations", len(st.PendingConsolidations), func(i int) (beacon.Root, []byte, error) {
				return rootOrPanic(beacon.HashTreeRoot(st.PendingConsolidations[i])), mustJSON(st.PendingConsolidations[i]), nil
			}},
		)
	}
	if v >= beacon.Gloas {
		c = append(c,
			component{"builders", "Builders", len(st.Builders), func(i int) (beacon.Root, []byte, error) {
				return rootOrPanic(beacon.HashTreeRoot(st.Builders[i])), mustJSON(st.Builders[i]), nil
			}},
			component{"builder_pending_payments", "BuilderPendingPayments", len(st.BuilderPendingPayments), func(i int) (beacon.Root, []byte, error) {
				return rootOrPanic(beacon.HashTreeRoot(st.BuilderPendingPayments[i])), mustJSON(st.BuilderPendingPayments[i]), nil
			}},
			component{"builder_pending_withdrawals", "BuilderPendingWithdrawals", len(st.BuilderPendingWithdrawals), func(i int) (beacon.Root, []byte, error) {
				return rootOrPanic(beacon.HashTreeRoot(st.BuilderPendingWithdrawals[i])), mustJSON(st.BuilderPendingWithdrawals[i]), nil
			}},
			component{"latest_execution_payload_bid", "LatestExecutionPayloadBid", 0, one(rootOrPanic(beacon.HashTreeRoot(st.LatestExecutionPayloadBid)), st.LatestExecutionPayloadBid)},
			component{"payload_expected_withdrawals", "PayloadExpectedWithdrawals", len(st.PayloadExpectedWithdrawals), func(i int) (beacon.Root, []byte, error) {
				return rootOrPanic(beacon.HashTreeRoot(st.PayloadExpectedWithdrawals[i])), mustJSON(st.PayloadExpectedWithdrawals[i]), nil
			}},
		)
	}
	return c
}

// TestDifferentialComponents checks every container of generated states of
// every fork (phase0 to gloas) against go-eth2-client's own types, decoded from our SSZ:
// our HashTreeRoot equals its HashTreeRoot, and our json.Marshal writes
// exactly the bytes its json.Marshal writes (all our hex is lower case, so
// lowering go-eth2-client's checksummed fee_recipient changes nothing else).
func TestDifferentialComponents(t *testing.T) {
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			st := beacontest.NewState(v, beacon.MainnetPreset(), 64, 3)
			ssz, err := marshalSSZ(st)
			if err != nil {
				t.Fatal(err)
			}
			peer := newPeerState(v)
			if err := peer.UnmarshalSSZ(ssz); err != nil {
				t.Fatal(err)
			}
			ps := reflect.ValueOf(peer).Elem()
			for _, c := range components(st) {
				pf := ps.FieldByName(c.peerField)
				if !pf.IsValid() {
					t.Fatalf("go-eth2-client's %T has no field %s", peer, c.peerField)
				}
				count := c.n
				if pf.Kind() == reflect.Slice {
					if pf.Len() != c.n {
						t.Fatalf("%s: %d elements in go-eth2-client, %d in ours", c.name, pf.Len(), c.n)
					}
					if c.n == 0 {
						t.Fatalf("%s: the generated state has none: nothing compared", c.name)
					}
				} else {
					count = 1
				}
				for i := range count {
					elem := pf
					if pf.Kind() == reflect.Slice {
						elem = pf.Index(i)
					}
					name := fmt.Sprintf("%s[%d]", c.name, i)
					want, err := elem.Interface().(peerHasher).HashTreeRoot()
					if err != nil {
						t.Fatal(err)
					}
					wantJS, err := json.Marshal(elem.Interface())
					if err != nil {
						t.Fatal(err)
					}
					got, gotJS, err := c.ours(i)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if got != beacon.Root(want) {
						t.Fatalf("%s: root %s, go-eth2-client %x", name, got, want)
					}
					switch c.peerField {
					case "LatestExecutionPayloadHeader", "Builders", "BuilderPendingPayments", "BuilderPendingWithdrawals", "LatestExecutionPayloadBid", "PayloadExpectedWithdrawals":
						// go-eth2-client writes execution addresses with the
						// EIP-55 checksum case; beacon nodes (and we) write
						// lower case, which the API's pattern allows too.
						wantJS = builderVersion(v, bytes.ToLower(wantJS), false)
					}
					if string(gotJS) != string(wantJS) {
						t.Fatalf("%s: JSON\n ours %s\npeer's %s", name, gotJS, wantJS)
					}
				}
			}
		})
	}
}
