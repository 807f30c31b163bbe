// Package app is the core the window and the command line share, and the
// thin services that bind it to the window.
//
// A [Core] ([OpenCore]) is the open [store.Store], the [mcp.Manager] that
// keeps a session to every enabled server, and the [mcp.Broker] that owns
// every question put to the person. One Core runs per data folder: the
// window's, or a command's when no window is open.
//
// The window calls the bound services, one per pane or concern:
// [ServersService], [ToolsService], [ResourcesService], [PromptsService],
// [ChatService], [ProvidersService], [PoliciesService], [QuestionService],
// [SettingsService], [ThemeService] and [ImportService]. They are thin:
// they turn the core's types into views ([QuestionView], [ToolResultView],
// [HistoryView], ...) whose every sentence is an [i18n.Message], and they
// hold no state of their own that the core does not own. Wails generates
// their TypeScript bindings (make bindings). The window follows the core
// through events (EventQuestions, EventChat, EventServers, ...), sent with
// Core.emit; list and resource events are coalesced per thing.
//
// The command line's commands are [Commands]: one method each, served as
// the tools of an [applink.Server] ([Core.ServeCLI] on the app's socket
// while the window is open, [Core.ConnectCLI] in memory otherwise).
//
// [OpenLink] is the one function that opens a URL, after the person's
// consent and a fresh check. [RunGUI] runs the window; the files that
// drive it (gui.go, window.go, startpage.go, pagepolicy*.go,
// importdialog.go) are the only ones here that import Wails, and nothing
// below this package does.
//
// # Concurrency
//
// A Core and its services are safe for concurrent use: Wails calls bound
// methods on goroutines of its own, and the CLI's server runs each command
// on the session's goroutine. A chat turn runs on a goroutine of its own
// (ChatService.Send returns at once) until it ends or is stopped
// (ChatService.StopAll). Close stops the CLI's server and the sessions,
// writes the history still pending, and closes the store.
package app
