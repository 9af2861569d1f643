// Package jsontext holds what the chain packages share for reading JSON
// string values whose text they parse themselves (hex bytes, addresses):
// such a value may arrive spelt with JSON escapes ("\u0030x1f" for
// "0x1f"), and must read as what it means. It also holds the decoding
// policy's machinery (Soft, Unread, Enum): a secondary member a chain
// package cannot read costs neither its item nor the page.
package jsontext
