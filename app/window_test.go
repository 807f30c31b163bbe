package app

import (
	"fmt"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/options"

	"github.com/gatehouse-app/gatehouse/gtkwin"
	"github.com/gatehouse-app/gatehouse/store"
)

func TestRestoredWindow(t *testing.T) {
	screen := []gtkwin.Rect{{X: 0, Y: 0, Width: 1920, Height: 1080}}
	small := []gtkwin.Rect{{X: 0, Y: 0, Width: 1280, Height: 720}}
	at := func(x, y, w, h int) *gtkwin.Rect { return &gtkwin.Rect{X: x, Y: y, Width: w, Height: h} }
	for _, tc := range []struct {
		name     string
		saved    store.Settings
		screens  []gtkwin.Rect
		want     windowLayout
		maxStart bool
	}{
		{"a first start opens the default size where the toolkit puts it",
			store.Settings{}, screen, windowLayout{width: 1100, height: 760}, false},
		{"the saved size and position come back",
			store.Settings{WindowWidth: 900, WindowHeight: 600, WindowX: 300, WindowY: 200, WindowPlaced: true}, screen,
			windowLayout{width: 900, height: 600, at: at(300, 200, 900, 600)}, false},
		{"a position saved at the desktop's corner is a position",
			store.Settings{WindowWidth: 900, WindowHeight: 600, WindowPlaced: true}, screen,
			windowLayout{width: 900, height: 600, at: at(0, 0, 900, 600)}, false},
		{"a size saved before positions were kept opens centred",
			store.Settings{WindowWidth: 900, WindowHeight: 600}, screen, windowLayout{width: 900, height: 600}, false},
		{"a window partly off a now smaller screen is moved onto it",
			store.Settings{WindowWidth: 1100, WindowHeight: 700, WindowX: 1000, WindowY: 400, WindowPlaced: true}, small,
			windowLayout{width: 1100, height: 700, at: at(180, 20, 1100, 700)}, false},
		{"a window on a screen that is gone opens centred, keeping its size",
			store.Settings{WindowWidth: 1100, WindowHeight: 700, WindowX: 1700, WindowY: 900, WindowPlaced: true}, small,
			windowLayout{width: 1100, height: 700}, false},
		{"a saved size larger than the screen is shrunk to it",
			store.Settings{WindowWidth: 2400, WindowHeight: 1300, WindowX: 10, WindowY: 10, WindowPlaced: true}, small,
			windowLayout{width: 1280, height: 720, at: at(0, 0, 1280, 720)}, false},
		{"a saved size below the minimum is not used",
			store.Settings{WindowWidth: 300, WindowHeight: 200}, screen, windowLayout{width: 1100, height: 760}, false},
		{"a maximised window is maximised again after moving to its screen",
			store.Settings{WindowWidth: 900, WindowHeight: 600, WindowX: 300, WindowY: 200, WindowPlaced: true, WindowMaximised: true}, screen,
			windowLayout{width: 900, height: 600, at: at(300, 200, 900, 600), maximise: true}, false},
		{"a maximised window without a position starts maximised",
			store.Settings{WindowMaximised: true}, screen, windowLayout{width: 1100, height: 760, maximise: true}, true},
		{"without the toolkit's screens nothing is placed",
			store.Settings{WindowWidth: 900, WindowHeight: 600, WindowX: 300, WindowY: 200, WindowPlaced: true}, nil,
			windowLayout{width: 900, height: 600}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := restoredWindow(tc.saved, tc.screens)
			if got.width != tc.want.width || got.height != tc.want.height || got.maximise != tc.want.maximise ||
				(got.at == nil) != (tc.want.at == nil) || (got.at != nil && *got.at != *tc.want.at) {
				t.Errorf("restoredWindow = %s; want %s", describe(got), describe(tc.want))
			}
			if wantState := map[bool]options.WindowStartState{true: options.Maximised, false: options.Normal}[tc.maxStart]; got.startState() != wantState {
				t.Errorf("start state %v, want %v", got.startState(), wantState)
			}
		})
	}
}

func describe(l windowLayout) string {
	s := fmt.Sprintf("%dx%d centred", l.width, l.height)
	if l.at != nil {
		s = fmt.Sprintf("%dx%d at %d,%d", l.width, l.height, l.at.X, l.at.Y)
	}
	if l.maximise {
		s += ", maximised"
	}
	return s
}
