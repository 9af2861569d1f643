package main

import (
	"fmt"
	"io"
	"strings"
)

// barWidth is the number of cells in the progress bar.
const barWidth = 30

// progressBar draws "\r[#####     ]  45%  1.2 MB / 2.7 MB" on one line,
// redrawn in place by each update (DownloadOptions.Progress calls it every MiB
// and at the end of the body). A frame narrower than the one before is
// padded with spaces to that one's width, so that no characters of the
// longer frame stay on the line ("999.9 kB" then "1.0 MB  "); plain spaces
// rather than an escape sequence, so that a file or any terminal shows the
// same.
//
// A count that does not grow means DownloadState is fetching the body again
// after it broke off (Progress then counts from 0 again): the bar says
// so and starts again on a new line, rather than going backwards.
type progressBar struct {
	w     io.Writer
	drawn bool
	read  int64 // the count of the last frame
	width int   // the last frame's width (frames are ASCII: bytes are cells)
}

func (p *progressBar) update(read, total int64) {
	if p.drawn && read <= p.read {
		fmt.Fprintf(p.w, "\nThe download broke off after %s; fetching the state again from the start.\n", size(p.read))
		p.width = 0
	}
	p.drawn = true
	p.read = read
	var frame string
	if total <= 0 { // no Content-Length: no bar, only the count
		frame = size(read)
	} else {
		frac := min(float64(read)/float64(total), 1)
		cells := int(frac * barWidth)
		frame = fmt.Sprintf("[%s%s] %3d%%  %s / %s",
			strings.Repeat("#", cells), strings.Repeat(" ", barWidth-cells), int(frac*100), size(read), size(total))
	}
	fmt.Fprintf(p.w, "\r%s%s", frame, strings.Repeat(" ", max(p.width-len(frame), 0)))
	p.width = len(frame)
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
