package bench

import (
	"encoding/hex"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/xssnick/tonutils-go/tvm/cell"
)

// Reading a TEP-74 jetton transfer (issue 26): the ton package's own
// reader (Message.ParseJettonTransfer) against tonutils-go v1.15.5's cells
// (cell.FromBOC, then the same fields read by hand: op, query id, amount,
// destination, response destination, custom payload, forward amount, the
// forward payload's comment), on two real transfers from tongo's tests
// (ton/testdata/jetton): 2 cells, and 55 cells with a custom payload.
var jettonBodies = map[string]string{
	"2-cells":  "b5ee9c720101020100690001ac0f8a7ea5546de4ef59be1a6b5cdf061db67801465aa59db01447fc9fd217528b27ded0dbc07f3f7b540d3cc8504d52a46973050037ef56fa125ff70327f2f7f19da19210377e2b5908f5b5595f66c3a09c35b22b020301001c0000000031383437333938303832",
	"55-cells": "b5ee9c72010237010004fb0002ac0f8a7ea57361fe02fbd836f2539a1681a7a801f37b81bc8c38345c005f5b52aa177612b91f3ee6cd1ae18a2f5398fc0a1f1cb500333c7998a8b9d8e669d81830ad3daa01a1837f72c28c01cbc78cd0ee6ea9a054a203010201080df602d603001600000000393832303132310946034234ad7214de4fd3e58a483bad658e2daa61aa004ef0fa541c844732e283a311001e042205817002050628480101ac7196a16449b7019e14749fdd3eb33bf15d1d45abc74292fa781f7b013ea576001d22012007082848010113ee0db49bc066f2fcdf5ebc32a1b6fae201a50d9c4912d027ce0343f55a9e41001b220120090a2201200b0c284801017397e54bdf4c77f32d712cc2b102320a00bfcc5cb955319b812ab38a7b2a2db6001a2201200d0e28480101dce12c77b9d7c1eff024a3373a7fa1f7191bcba2405879b8cd82510b5fdf81060018284801017df47110b15a482d75e1465a7557c7f929a2a878cc179263ea4fba65baa9296700192201200f10284801016fafe2d5e2580903c9fdd59968e2a71941c528f90676069c334186cc5466ea7100162201201112220120131428480101f95a8c9a4b45ea9e1640eb1f01c0a903e2f08550233cccf5b8a6ffc00bf20c39001522012015162848010135c7b7aece7eb6d8746cbc5efe957cf2f58f20edccb0e1e87ae4899cba13f698001428480101d87d5ec47172689a0dea012d00897d083fc62e3f2dc79f5d9f30d08b9a6ef91b001322012017182848010162ecbcf1dc67b60938d74ad0623f31d23c243c939ea599cb649563e9f3fe850a0012220120191a284801017a494e49cad5216a39a3a47aea711055dfb18aee23cf30ab7d298a88a59b53fc00112201201b1c28480101bbd8d2fe0e489c6f749992d17892ec54a3f7ab659f063fb774866ee3f2efab1200102201201d1e2201201f2028480101c89f69f387d22673062227be63d7661d49ee6169bd512ffe50957f6c8ffcb4fc000e22012021222848010109c1df2f152428c52898acc302528493b8120c498f1069ad66fe810c5a708a05000d220120232428480101c8a2a5686729b0d23761a3bc1f8443c25a98c981b50e50e8952b03c185aa9eb3000c284801013ee950c82bb9203ca2b32db01512c74d238d0637b941dc282d5e96b7aea119bc000a220120252628480101fa7278136d1be8945413d1976eaefe2993175082fb2d1c847477ce4e240bb11d0008220120272828480101e49d0e7dd1cc094082c9f7937a7680ba9c4937412f1e06973fa1f8c3b2a2213b0007220120292a28480101e55e41515fc9ec90f8c5b0c29d3bcccbe8afadfcfc74e59458a82c5823cfb35800072201202b2c2201202d2e2848010190e8a0b6b7552c01212fcf1c2efde23961a411f538f0ceb7880c43ac96483c2300052201202f3028480101f0223ccf937da2f7102a14a0e452dccfd0971c99e481d141c685ec820d2cc8b600042848010179d4ddfaf086a46dae7a3e44674dce72629e213253440e99185326da781dbcd30002220120313228480101bc7bf637739ebf54b7d80b4473b7f7783a6e5f544cb72eedff9b5a4ebf09d48a0000220120333422047f3135362848010174b89492389e48103c1b14bc73b9ae6f86b1a4d7b3e235f11489a9cdaf7472060000005db828b9d8e669d81830ad3daa01a1837f72c28c01cbc78cd0ee6ea9a05494e685a069e800019bd4c2800001b2632c8228480101d9e142e6d1c8cd21136dafd313171a0b04de94f314a6f381f0bcd50e323fbd870000",
}

func BenchmarkTONJettonTransfer(b *testing.B) {
	want := map[string]string{"2-cells": "1847398082", "55-cells": "9820121"}
	for _, name := range []string{"2-cells", "55-cells"} {
		body, err := hex.DecodeString(jettonBodies[name])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/nodeaccess", func(b *testing.B) {
			m := ton.Message{Body: body}
			b.ReportAllocs()
			for b.Loop() {
				t, ok := m.ParseJettonTransfer()
				if !ok || t.Comment != want[name] {
					b.Fatal("not read")
				}
			}
		})
		b.Run(name+"/tonutils-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if text, err := tonutilsTransfer(body); err != nil || text != want[name] {
					b.Fatal(text, err)
				}
			}
		})
	}
}

// tonutilsTransfer reads a transfer's fields with tonutils-go's cells and
// returns its comment.
func tonutilsTransfer(body []byte) (string, error) {
	c, err := cell.FromBOC(body)
	if err != nil {
		return "", err
	}
	s := c.BeginParse()
	for _, n := range []uint{32, 64} {
		if _, err := s.LoadUInt(n); err != nil {
			return "", err
		}
	}
	if _, err := s.LoadBigCoins(); err != nil {
		return "", err
	}
	for range 2 {
		if _, err := s.LoadAddr(); err != nil {
			return "", err
		}
	}
	if _, err := s.LoadMaybeRef(); err != nil {
		return "", err
	}
	if _, err := s.LoadBigCoins(); err != nil {
		return "", err
	}
	right, err := s.LoadBoolBit()
	if err != nil {
		return "", err
	}
	if right {
		if s, err = s.LoadRef(); err != nil {
			return "", err
		}
	}
	if _, err := s.LoadUInt(32); err != nil {
		return "", err
	}
	return s.LoadStringSnake()
}
