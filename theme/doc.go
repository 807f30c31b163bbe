// Package theme knows whether the desktop prefers a light or a dark look. It
// reads the freedesktop appearance setting over D-Bus (the settings portal,
// which GNOME, KDE and others fill from their own "dark style" switch) and
// GTK's own dark preference, follows changes while the app runs, and tells
// GTK which scheme the window shows, so that what GTK draws (a select's
// pop-up menu) matches the page.
//
// WebKitGTK 4.1 (GTK 3) answers the page's prefers-color-scheme from GTK's
// settings only (gtk-application-prefer-dark-theme, a theme name ending in
// "-dark", GTK_THEME=…:dark); GTK 3 never reads the portal. So on a desktop
// whose dark style is set only in the portal, the page cannot see it: Go
// reads it here and tells the window.
//
// A [Desktop] ([Open]) reads the [Sources] of the preference and
// [Sources.Resolve] turns them into a [Scheme] ([Dark], [Light] or
// [NoPreference]): GTK_THEME first, then the portal's color-scheme, then
// GNOME's theme name, then GTK's settings.ini. [Desktop.Watch] follows the
// portal's changes; [ApplyToGTK] tells GTK the scheme the window shows,
// and does nothing in builds without the GTK window. The person's own
// choice (light, dark or the desktop's) is not kept here: package app
// (ThemeService) keeps it in store.Settings, and decides what the window
// shows. theme imports no package of Gatehouse and not Wails; package
// theme/themetest has a stand-in portal for its tests.
//
// # Concurrency
//
// A Desktop's methods are safe for concurrent use. It never starts a bus;
// each reading asks the portal with a short timeout, so that a slow portal
// cannot hold up the window as it opens. Watch blocks on the caller's
// goroutine, calling its callback there, until its context ends, the
// Desktop is closed ([Desktop.Close]) or the bus goes away; package app
// runs it on a goroutine of its own. ApplyToGTK may be called from any
// goroutine once the window exists: it hands the change to GTK's main
// loop.
package theme
