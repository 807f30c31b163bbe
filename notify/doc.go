// Package notify shows Gatehouse's desktop notifications through the
// desktop's notification service: org.freedesktop.Notifications on the
// session bus, as the Desktop Notifications Specification (version 1.2)
// describes it. Package app uses it to announce a question that waits in
// the window, and to take the announcement back once the question is
// answered.
//
// A [Notifier] ([Open] on the session bus, [New] on a connection the caller
// opened) sends each [Message] with the app's name ([AppName]), icon
// ([IconName], and the icon's pixels as an [Image] of [ImageSize]) and
// desktop entry ([DesktopEntry]). [Notifier.Notify] replaces Gatehouse's
// own previous notification instead of stacking a new one,
// [Notifier.Withdraw] takes it off the screen, and [Options].OnActivate
// reports a click on it. The summary and body are plain text: when the
// service reads markup in bodies, the body's markup characters are
// escaped, so a server's "<a href=...>" stays text. Only signals sent by
// the notification service itself count as a click.
//
// The package knows nothing of the window, of Wails or of the questions,
// so that it can be tested on a private bus (package theme/themetest
// starts one) without them. Without a session bus or a notification
// service it never starts one: Notify returns an error wrapping
// [ErrUnavailable] and logs one line, the first time only.
//
// # Concurrency
//
// A Notifier's methods are safe for concurrent use. Notify and Withdraw
// block for at most a few seconds each (a service that hangs must not
// hold up the caller) or until their context ends; one notification is
// sent at a time. New starts one goroutine that follows the service's
// signals and calls OnActivate on it; [Notifier.Close] closes the
// connection and waits for that goroutine to end.
package notify
