package connectapp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
	"github.com/gatehouse-app/gatehouse/store"
)

// ErrChanged is returned (wrapped in a sentence) when a file is not the
// one a preview was made from, or not the one Gatehouse wrote when undoing.
var ErrChanged = errors.New("the file changed")

// A Connector connects apps to Gatehouse's gateway. Its zero value works
// on the current user's home folder but cannot write (BackupDir is empty).
type Connector struct {
	// Home is the home folder whose apps are connected; "" means
	// os.UserHomeDir.
	Home string
	// BackupDir is the folder for backups and the record of writes that
	// Undo reads: a folder of Gatehouse's data folder (created 0700).
	// Write and Undo refuse without one.
	BackupDir string
	// Now is the clock backups are named by; nil means time.Now.
	Now func() time.Time
}

// Request is what to change in one app's file.
type Request struct {
	// App is the app's ID (AppIDs: "claude-code", "codex", ...).
	App string `json:"app"`
	// Entry is the gateway entry (GatewayEntry); its Name is chosen anew.
	Entry Entry `json:"entry"`
	// Replace also takes out of the file the servers Gatehouse has, so
	// that the app reaches them through the gateway alone.
	Replace bool `json:"replace"`
	// Have are the servers Gatehouse has. With Replace, a server of the
	// file is taken out only when importing it would store one of them as
	// it is (the same command, arguments, environment and folder, or the
	// same address and headers) and nothing of it would be left out.
	Have []store.Server `json:"-"`
}

// Change is the preview of a Request: what Write will do to the file. It
// holds no secret (the diff's secret-looking values are masked) and is
// JSON for the window as it is.
type Change struct {
	// App is the app's ID ("claude-code"), AppName its name as people
	// know it ("Claude Code").
	App     string `json:"app"`
	AppName string `json:"appName"`
	// File is the path written: the app's file, symbolic links resolved.
	File string `json:"file"`
	// Exists is false when the file will be created.
	Exists bool `json:"exists"`
	// Digest identifies the content read (SHA-256, hex; "" for no file):
	// Write refuses a file whose content is another.
	Digest string `json:"digest"`
	// Entry is the gateway entry as the file will have it.
	Entry Entry `json:"entry"`
	// Unchanged is true when the file already has the entry and nothing is
	// to be taken out: Write has nothing to do.
	Unchanged bool `json:"unchanged"`
	// Removed are the servers taken out of the file (Request.Replace);
	// Kept the file's other servers, left because Gatehouse does not have
	// them as they are.
	Removed []string `json:"removed"`
	Kept    []string `json:"kept"`
	// Diff is the change as a unified diff.
	Diff string `json:"diff"`
	// Result identifies the content Write will write (SHA-256, hex), so
	// that Write refuses to write anything else than what was shown (the
	// servers Gatehouse has changed meanwhile).
	Result string `json:"result"`
}

// Written is what Write did.
type Written struct {
	File string `json:"file"`
	// Backup is the copy of the file as it was; "" when the file was
	// created.
	Backup  string   `json:"backup"`
	Created bool     `json:"created"`
	Removed []string `json:"removed"`
}

// prepared is a Change with what writing it needs.
type prepared struct {
	Change
	app  app
	old  []byte
	new  []byte
	mode fs.FileMode
}

// home returns the home folder to work in.
func (c Connector) home() (string, error) {
	if c.Home != "" {
		return c.Home, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", i18n.Wrap(err, "connect.error.home", "detail", err)
	}
	return h, nil
}

// Preview reads the app's file and returns what writing the request would
// change, writing nothing. The error is a sentence: an unknown app, a file
// that cannot be read, is broken, or cannot be edited without losing part
// of it.
func (c Connector) Preview(req Request) (Change, error) {
	p, err := c.prepare(req, true)
	return p.Change, err
}

// prepare reads the file and works out the change; withDiff also writes
// the diff, which only a preview shows.
func (c Connector) prepare(req Request, withDiff bool) (prepared, error) {
	a, ok := findApp(req.App)
	if !ok {
		return prepared{}, i18n.Err("connect.error.unknownApp", "app", req.App, "apps", i18n.List(appNames()...))
	}
	home, err := c.home()
	if err != nil {
		return prepared{}, err
	}
	path, err := resolve(importcfg.UserFile(a.format, home))
	if err != nil {
		return prepared{}, err
	}
	p := prepared{app: a, mode: 0o600, Change: Change{App: string(a.format), AppName: a.format.Name(), File: path, Removed: []string{}, Kept: []string{}}}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return prepared{}, i18n.Wrap(err, "connect.error.read", "file", path, "detail", err)
	default:
		p.Exists = true
		p.mode = fi.Mode().Perm()
		if p.old, err = importcfg.ReadBounded(path); err != nil {
			return prepared{}, err
		}
		sum := sha256.Sum256(p.old)
		p.Digest = hex.EncodeToString(sum[:])
	}
	// importcfg reads the file first: it refuses what is broken or too
	// deep with a sentence that says where, and says which servers are in it.
	var servers []importcfg.Entry
	if len(bytes.TrimSpace(p.old)) > 0 {
		if !utf8.Valid(p.old) {
			return prepared{}, i18n.Err("connect.error.notText", "file", path)
		}
		if bytes.HasPrefix(p.old, []byte("\ufeff")) {
			return prepared{}, i18n.Err("connect.error.bom", "file", path)
		}
		pv, err := importcfg.Parse(path, p.old, importcfg.Options{Home: home})
		switch {
		case errors.Is(err, importcfg.ErrUnknownFormat): // a file with no servers yet
		case err != nil:
			return prepared{}, err
		default:
			servers = pv.Servers
		}
	}
	remove := []string{}
	if req.Replace {
		remove, p.Kept = choose(a, servers, req.Have, req.Entry)
	}
	e := req.Entry
	e.Name = EntryName
	var pl plan
	if a.toml {
		pl, err = planTOML(a, p.old, e, remove)
	} else {
		pl, err = planJSON(a, p.old, e, remove)
	}
	if err != nil {
		return prepared{}, i18n.Wrap(err, "connect.error.cannotEdit", "file", path, "detail", i18n.ErrorMessage(err))
	}
	e.Name = pl.name
	p.Entry, p.Unchanged = e, pl.unchanged
	if pl.removed != nil {
		p.Removed = pl.removed
	}
	if p.Unchanged {
		p.new = p.old
		p.Result = p.Digest
		return p, nil
	}
	p.new = apply(p.old, pl.edits)
	if err := verify(a, home, path, p.old, p.new, e, p.Removed); err != nil {
		return prepared{}, i18n.Wrap(err, "connect.error.cannotEdit", "file", path, "detail", i18n.ErrorMessage(err))
	}
	if withDiff {
		p.Diff = unifiedDiff(path, p.old, pl.edits, !p.Exists)
	}
	p.Result = digestOf(p.new)
	return p, nil
}

// appNames are the names of the apps Gatehouse connects.
func appNames() []i18n.Message {
	out := make([]i18n.Message, len(apps))
	for i, a := range apps {
		out[i] = i18n.Text(string(a.format))
	}
	return out
}

// resolve returns the file to write for path: path itself, or the file a
// symbolic link there points to (a dotfiles manager links the files it
// keeps), so that the link stays a link.
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", i18n.Wrap(err, "connect.error.link", "file", path, "detail", err)
	}
	return real, nil
}

// choose returns the servers of the file to take out (those Gatehouse has
// as they are) and the names of those it keeps.
func choose(a app, servers []importcfg.Entry, have []store.Server, e Entry) (remove, kept []string) {
	remove, kept = []string{}, []string{}
	for _, s := range servers {
		if s.Scope != "" || s.Key != a.key+"/"+s.SourceName {
			continue // a project's server (Claude Code), or one in another part of the file
		}
		if srv := s.Server(); srv.Stdio != nil && (isGateway(srv.Stdio.Command, srv.Stdio.Args) || e.same(srv.Stdio.Command, srv.Stdio.Args)) {
			continue
		}
		if s.Import && whole(s) && slices.ContainsFunc(have, func(h store.Server) bool { return sameServer(s.Server(), h) }) {
			remove = append(remove, s.SourceName)
		} else {
			kept = append(kept, s.SourceName)
		}
	}
	return remove, kept
}

// whole reports whether importing the entry leaves nothing of it out (an
// environment variable only the other app knows, a field).
func whole(e importcfg.Entry) bool {
	for _, n := range e.Notes {
		if n.Kind == importcfg.NoteLeftOut || n.Kind == importcfg.NoteSkipped {
			return false
		}
	}
	return true
}

// sameServer reports whether two servers run the same thing the same way,
// whatever their names.
func sameServer(a, b store.Server) bool {
	if a.Transport != b.Transport {
		return false
	}
	switch {
	case a.Stdio != nil && b.Stdio != nil:
		return a.Stdio.Command == b.Stdio.Command && slices.Equal(a.Stdio.Args, b.Stdio.Args) &&
			maps.Equal(a.Stdio.Env, b.Stdio.Env) && a.Stdio.Dir == b.Stdio.Dir
	case a.HTTP != nil && b.HTTP != nil:
		return a.HTTP.URL == b.HTTP.URL && maps.Equal(a.HTTP.Headers, b.HTTP.Headers)
	}
	return false
}

// verify checks the edited file: it reads as the old one but for the
// entry put in and the servers taken out (so nothing else was lost or
// changed), and importcfg finds the entry in it as it was written.
func verify(a app, home, path string, old, new []byte, e Entry, removed []string) error {
	oldDoc, err := decode(a, old)
	if err != nil {
		return err
	}
	newDoc, err := decode(a, new)
	if err != nil {
		return i18n.Err("connect.error.notKept")
	}
	servers, _ := oldDoc[a.key].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	for _, name := range removed {
		delete(servers, name)
	}
	want := map[string]any{}
	for _, f := range a.fields {
		want[f[0]] = f[1]
	}
	want["command"] = e.Command
	args := make([]any, len(e.Args))
	for i, x := range e.Args {
		args[i] = x
	}
	want["args"] = args
	servers[e.Name] = want
	oldDoc[a.key] = servers
	if !reflect.DeepEqual(oldDoc, newDoc) {
		return i18n.Err("connect.error.notKept")
	}
	p, err := importcfg.Parse(path, new, importcfg.Options{Home: home})
	if err != nil {
		return err
	}
	for _, s := range p.Servers {
		if srv := s.Server(); s.SourceName == e.Name && srv.Stdio != nil && e.same(srv.Stdio.Command, srv.Stdio.Args) {
			return nil
		}
	}
	return i18n.Err("connect.error.notKept")
}

// decode reads a JSON (with comments) or TOML file into plain values, for
// comparing two versions of it.
func decode(a app, data []byte) (map[string]any, error) {
	out := map[string]any{}
	if len(bytes.TrimSpace(data)) == 0 {
		return out, nil
	}
	if a.toml {
		if err := toml.Unmarshal(data, &out); err != nil {
			return nil, i18n.Err("connect.error.parse", "detail", err)
		}
		return out, nil
	}
	std, err := hujson.Standardize(bytes.Clone(data))
	if err != nil {
		return nil, i18n.Err("connect.error.parse", "detail", err)
	}
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, i18n.Err("connect.error.parse", "detail", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, i18n.Err("connect.error.notObject")
	}
	return m, nil
}
