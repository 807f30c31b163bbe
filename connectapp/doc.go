// Package connectapp adds Gatehouse's gateway entry to another app's file
// of MCP servers ("Connect an app"), so that the app reaches the person's
// servers through `gatehouse gateway` and Gatehouse's consent. Optionally
// it also takes out of that file the servers Gatehouse already has, so
// that their secrets live in Gatehouse alone.
//
// It writes only each app's user-level file ([Apps]: Claude Desktop,
// Claude Code's ~/.claude.json, Cursor, VS Code's user mcp.json, Windsurf,
// Gemini CLI, Codex CLI, Qwen Code, Zed), whose places package importcfg
// knows (importcfg.UserFile); there is no way to name another path, so a
// project's file inside a repository is never written.
//
// # Preview, write, undo
//
// A [Connector] works in three steps, each a call a Wails service or the
// command line can make:
//
//   - [Connector.Preview] reads the file and returns a [Change]: the exact
//     change as a unified diff (secret-looking values of the lines around
//     it masked), the entry's name, and the digest of the content read.
//     It writes nothing.
//   - [Connector.Write] applies a Change the person confirmed. It reads the
//     file again and refuses, writing nothing, when the content is not the
//     one the preview was made from, or when what it would write is not
//     what the preview showed (Change.Result). It first copies the file into the
//     backup folder, then replaces the file atomically (a temporary file in
//     the same folder, renamed over it), keeping its permissions. A missing
//     file is created 0600, its missing folders 0700.
//   - [Connector.Undo] puts back the file as it was before the app's last
//     write, refused when the file changed since that write (the app, or
//     the person, wrote it meanwhile).
//
// Everything else in the file is kept as it was, byte for byte: the new
// entry is put in with the file's own indentation, and an edit is only
// made when the file read back is the same as before but for the change
// (checked by parsing both). Comments in JSON with comments (VS Code, Zed,
// Gemini CLI) are kept; a file the edit cannot keep whole (a duplicated
// key, servers that are not an object, TOML servers written as inline
// tables) is refused with a sentence and left untouched.
//
// # Backups
//
// Backups are kept in Gatehouse's data folder ([Connector].BackupDir, a
// folder 0700 with files 0600), not beside the file: the file's folder is
// often synced or kept in a dotfiles repository, where a copy of the file
// with its secrets would spread them, and taking the servers out of the
// app's file is meant to leave their secrets in Gatehouse alone. Each write
// leaves a backup and a record of what it wrote (the digest), which Undo
// uses.
//
// # Concurrency
//
// A Connector has no state of its own beyond its fields: its methods are
// safe for concurrent use on different apps. Two writers of the same file
// (Gatehouse, and the app itself) are told apart by the digest check.
package connectapp
