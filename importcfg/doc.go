// Package importcfg reads the MCP servers other apps have configured (Claude
// Desktop, Cursor, Claude Code, VS Code, Windsurf, Gemini CLI, Codex CLI,
// Zed, Cherry Studio: [Formats]) and turns them into a [Preview]: each
// server as Gatehouse would store it (an [Entry], whose [Entry.Server] is
// the store.Server it would add), what will and will not be imported and
// why ([Note]), with the values of environment variables and headers
// masked ([Setting], [Masked]).
//
// [KnownLocations] lists the files at the places the apps keep their
// servers; [Read] (or [Parse], on content already read) makes a file's
// Preview. The package writes nothing: package app applies a preview the
// person confirmed (app.ServersService.Import), each server through the
// same checks as adding one by hand, and refuses a file that changed since
// its preview (Preview.Digest). It sits beside package store, whose Server
// type it fills, and imports no package above it.
//
// A file's format is found from its content, never from its name, so a
// file copied or renamed still imports. Several apps share one shape (an
// "mcpServers" object of command, args and env): the Preview then names the
// likeliest app and says it is a guess, and the servers read the same
// whichever app wrote the file.
//
// # Rules
//
// A preview hides nothing that will run and shows no secret. Each command
// line is shown exactly as it will run (quoted as a shell would, only its
// secret-looking parts masked, mask.go), the variables that change how
// programs run are shown in full (runtimevars.go), and a [NoteWarning]
// marks code written into a command line or downloaded and run
// (shape.go), and a file that belongs to a project folder.
//
// Values that refer to something only the source app knows are never
// copied as text, and no variable of the environment Gatehouse runs in is
// read (only the home folder, for ${userHome}, when [Options].Home is
// empty):
//   - ${env:VAR}, ${VAR} (and, in Gemini CLI files, $VAR) name a variable of
//     the environment the other app runs in. Reading it now would copy a
//     secret that file deliberately kept out into Gatehouse's data file, and
//     the command line and the window see different environments, so the
//     same file would import differently from each. An env entry or header
//     made from one is left out, and the preview says which and why.
//   - ${input:ID} is a value VS Code asks its user for; it is left out the
//     same way, named by the input's description.
//   - ${userHome} is the home folder; ${workspaceFolder} is the folder the
//     file belongs to when it sits in a project's .vscode or .cursor folder.
//     Both are filled in.
//
// A reference that cannot be filled in inside the command, its arguments,
// its folder or its URL leaves the whole server out: dropping part of a
// command would run something else.
//
// # Concurrency
//
// The package has no state: every function is safe for concurrent use,
// runs on the caller's goroutine and returns values the caller owns. Read
// reads at most [MaxFileSize] bytes of one file; KnownLocations only looks
// at which files exist.
package importcfg
