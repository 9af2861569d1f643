package beacon

// ScanEnvelope runs DownloadState's envelope scanner over the pieces of a
// body, in order, and returns what it reports.
func ScanEnvelope(pieces ...[]byte) (string, *Flags) {
	var s envelopeScanner
	for _, p := range pieces {
		s.write(p)
	}
	return s.result()
}
