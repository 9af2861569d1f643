package main

import (
	"fmt"
	"io"
	"strings"
)

// barWidth is the number of cells in the progress bar.
const barWidth = 30

// progressBar draws "\r[#####     ]  45%  1.2 MB / 2.7 MB" on one line,
// redrawn in place by each update (beacon.WithProgress calls it every MiB
// and at the end of the body).
type progressBar struct {
	w     io.Writer
	drawn bool
}

func (p *progressBar) update(read, total int64) {
	p.drawn = true
	if total <= 0 { // no Content-Length: no bar, only the count
		fmt.Fprintf(p.w, "\r%s", size(read))
		return
	}
	frac := min(float64(read)/float64(total), 1)
	cells := int(frac * barWidth)
	fmt.Fprintf(p.w, "\r[%s%s] %3d%%  %s / %s",
		strings.Repeat("#", cells), strings.Repeat(" ", barWidth-cells), int(frac*100), size(read), size(total))
}

// end finishes the bar's line, if one was drawn.
func (p *progressBar) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}

// size formats n bytes in decimal units: "812 B", "3.4 kB", "5.0 MB",
// "1.2 GB".
func size(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1_000_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}
