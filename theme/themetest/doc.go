// Package themetest has a stand-in for the desktop's settings portal on a
// private session bus, for tests of package theme and of the real window.
// The real xdg-desktop-portal is not installed on the test machines, and
// would read the machine's own desktop.
//
// [StartBus] starts a private session bus (dbus-daemon) for one test and
// returns its address; [StartBareBus] starts one that activates no service
// by itself, so that a service the machine installs (a notification
// daemon, say) is there only when the test provides it. Tests of packages
// notify and instance use these buses too. Without dbus-daemon the test is
// skipped, or fails under GATEHOUSE_REQUIRE_PEERS=1 (make test).
//
// [StartPortal] plays the settings portal on such a bus: a [Portal] serves
// the values of its settings (each named by a [Key], such as
// [Appearance]), in portal version 1 or 2, changes them with or without
// announcing it ([Portal.Set], [Portal.Change]), answers slowly on request
// ([Portal.SetDelay]) and counts the questions it was asked
// ([Portal.Reads]). [Emit] sends a signal that looks like the portal's
// from another connection: a look-alike the theme package must not
// believe.
//
// The bus and the portal's connection end with the test that started
// them (t.Cleanup); Emit closes its connection before it returns. A
// Portal's methods are safe for concurrent use, also with the answers it
// gives on the D-Bus connection's goroutines. The package is for tests
// only; it imports nothing of Gatehouse.
package themetest
