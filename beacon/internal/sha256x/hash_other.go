//go:build !amd64 || purego

package sha256x

// hasAVX512 is false: the kernel exists only for amd64 without purego.
const hasAVX512 = false

// hashBlocks16 is never called when hasAVX512 is false.
func hashBlocks16(dst, src *byte, groups, stride int) {
	panic("sha256x: no AVX-512 kernel in this build")
}
