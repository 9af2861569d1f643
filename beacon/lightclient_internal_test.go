package beacon

import (
	"testing"
)

// bodyType is the BeaconBlockBody of fork v, as the specs define it, for
// the path derivation GIndexOf uses (its fields' names; the execution
// payload's, or gloas's signed bid's, spelled out to the leaf the light
// client proves).
func bodyType(v Version) *sszType {
	names := []string{"randao_reveal", "eth1_data", "graffiti", "proposer_slashings", "attester_slashings",
		"attestations", "deposits", "voluntary_exits", "sync_aggregate", "execution_payload",
		"bls_to_execution_changes", "blob_kzg_commitments", "execution_requests"}
	payload := 14
	switch v {
	case Phase0:
		names = names[:8]
	case Altair:
		names = names[:9]
	case Bellatrix:
		names = names[:10]
	case Capella:
		names, payload = names[:11], 15
	case Deneb:
		names, payload = names[:12], 17
	case Electra, Fulu:
		payload = 17
	case Gloas:
		// Gloas's body is a progressive container; the bid's message too.
		names = append(append(append([]string(nil), names[:9]...), "bls_to_execution_changes"), "signed_execution_payload_bid", "payload_attestations")
		bid := containerType("a bid", bidNames)
		bid.progressive = true
		signed := containerType("a signed bid", []string{"message", "signature"}, bid)
		t := containerType("a body", names)
		t.types[10] = signed
		t.progressive = true
		return t
	}
	t := containerType("a body", names)
	if v >= Bellatrix {
		t.types[9] = containerType("a payload", payloadHeaderNames[:payload])
	}
	return t
}

// TestLightClientBodyGIndices derives the body gindices with the package's
// own path derivation (binary containers, and gloas's progressive body and
// bid) from the specs' containers, and compares them with
// LightClientGIndices.
func TestLightClientBodyGIndices(t *testing.T) {
	for _, v := range versions() {
		lc := v.LightClientGIndices()
		body := bodyType(v)
		payload, err := gindexOf(body, []any{"execution_payload"})
		if v < Bellatrix || v >= Gloas {
			if err == nil || lc.ExecutionPayload != 0 {
				t.Fatalf("%s: execution_payload %d (%v), LightClientGIndices %d", v, payload, err, lc.ExecutionPayload)
			}
		} else if err != nil || payload != lc.ExecutionPayload {
			t.Fatalf("%s: execution_payload %d (%v), LightClientGIndices %d", v, payload, err, lc.ExecutionPayload)
		}
		path := []any{"execution_payload", "block_hash"}
		if v >= Gloas {
			path = []any{"signed_execution_payload_bid", "message", "parent_block_hash"}
		}
		hash, err := gindexOf(body, path)
		if v < Bellatrix {
			if err == nil || lc.ExecutionBlockHash != 0 {
				t.Fatalf("%s: block hash %d (%v), LightClientGIndices %d", v, hash, err, lc.ExecutionBlockHash)
			}
			continue
		}
		if err != nil || hash != lc.ExecutionBlockHash {
			t.Fatalf("%s: %v %d (%v), LightClientGIndices %d", v, path, hash, err, lc.ExecutionBlockHash)
		}
	}
}
