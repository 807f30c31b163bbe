// Package gtkwin is what Gatehouse does with GTK itself, around the window
// Wails draws. Wails owns the window, its web view and GTK's main loop;
// this package does the few things Wails does not:
//
//   - [Open] initialises GTK on the display the environment names before
//     wails.Run, which would panic without one, and returns [ErrNoDisplay]
//     instead (package cli then says so on the terminal);
//   - [ShowError] shows a start-up error in a small dialog, instead of
//     building the main window;
//   - [Present] brings the main window to the front when Gatehouse is
//     started again (package instance hands over the start);
//   - [Screens], [Place] and [PlaceWindow] put the window back where it was
//     (store.Settings keeps where), on a screen that exists now and never
//     off-screen; [CanPlace] says whether the display lets an application
//     place its windows (X11 does, Wayland does not).
//
// Packages cli and app call it; it imports no package of Gatehouse and not
// Wails. Place and [Rect] are plain geometry that every build has. The GTK
// parts only exist in the window's builds (tags dev or production, with cgo
// on Linux); elsewhere they do nothing, and Open only looks at the
// environment (DISPLAY, WAYLAND_DISPLAY).
//
// # Threads
//
// GTK lives on the thread that initialised it. In the window's builds the
// package locks the main goroutine to its thread when it is loaded; Open,
// Screens and ShowError must run on that goroutine, before wails.Run (which
// then runs GTK's loop there). Present and PlaceWindow may be called from
// any goroutine before or while GTK's loop runs: they only schedule their
// work on GTK's thread. Before Open succeeded every GTK function does
// nothing.
package gtkwin
