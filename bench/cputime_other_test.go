//go:build !unix

package bench_test

// cpuTime cannot tell the CPU time here.
func cpuTime() int64 { return -1 }
