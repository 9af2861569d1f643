package wire

import "testing"

func TestCRC16(t *testing.T) {
	// The standard check value of CRC-16/XMODEM.
	if got := CRC16([]byte("123456789")); got != 0x31c3 {
		t.Fatalf("CRC16 = %04x, want 31c3", got)
	}
}
