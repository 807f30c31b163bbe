package gtkwin

import "testing"

func TestPlace(t *testing.T) {
	laptop := Rect{0, 0, 1920, 1080}
	// A second monitor to the right of the laptop's, its top lower.
	right := Rect{1920, 200, 2560, 1440}
	for _, tc := range []struct {
		name    string
		window  Rect
		screens []Rect
		want    Rect
		wantOK  bool
	}{
		{"a window fully on its screen opens where it was",
			Rect{100, 80, 1100, 760}, []Rect{laptop}, Rect{100, 80, 1100, 760}, true},
		{"a window on the second monitor opens there",
			Rect{2400, 500, 1100, 760}, []Rect{laptop, right}, Rect{2400, 500, 1100, 760}, true},
		{"a window on a monitor that is gone opens where the toolkit puts it",
			Rect{2400, 500, 1100, 760}, []Rect{laptop}, Rect{}, false},
		{"a window hanging off the right edge is pulled onto the screen",
			Rect{1500, 100, 1100, 760}, []Rect{laptop}, Rect{820, 100, 1100, 760}, true},
		{"a window above and left of the screen is pulled onto it",
			Rect{-300, -40, 1100, 760}, []Rect{laptop}, Rect{0, 0, 1100, 760}, true},
		{"a window across two monitors goes to the one with more of it",
			Rect{1700, 300, 1100, 760}, []Rect{laptop, right}, Rect{1920, 300, 1100, 760}, true},
		{"a window larger than the screen is shrunk to it",
			Rect{0, 0, 2560, 1440}, []Rect{laptop}, Rect{0, 0, 1920, 1080}, true},
		{"a window that only touches the screen's edge is not on it",
			Rect{1920, 0, 800, 600}, []Rect{laptop}, Rect{}, false},
		{"no screens known: the toolkit places it",
			Rect{100, 80, 1100, 760}, nil, Rect{}, false},
		{"a panel's strip is not part of the work area",
			Rect{0, 0, 1100, 760}, []Rect{{0, 32, 1920, 1048}}, Rect{0, 32, 1100, 760}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Place(tc.window, tc.screens)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("Place(%v, %v) = %v, %v; want %v, %v", tc.window, tc.screens, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}
