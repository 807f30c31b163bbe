// Package store keeps Gatehouse's data in one bbolt file: the configured
// servers ([Server]), the app [Settings], each server's elicitation
// [Policy] and [ToolPolicy], the history of the questions asked
// ([HistoryEntry]), the model providers ([Provider]), the chat's
// conversations ([Conversation]) with their messages ([Message]), and, when
// the OS keyring is unavailable, the secrets ([Store.Secret]). It is the
// bottom of the layering (main → cli → app → mcp → store): it knows nothing
// of MCP, of any model's API or of the window, and imports only packages
// i18n and visible of Gatehouse's own. What the records mean is decided
// above it: package mcp applies the policies and writes the history, and
// package app saves the conversations and keeps secrets in the OS keyring
// when one answers.
//
// [Open] opens the data file in a directory ([DefaultDir], or
// [DataDirEnv]); [Store.Close] lets it go. Records are read by ID or by
// name and written by Put methods ([Store.Server] and [Store.PutServer],
// [Store.Provider] and [Store.PutProvider], ...); a refused record is
// [ErrInvalid], a missing one [ErrNotFound].
//
// # Rules
//
// The data file holds sign-in tokens and API keys when there is no keyring,
// so no one else may read it, and nothing may damage it:
//
//   - Open creates a missing data directory 0700 and the data file 0600,
//     and narrows the file to 0600 when it is wider. It narrows an existing
//     directory to 0700 only when that directory is Gatehouse's own default
//     one (gatehouse in os.UserConfigDir); a directory the user chose, such
//     as their home, is left as it is. (POSIX modes are not set on
//     Windows.)
//   - Open reads an existing file in full before anything writes to it,
//     and refuses a damaged one ([ErrCorrupt]) or one from a newer
//     Gatehouse ([ErrNewerVersion]) without changing a byte. A file with an
//     older layout is upgraded in one transaction.
//
// # Concurrency
//
// A [Store] holds the file's lock from Open to Close, so one process at a
// time uses a data file; another gets [ErrLocked] once [Options].LockTimeout
// has passed. A Store is safe for concurrent use. Every method is one
// transaction, committed and synced before it returns, so each call sees
// and leaves a consistent file and a process killed at any moment loses
// nothing a returned call stored. Writes take turns (bbolt has one writer
// at a time); a method that writes blocks until its transaction is on
// disk, and no method starts a goroutine.
package store
