// Package wire reads the JSON members of TON's API v2 and v3 bodies that
// servers spell in more than one way: integers sent as numbers or as
// strings, hashes in base64 or hex, bags of cells in base64, addresses in
// the raw and the user-friendly forms (with the address codec itself),
// extra currencies as v2's list or v3's map, opcodes as hex strings or
// numbers, finality as a string or an integer. Each member type decodes
// with encoding/json and remembers whether the member was sent; the ton
// package turns them into its own types. Nothing here is part of the ton
// package's API.
package wire
