package app

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log"
	"sync/atomic"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/gatehouse-app/gatehouse/appframe"
	"github.com/gatehouse-app/gatehouse/gtkwin"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/icon"
	"github.com/gatehouse-app/gatehouse/instance"
	"github.com/gatehouse-app/gatehouse/notify"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/theme"
)

// windowError is how an error of a bound method reaches the window: the
// JSON of the message it says ({key, args, text}), which the window renders
// in its own language, or its text when it is not Gatehouse's own sentence.
// It is text either way, because Wails' runtime makes every error an Error
// from what it is given (new Error(value)), which loses an object.
//
// An error with details the person may want (a *BrowserError: what the
// browser opener said) adds them as "details", which the window shows
// folded under the sentence; "key" stays first, as the window looks for it.
func windowError(err error) any {
	if m, ok := i18n.MessageOf(err); ok {
		var v any = m
		var d interface{ Details() string }
		if errors.As(err, &d) && d.Details() != "" {
			args := m.Args
			if args == nil {
				args = map[string]any{}
			}
			v = struct {
				Key     string         `json:"key"`
				Args    map[string]any `json:"args"`
				Text    string         `json:"text"`
				Details string         `json:"details"`
			}{m.Key, args, m.String(), d.Details()}
		}
		if b, jerr := json.Marshal(v); jerr == nil {
			return string(b)
		}
	}
	return err.Error()
}

// GUIOptions configures RunGUI.
type GUIOptions struct {
	// Assets is the built frontend (the contents of frontend/dist).
	Assets fs.FS
	// Core is the opened core; nil only when the Wails CLI builds the
	// program to read its bindings.
	Core *Core
	// LaterStarts are the later starts of Gatehouse handed to this one
	// (instance.Lock.Starts): each brings the window to the front.
	LaterStarts <-chan instance.Start
}

// wailsDesktop reaches the running window through the Wails runtime: events,
// dialogs and attention; and the desktop's notifications through our own
// notifier (Wails' sends no icon on Linux). Both exist once the app started.
type wailsDesktop struct {
	ctx      atomic.Pointer[context.Context]
	notifier atomic.Pointer[notify.Notifier]
}

func (d *wailsDesktop) start(ctx context.Context) {
	d.ctx.Store(&ctx)
}

// openNotifier opens the desktop's notifications (a D-Bus connection): after
// the window's first frame (laterStart), as no question comes before the
// servers connect.
func (d *wailsDesktop) openNotifier() {
	// A click on the notification brings the window back. Without a
	// session bus or a notification service the notifier says so once,
	// and requests simply wait in the window.
	d.notifier.Store(notify.Open(notify.Options{OnActivate: d.Attention}))
}

func (d *wailsDesktop) stop() {
	if n := d.notifier.Load(); n != nil {
		_ = n.Close()
	}
}

func (d *wailsDesktop) context() (context.Context, bool) {
	p := d.ctx.Load()
	if p == nil {
		return nil, false
	}
	return *p, true
}

// Emit implements Emitter.
func (d *wailsDesktop) Emit(name string, data any) {
	if ctx, ok := d.context(); ok {
		wruntime.EventsEmit(ctx, name, data)
	}
}

// Notify implements Desktop: Gatehouse's notification, with its name and
// icon, replaces the previous one. No notification service is not an error
// here: the notifier has logged it once.
func (d *wailsDesktop) Notify(title, body string) error {
	n := d.notifier.Load()
	if n == nil {
		return errors.New("the window is not open yet")
	}
	err := n.Notify(context.Background(), notify.Message{Summary: title, Body: body, ActionLabel: i18n.M("notify.open").String()})
	if errors.Is(err, notify.ErrUnavailable) {
		return nil
	}
	return err
}

// Withdraw implements Desktop: the answered question's notification goes.
func (d *wailsDesktop) Withdraw() {
	if n := d.notifier.Load(); n != nil {
		if err := n.Withdraw(context.Background()); err != nil {
			log.Print("gatehouse: ", err)
		}
	}
}

// SaveFile implements FileChooser with the system's save dialog.
func (d *wailsDesktop) SaveFile(title, defaultName string) (string, error) {
	ctx, ok := d.context()
	if !ok {
		return "", errors.New("the window is not open yet")
	}
	return wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{Title: title, DefaultFilename: defaultName,
		CanCreateDirectories: true, Filters: []wruntime.FileFilter{{DisplayName: i18n.M("app.markdownFiles").String(), Pattern: "*.md"}}})
}

// SaveAnyFile implements FileSaver with the system's save dialog, for a
// file of any kind.
func (d *wailsDesktop) SaveAnyFile(title, defaultName string) (string, error) {
	ctx, ok := d.context()
	if !ok {
		return "", errors.New("the window is not open yet")
	}
	return wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{Title: title, DefaultFilename: defaultName, CanCreateDirectories: true})
}

// OpenFile implements FileOpener with the system's open dialog.
func (d *wailsDesktop) OpenFile(opts wruntime.OpenDialogOptions) (string, error) {
	ctx, ok := d.context()
	if !ok {
		return "", errors.New("the window is not open yet")
	}
	return wruntime.OpenFileDialog(ctx, opts)
}

// OpenFolder implements FolderOpener with the system's folder dialog.
func (d *wailsDesktop) OpenFolder(title, start string) (string, error) {
	ctx, ok := d.context()
	if !ok {
		return "", errors.New("the window is not open yet")
	}
	return wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: title, DefaultDirectory: start, CanCreateDirectories: true})
}

// Attention implements Desktop: it brings a minimised window back.
func (d *wailsDesktop) Attention() {
	if ctx, ok := d.context(); ok {
		wruntime.WindowUnminimise(ctx)
		wruntime.WindowShow(ctx)
	}
}

// gtkTheme is the desktop side of the window's theme on Linux: the
// settings portal and GTK's settings, and GTK's dark preference.
type gtkTheme struct{ *theme.Desktop }

// Show implements ThemeDesktop.
func (gtkTheme) Show(s theme.Scheme) { theme.ApplyToGTK(s) }

// RunGUI opens the main window and blocks until it is closed. The window
// appears at once; servers connect in the background once its first frame
// is drawn (laterStart).
func RunGUI(opts GUIOptions) error {
	core := opts.Core
	desktop := &wailsDesktop{}
	desktopTheme := theme.Open()
	themes := NewThemeService(core, gtkTheme{desktopTheme})
	servers := NewServersService(core)
	servers.folders = desktop
	settings := NewSettingsService(core)
	later := &laterStart{}
	bind := []any{&QuestionService{}, servers, NewToolsService(core), settings,
		NewProvidersService(core), &ChatService{}, NewPoliciesService(core), themes, &StartService{later: later}}
	apps := NewAppsService(core)
	bind = append(bind, NewImportService(NewServersService(core), desktop), NewResourcesService(core, desktop), NewPromptsService(core),
		apps, NewClientAppsService(core), NewConnectService(core))
	if core != nil {
		bind[0] = NewQuestionService(core, desktop)
		chat := core.Chat() // the command line's turns run there too
		chat.files = desktop
		bind[5] = chat
		core.EnableSampling() // the consent dialog reviews sampling requests
	}
	window := restoredWindow(store.Settings{}, nil)
	ApplyLanguage("") // until the settings say otherwise: the system's
	scheme := theme.Scheme("")
	if core != nil {
		if s, err := core.Store.Settings(); err == nil {
			ApplyLanguage(s.Language)
			window = restoredWindow(s, gtkwin.Screens())
		}
		if v, err := themes.Get(); err == nil {
			scheme = v.Scheme()
		}
	}
	r, g, b := windowBackground(scheme)
	assets := &assetserver.Options{Assets: opts.Assets}
	var start assetserver.Middleware
	if core != nil {
		start = windowPage(settings, themes, servers, apps)
	}
	assets.Middleware = assetMiddleware(pagePolicy(), start)
	// Before Wails makes its view: its bridge to Go is kept to the page's top
	// frame, out of reach of every frame in the page, such as an MCP App's.
	// Without it no app is served (appframe.Serve fails).
	if err := appframe.Install(); err != nil {
		log.Printf("gatehouse: %v", err)
	}
	return wails.Run(&options.App{
		Title:            windowTitle,
		Width:            window.width,
		Height:           window.height,
		MinWidth:         minWindowWidth,
		MinHeight:        minWindowHeight,
		WindowStartState: window.startState(),
		// The page's own background, so a dark window does not flash white while it loads.
		BackgroundColour: &options.RGBA{R: r, G: g, B: b, A: 255},
		// The page comes with what its first frame shows (startPage).
		AssetServer: assets,
		// The window manager shows it in the title bar and the task switcher.
		// WebKit paints without GPU compositing, as Wails' default does when no
		// Linux options are given (wails#2977): a non-nil Options' zero value
		// is "on demand", and the first consent dialog (its backdrop) then
		// switched the page to composited mode, which took 1.2 s before the
		// dialog showed and made every later one about 40 % slower to paint
		// (issue 15, P7; without a GPU, as under Xvfb, GL is software).
		Linux: &linux.Options{Icon: icon.Window(), WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
		OnStartup: func(ctx context.Context) {
			if core == nil {
				return
			}
			window.restore()
			go bringForward(ctx, opts.LaterStarts)
			desktop.start(ctx)
			core.SetEmitter(desktop)
			themes.show()
			// The rest once the page's first frame is drawn (startup.go).
			later.arm(func() {
				desktop.openNotifier()
				go func() {
					// Follow the desktop's dark style switch while the window is open.
					if err := desktopTheme.Watch(ctx, themes.systemChanged); err != nil && ctx.Err() == nil {
						log.Printf("gatehouse: the desktop's light/dark changes are not followed: %v", err)
					}
				}()
				if err := core.ConnectAll(); err != nil {
					log.Printf("gatehouse: reading servers: %v", err)
				}
				if err := core.ServeCLI(); err != nil { // the CLI works while the window is open (issue 13)
					log.Printf("gatehouse: %v", err)
				}
				if err := core.ServeGateway(); err != nil { // other apps use the servers through it (issue 25)
					log.Printf("gatehouse: %v", err)
				}
			}, laterStartWait)
		},
		OnBeforeClose: func(ctx context.Context) bool {
			if core != nil {
				saveWindow(ctx, core)
			}
			return false
		},
		OnShutdown: func(context.Context) {
			later.stop()
			_ = desktopTheme.Close()
			desktop.stop()
			if core != nil {
				if chat, ok := bind[5].(*ChatService); ok {
					chat.StopAll() // a turn stores what it has before the store closes
				}
				if err := core.Close(); err != nil {
					log.Printf("gatehouse: closing: %v", err)
				}
			}
		},
		Bind: bind,
		// Enums of Go that models.ts declares, so that the window's words
		// for them are Go's.
		EnumBind: []any{[]struct {
			Value  store.ToolMode
			TSName string
		}{{store.ToolAsk, "ASK"}, {store.ToolAllow, "ALLOW"}, {store.ToolDeny, "DENY"}, {store.ToolDefault, "DEFAULT"}}},
		ErrorFormatter: windowError,
	})
}
