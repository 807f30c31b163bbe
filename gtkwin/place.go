package gtkwin

// A Rect is an area of the desktop in its pixels: a window's frame or a
// screen's work area (the screen without panels and docks).
type Rect struct{ X, Y, Width, Height int }

// Place returns where a window last seen at w opens on screens: on the
// screen it overlaps most, moved (and, if larger, shrunk) so that all of it
// is on that screen. ok is false when no part of w is on any screen (the
// screen it was on is gone, or nothing was saved): the window then opens
// where the toolkit puts it, never off-screen.
func Place(w Rect, screens []Rect) (placed Rect, ok bool) {
	best, bestArea := Rect{}, 0
	for _, s := range screens {
		if a := overlap(w, s); a > bestArea {
			best, bestArea = s, a
		}
	}
	if bestArea == 0 {
		return Rect{}, false
	}
	placed = w
	placed.Width = min(placed.Width, best.Width)
	placed.Height = min(placed.Height, best.Height)
	placed.X = clamp(placed.X, best.X, best.X+best.Width-placed.Width)
	placed.Y = clamp(placed.Y, best.Y, best.Y+best.Height-placed.Height)
	return placed, true
}

// overlap is the area a and b share.
func overlap(a, b Rect) int {
	w := min(a.X+a.Width, b.X+b.Width) - max(a.X, b.X)
	h := min(a.Y+a.Height, b.Y+b.Height) - max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
