//go:build !amd64 && !arm64

package sha256x

import "crypto/sha256"

// fallback hashes each 64-byte block of src into dst with crypto/sha256:
// gohashtree builds only for amd64 and arm64.
func fallback(dst, src []byte) {
	for i := 0; i+64 <= len(src); i += 64 {
		h := sha256.Sum256(src[i : i+64])
		copy(dst[i/2:], h[:])
	}
}
