package beacon

// FieldNames returns the names of the fields of a state of fork v and
// preset p, in SSZ order, as the consensus specs spell them.
func FieldNames(v Version, p Preset) []string {
	fields := (&State{Version: v, Preset: p}).fields()
	out := make([]string, len(fields))
	for i := range fields {
		out[i] = fields[i].name
	}
	return out
}

// VarOffsetAt returns, for each variable-size field of a state of fork v
// and preset p (in SSZ order), the byte of the fixed part that holds its
// offset.
func VarOffsetAt(v Version, p Preset) (names []string, at []int) {
	fields := (&State{Version: v, Preset: p}).fields()
	pos := 0
	for i := range fields {
		if fields[i].variable() {
			names, at = append(names, fields[i].name), append(at, pos)
		}
		pos += fields[i].fixedSize()
	}
	return names, at
}
