package importcfg

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// Format is an app whose file of MCP servers Gatehouse reads.
type Format string

// The formats Gatehouse reads.
const (
	ClaudeDesktop Format = "claude-desktop"
	Cursor        Format = "cursor"
	ClaudeCode    Format = "claude-code"
	VSCode        Format = "vscode"
	Windsurf      Format = "windsurf"
	Gemini        Format = "gemini"
	Codex         Format = "codex"
	Zed           Format = "zed"
	Qwen          Format = "qwen"
	CherryStudio  Format = "cherry-studio"
)

// Formats lists every format, in the order sentences name them.
var Formats = []Format{ClaudeDesktop, Cursor, ClaudeCode, VSCode, Windsurf, Gemini, Codex, Zed, Qwen, CherryStudio}

// Name returns the app's name as people know it ("Claude Desktop").
func (f Format) Name() string {
	return map[Format]string{
		ClaudeDesktop: "Claude Desktop", Cursor: "Cursor", ClaudeCode: "Claude Code", VSCode: "VS Code",
		Windsurf: "Windsurf", Gemini: "Gemini CLI", Codex: "Codex CLI", Zed: "Zed", Qwen: "Qwen Code",
		CherryStudio: "Cherry Studio",
	}[f]
}

// formatList names formats as a list in the person's language.
func formatList(fs []Format) i18n.Message {
	items := make([]i18n.Message, len(fs))
	for i, f := range fs {
		items[i] = i18n.Text(f.Name())
	}
	return i18n.List(items...)
}

// ErrUnknownFormat is returned (wrapped in a sentence naming the formats)
// for a file that holds no MCP servers in any format Gatehouse reads.
var ErrUnknownFormat = errors.New("not a file of MCP servers Gatehouse can import")

// ErrSyntax is returned (wrapped in a sentence with the line and column)
// for a file that is broken JSON or TOML.
var ErrSyntax = errors.New("the file cannot be parsed")

// Preview is what importing one file would do. It holds no secret: values
// of environment variables and headers, and secrets in arguments and URLs,
// are masked. It hides nothing that will run: each command line is shown
// whole, and the variables that change how programs run are shown. It is
// JSON for the window as it is.
type Preview struct {
	// File is the path that was read.
	File string `json:"file"`
	// Digest identifies the content that was read (SHA-256, hex), so that
	// applying the preview can refuse a file that changed meanwhile.
	Digest string `json:"digest"`
	// Format is the app that wrote the file, or the likeliest when Guess.
	Format Format `json:"format"`
	// Guess is true when other apps write the same shape: Others names
	// them. The servers read the same whichever it is.
	Guess  bool     `json:"guess"`
	Others []Format `json:"others"`
	// FormatNote says which app wrote the file and, when guessed, why.
	FormatNote i18n.Message `json:"formatNote"`
	// Project is the project folder the file belongs to (a repository's
	// .mcp.json, .vscode/mcp.json, ...), "" for an app's own file in the
	// home folder. Whoever can change that folder wrote these commands.
	Project string `json:"project"`
	// Notes are about the whole file: a warning when it is a project's.
	Notes []Note `json:"notes"`
	// Servers are the file's servers in the file's order.
	Servers []Entry `json:"servers"`
}

// Importable returns the entries that will be imported.
func (p Preview) Importable() []Entry {
	var out []Entry
	for _, e := range p.Servers {
		if e.Import {
			out = append(out, e)
		}
	}
	return out
}

// Entry is one server of the file as it would be imported.
type Entry struct {
	// Key identifies the entry within the file, for choosing it when the
	// preview is applied.
	Key string `json:"key"`
	// SourceName is the server's name in the file; Name is the name it gets
	// in Gatehouse (another when that one is taken; see Notes).
	SourceName string `json:"sourceName"`
	Name       string `json:"name"`
	// Scope is the project a Claude Code server belongs to; "" for servers
	// of the whole file.
	Scope string `json:"scope"`
	// Import is false when the server will not be imported; Notes say why.
	Import bool `json:"import"`
	// Enabled is whether it starts enabled: off when the other app had it
	// turned off.
	Enabled bool `json:"enabled"`
	// Transport is how Gatehouse reaches it: store.TransportStdio or
	// store.TransportHTTP. Kind is how the file says it: "stdio",
	// "streamable HTTP" or "SSE" (Gatehouse falls back to SSE by itself).
	Transport string `json:"transport"`
	Kind      string `json:"kind"`
	// Command, Args and Dir start a stdio server; URL reaches a remote one.
	// Only the secret-looking parts of arguments and URLs are masked (a key,
	// a password, a secret parameter, an option's value named like a
	// secret), never the rest of an argument.
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Dir     string   `json:"dir"`
	URL     string   `json:"url"`
	// CommandLine is Command and Args as one line, quoted as a POSIX shell
	// would quote them (cmdline.Join): exactly what will run, masked as
	// Args are. The window and the command line show it as it is. Empty for
	// a remote server.
	CommandLine string `json:"commandLine"`
	// Env and Headers are the entries that will be imported, values masked
	// but for the variables that change how programs run (Setting.Runtime).
	Env     []Setting `json:"env"`
	Headers []Setting `json:"headers"`
	// Notes say what to look at before importing (NoteWarning, first),
	// what will not be imported and why, and what changes.
	Notes []Note `json:"notes"`

	server store.Server // what will be stored, secrets included
}

// Server returns the record the entry would store: no ID, values unmasked.
func (e Entry) Server() store.Server { return e.server }

// Setting is one environment variable or header as the preview shows it.
type Setting struct {
	Name string `json:"name"`
	// Value is masked, except for a variable that changes how programs run
	// (Runtime), whose value is shown but for a key or password in it.
	Value string `json:"value"`
	// Text is the setting as one piece of text: NAME=VALUE with the value
	// quoted as a shell would (cmdline.Quote), or "Name: value".
	Text string `json:"text"`
	// Runtime is true for a variable that changes how the program runs
	// (PATH, LD_PRELOAD, NODE_OPTIONS, ...): a note of the entry says what
	// it does.
	Runtime bool `json:"runtime"`
}

// NoteKind says what a note is about.
type NoteKind string

// Kinds of notes.
const (
	// NoteSkipped: the server is not imported.
	NoteSkipped NoteKind = "skipped"
	// NoteLeftOut: part of the server (a field, an env entry, a header) is
	// not imported; the server is.
	NoteLeftOut NoteKind = "left-out"
	// NoteChanged: imported differently from the file (a new name, turned
	// off).
	NoteChanged NoteKind = "changed"
	// NoteWarning: something to read before importing — the command runs
	// code written into it or downloaded, a variable changes how programs
	// run, the file belongs to a project folder.
	NoteWarning NoteKind = "warning"
)

// Note is one sentence about an entry.
type Note struct {
	Kind    NoteKind     `json:"kind"`
	Message i18n.Message `json:"message"`
}

// Options is what reading a file needs to know beyond the file. The zero
// value reads with the current user's home folder and no existing servers.
type Options struct {
	// Home fills ${userHome}; empty means os.UserHomeDir.
	Home string
	// Existing are the names of the servers Gatehouse has; an imported
	// server with one of them (ignoring case) is offered a free name.
	Existing []string
}

// Read reads the file at path and returns its preview. The error is a
// sentence: the file cannot be read, is broken (with its line and column;
// errors.Is ErrSyntax) or is in no format Gatehouse reads (errors.Is
// ErrUnknownFormat).
func Read(path string, opts Options) (Preview, error) {
	data, err := ReadBounded(path)
	if err != nil {
		return Preview{}, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return Parse(abs, data, opts)
}

// MaxFileSize is the largest file Read reads: far more than any app's file
// of servers holds (the bound of a message from a server, mcp.MaxMessageSize).
const MaxFileSize = 16 << 20

// ReadBounded reads a regular file of at most MaxFileSize bytes. A file
// found in a folder may be anything its maker put there: a huge file, or a
// named pipe or device that never ends (or never opens); each is refused
// with a sentence instead of being read whole or waited on. A missing file
// gives an error that errors.Is fs.ErrNotExist.
func ReadBounded(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, i18n.Wrap(err, "import.error.read", "file", path, "detail", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, i18n.Err("import.error.notFile", "file", path)
	}
	tooLarge := i18n.Err("import.error.tooLarge", "file", path, "size", i18n.M("units.mb", "n", MaxFileSize>>20))
	if fi.Size() > MaxFileSize {
		return nil, tooLarge
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, i18n.Wrap(err, "import.error.read", "file", path, "detail", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, i18n.Wrap(err, "import.error.read", "file", path, "detail", err)
	}
	if len(data) > MaxFileSize { // it grew since Stat
		return nil, tooLarge
	}
	return data, nil
}

// Parse is Read on content already read from path (used to name the file
// and to find the project folder of ${workspaceFolder}).
func Parse(path string, data []byte, opts Options) (Preview, error) {
	if opts.Home == "" {
		opts.Home, _ = os.UserHomeDir()
	}
	sum := sha256.Sum256(data)
	p := Preview{File: path, Digest: hex.EncodeToString(sum[:]), Others: []Format{}, Servers: []Entry{}, Notes: []Note{}}
	found, err := detect(path, data)
	if err != nil {
		return Preview{}, err
	}
	p.Format, p.Others = found.format, found.others
	p.Guess = len(found.others) > 0
	if p.Guess {
		p.FormatNote = i18n.M("import.format.guess", "format", found.format.Name(), "others", formatList(found.others))
	} else {
		p.FormatNote = i18n.M("import.format.sure", "format", found.format.Name())
	}
	vars := varContext{format: found.format, home: opts.Home, workspace: workspaceOf(path, opts.Home), inputs: found.inputs}
	if vars.workspace != "" {
		// A repository's config is the attacker's first choice (CVE-2025-59536,
		// CVE-2026-21852): say so before anything of it is read.
		p.Project = vars.workspace
		p.Notes = append(p.Notes, Note{NoteWarning, i18n.M("import.project", "folder", vars.workspace)})
	}
	names := newNamer(opts.Existing)
	for _, c := range found.servers {
		p.Servers = append(p.Servers, c.entry(vars, names))
	}
	return p, nil
}

// unknownFormat is the sentence for a file in no format Gatehouse reads.
func unknownFormat(path string) error {
	return i18n.Wrap(ErrUnknownFormat, "import.error.unknown", "file", path, "formats", formatList(Formats))
}
