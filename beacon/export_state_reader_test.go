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
