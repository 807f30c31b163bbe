package app

import (
	"context"
	"io/fs"
	"log"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// GUIOptions configures RunGUI.
type GUIOptions struct {
	// Assets is the built frontend (the contents of frontend/dist).
	Assets fs.FS
	// Core is the opened core; nil when StartupError is set.
	Core *Core
	// StartupError, when set, is shown in a dialog and the app quits:
	// "Gatehouse is already running", a damaged data file, ...
	StartupError error
}

// wailsEmitter sends events through the Wails runtime of a running window.
type wailsEmitter struct{ ctx context.Context }

func (e wailsEmitter) Emit(name string, data any) { wruntime.EventsEmit(e.ctx, name, data) }

// RunGUI opens the main window and blocks until it is closed. The window
// appears at once; servers connect in the background after start-up.
func RunGUI(opts GUIOptions) error {
	core := opts.Core
	width, height := 1100, 760
	if core != nil {
		if s, err := core.Store.Settings(); err == nil && s.WindowWidth >= 720 && s.WindowHeight >= 480 {
			width, height = s.WindowWidth, s.WindowHeight
		}
	}
	return wails.Run(&options.App{
		Title:     "Gatehouse",
		Width:     width,
		Height:    height,
		MinWidth:  720,
		MinHeight: 480,
		AssetServer: &assetserver.Options{
			Assets: opts.Assets,
		},
		OnStartup: func(ctx context.Context) {
			if core == nil {
				return
			}
			core.SetEmitter(wailsEmitter{ctx})
			if err := core.ConnectAll(); err != nil {
				log.Printf("gatehouse: reading servers: %v", err)
			}
		},
		OnDomReady: func(ctx context.Context) {
			if opts.StartupError != nil {
				_, _ = wruntime.MessageDialog(ctx, wruntime.MessageDialogOptions{
					Type:    wruntime.ErrorDialog,
					Title:   "Gatehouse cannot start",
					Message: opts.StartupError.Error(),
				})
				wruntime.Quit(ctx)
			}
		},
		OnBeforeClose: func(ctx context.Context) bool {
			if core != nil {
				saveWindowSize(ctx, core)
			}
			return false
		},
		OnShutdown: func(context.Context) {
			if core != nil {
				if err := core.Close(); err != nil {
					log.Printf("gatehouse: closing: %v", err)
				}
			}
		},
		Bind: []any{NewServersService(core), NewToolsService(core), NewSettingsService(core)},
	})
}

func saveWindowSize(ctx context.Context, core *Core) {
	w, h := wruntime.WindowGetSize(ctx)
	s, err := core.Store.Settings()
	if err != nil {
		return
	}
	s.WindowWidth, s.WindowHeight = w, h
	if err := core.Store.PutSettings(s); err != nil {
		log.Printf("gatehouse: saving the window size: %v", err)
	}
}
