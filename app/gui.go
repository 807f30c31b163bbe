package app

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// GUIOptions configures RunGUI.
type GUIOptions struct {
	// Assets is the built frontend (frontend/dist).
	Assets fs.FS
	// StartupError, when set, is shown in a dialog and the app quits:
	// "Gatehouse is already running", a corrupt data file, ...
	StartupError error
}

// RunGUI opens the main window and blocks until it is closed.
func RunGUI(opts GUIOptions) error {
	servers := &ServersService{}
	tools := &ToolsService{}
	settings := &SettingsService{}
	return wails.Run(&options.App{
		Title:     "Gatehouse",
		Width:     1100,
		Height:    760,
		MinWidth:  720,
		MinHeight: 480,
		AssetServer: &assetserver.Options{
			Assets: opts.Assets,
		},
		OnDomReady: func(ctx context.Context) {
			if opts.StartupError != nil {
				_, _ = wruntime.MessageDialog(ctx, wruntime.MessageDialogOptions{
					Type:    wruntime.ErrorDialog,
					Title:   "Gatehouse cannot start",
					Message: fmt.Sprint(opts.StartupError),
				})
				wruntime.Quit(ctx)
			}
		},
		Bind: []any{servers, tools, settings},
	})
}
