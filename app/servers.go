package app

import (
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// ServersService is bound to the frontend: the servers pane.
type ServersService struct {
	core *Core
	// folders is the folder dialog; nil outside the GUI (ChooseFolder refuses).
	folders FolderOpener
}

// A FolderOpener asks the person which folder to choose: the GUI's folder
// dialog. OpenFolder returns the chosen path, or "" when the person
// cancelled.
type FolderOpener interface {
	OpenFolder(title, start string) (string, error)
}

// NewServersService returns the servers pane's service on core.
func NewServersService(core *Core) *ServersService { return &ServersService{core: core} }

// ServerList is every configured server with its live status, as List
// returns it and EventServers carries it; Version orders the lists as they
// were read (see Core.listMu).
type ServerList struct {
	Version uint64       `json:"version"`
	Servers []ServerView `json:"servers"`
}

// List returns every configured server with its live status.
func (s *ServersService) List() (ServerList, error) { return s.core.serverList() }

// Validate checks an editor's input as the person types, without saving.
// id is the server being edited ("" when adding), so its own name is not a
// duplicate. The result maps field names to sentences; empty means valid.
func (s *ServersService) Validate(id string, in ServerInput) FieldErrors {
	in, errs := readLines(in)
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		errs["name"] = i18n.M("servers.error.noName")
	case len(name) > 100:
		errs["name"] = i18n.M("servers.error.longName")
	default:
		if other, err := s.core.Store.ServerByName(name); err == nil && other.ID != id {
			errs["name"] = i18n.M("servers.error.duplicate", "name", strconv.Quote(other.Name))
		}
	}
	var known []string // folders saved before need not exist any more
	if old, err := s.core.Store.Server(id); id != "" && err == nil {
		known = old.Roots
	}
	if problem := checkRoots(in.Roots, known); problem != nil {
		errs["roots"] = *problem
	}
	switch in.Transport {
	case store.TransportStdio:
		if strings.TrimSpace(in.Command) == "" {
			errs["command"] = i18n.M("servers.error.noCommand")
		}
		for k := range in.Env {
			if _, unread := errs["env"]; !unread && (k == "" || strings.ContainsAny(k, "=\x00")) {
				errs["env"] = i18n.M("servers.error.envName", "name", strconv.Quote(k))
			}
		}
	case store.TransportHTTP:
		if strings.TrimSpace(in.URL) == "" {
			errs["url"] = i18n.M("servers.error.noURL")
		} else if err := mcp.ValidateConfig(toServer("", in)); err != nil {
			errs["url"] = mcp.ConfigProblem(err)
		}
		if u := strings.TrimSpace(in.ClientMetadataURL); u != "" {
			// A client ID metadata document URL must be https with a path.
			if l, err := linkcheck.Check(u); err != nil || l.Scheme != "https" || l.After == "" || l.After == "/" {
				errs["clientMetadataUrl"] = i18n.M("servers.error.metadataURL")
			}
		}
		if in.ClientSecret != "" && strings.TrimSpace(in.ClientID) == "" {
			errs["clientId"] = i18n.M("servers.error.secretWithoutID")
		}
		for k, v := range in.Headers {
			if _, unread := errs["headers"]; unread {
				break
			} else if !httpguts.ValidHeaderFieldName(k) {
				errs["headers"] = i18n.M("servers.error.headerName", "name", strconv.Quote(k))
			} else if !httpguts.ValidHeaderFieldValue(v) {
				errs["headers"] = i18n.M("servers.error.headerValue", "name", k)
			}
		}
	default:
		errs["transport"] = i18n.M("servers.error.transport")
	}
	return errs
}

// Add saves a new server and starts connecting to it when enabled.
func (s *ServersService) Add(in ServerInput) (ServerView, error) {
	return s.save("", in)
}

// Update replaces a server's settings; the manager reconnects it if the way
// to reach it changed.
func (s *ServersService) Update(id string, in ServerInput) (ServerView, error) {
	if id == "" {
		return ServerView{}, i18n.Err("servers.error.noID")
	}
	return s.save(id, in)
}

func (s *ServersService) save(id string, in ServerInput) (ServerView, error) {
	if errs := s.Validate(id, in); len(errs) > 0 {
		return ServerView{}, i18n.Err("servers.error.notSaved", "detail", errs.summary())
	}
	in, _ = readLines(in)
	srv := toServer(id, in)
	if id != "" {
		old, err := s.core.Store.Server(id)
		if err != nil {
			return ServerView{}, err
		}
		srv.CreatedAt = old.CreatedAt
		srv.LogLevel = old.LogLevel // set by SetLogLevel, not by the editor
	}
	saved, err := s.core.Store.PutServer(srv)
	if err != nil {
		return ServerView{}, err
	}
	s.core.Manager.Set(saved)
	s.core.emitServers()
	return s.core.serverView(saved), nil
}

// Remove disconnects and deletes a server, and its sign-in wherever it is
// kept.
func (s *ServersService) Remove(id string) error {
	srv, err := s.core.Store.Server(id)
	if err != nil {
		return err
	}
	if err := s.core.Store.DeleteServer(id); err != nil {
		return err
	}
	s.core.Manager.Remove(id)
	s.core.serverOff(id)
	s.core.emitServers()
	if srv.Transport == store.TransportHTTP { // only they sign in; others never wake the keyring
		if err := s.core.secrets.delete(store.SecretSignIn, id); err != nil {
			return i18n.Wrap(err, "servers.error.removedBut", "detail", err)
		}
	}
	return nil
}

// SetEnabled connects or disconnects a server and remembers the choice.
func (s *ServersService) SetEnabled(id string, enabled bool) error {
	srv, err := s.core.Store.Server(id)
	if err != nil {
		return err
	}
	srv.Enabled = enabled
	saved, err := s.core.Store.PutServer(srv)
	if err != nil {
		return err
	}
	s.core.Manager.Set(saved)
	if !enabled {
		s.core.serverOff(id)
	}
	s.core.emitServers()
	return nil
}

// SignIn starts signing in to a server that needs it (E33): the sign-in
// consent is shown, then the browser opens at the authorization server.
func (s *ServersService) SignIn(id string) error { return s.core.Manager.SignIn(id) }

// SignOut deletes a server's sign-in tokens and connects again without them.
func (s *ServersService) SignOut(id string) error { return s.core.Manager.SignOut(id) }

// Reconnect drops and re-opens a server's session now.
func (s *ServersService) Reconnect(id string) error { return s.core.Manager.Reconnect(id) }

// Log returns the tail of a server's log as text: the stderr of a stdio
// server, its log messages and the host's connection events.
func (s *ServersService) Log(id string) (string, error) { return s.core.Manager.Log(id) }

// LogLines returns the tail of a server's log line by line, with where each
// came from and a log message's level, for the log view's level filter.
func (s *ServersService) LogLines(id string) ([]mcp.LogLine, error) {
	lines, err := s.core.Manager.LogLines(id)
	if lines == nil && err == nil {
		lines = []mcp.LogLine{}
	}
	return lines, err
}

// SetLogLevel sets the level of log messages asked of a server
// (logging/setLevel): at once when it is connected and logs, and again at
// every connection. "" stops asking (the server's own default applies
// from its next connection).
func (s *ServersService) SetLogLevel(id, level string) (ServerView, error) {
	if level != "" && !mcp.ValidLogLevel(level) {
		return ServerView{}, i18n.Err("logs.error.level", "level", strconv.Quote(level))
	}
	srv, err := s.core.Store.Server(id)
	if err != nil {
		return ServerView{}, err
	}
	srv.LogLevel = level
	saved, err := s.core.Store.PutServer(srv)
	if err != nil {
		return ServerView{}, err
	}
	s.core.Manager.Set(saved)
	s.core.emitServers()
	return s.core.serverView(saved), nil
}

// SetRoots replaces the folders a server may see (MCP roots), each an
// absolute path of a folder; a connected server is told at once
// (notifications/roots/list_changed), without reconnecting.
func (s *ServersService) SetRoots(id string, folders []string) (ServerView, error) {
	srv, err := s.core.Store.Server(id)
	if err != nil {
		return ServerView{}, err
	}
	if problem := checkRoots(folders, srv.Roots); problem != nil {
		return ServerView{}, &i18n.Error{Message: *problem}
	}
	srv.Roots = cleanRoots(folders)
	saved, err := s.core.Store.PutServer(srv)
	if err != nil {
		return ServerView{}, err
	}
	s.core.Manager.Set(saved)
	s.core.emitServers()
	return s.core.serverView(saved), nil
}

// ChooseFolder asks the person for a folder with the system's folder
// dialog, for the folders a server may see. It returns the folder's path,
// or "" when the person cancelled.
func (s *ServersService) ChooseFolder() (string, error) {
	if s.folders == nil {
		return "", i18n.Err("importui.error.noWindow")
	}
	home, _ := os.UserHomeDir()
	return s.folders.OpenFolder(i18n.M("roots.chooseTitle").String(), home)
}

// checkRoots says what is wrong with folders a server may see: each must
// be the absolute path of a folder that exists, except those known (saved
// before), which may have gone since and can still be kept or removed.
func checkRoots(folders, known []string) *i18n.Message {
	for _, f := range folders {
		if slices.Contains(known, filepath.Clean(f)) {
			continue
		}
		if !filepath.IsAbs(f) {
			m := i18n.M("roots.error.notAbsolute", "path", f)
			return &m
		}
		if info, err := os.Stat(f); err != nil || !info.IsDir() {
			m := i18n.M("roots.error.notFolder", "path", f)
			return &m
		}
	}
	return nil
}

// cleanRoots returns folders cleaned, each once, in the order given; nil
// for none.
func cleanRoots(folders []string) []string {
	var out []string
	for _, f := range folders {
		if f = filepath.Clean(f); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// PreviewImport reads another app's file of MCP servers and returns what
// importing it would do, secrets masked; nothing is written. A server that
// would be imported is checked as Add checks it, and one that would fail is
// marked as not imported, with the reason. The error is a sentence (the file
// is unreadable, broken at a line, or in no format Gatehouse reads).
func (s *ServersService) PreviewImport(path string) (importcfg.Preview, error) {
	servers, err := s.core.Store.Servers()
	if err != nil {
		return importcfg.Preview{}, err
	}
	existing := make([]string, len(servers))
	for i, srv := range servers {
		existing[i] = srv.Name
	}
	p, err := importcfg.Read(path, importcfg.Options{Existing: existing})
	if err != nil {
		return importcfg.Preview{}, err
	}
	for i := range p.Servers {
		e := &p.Servers[i]
		if !e.Import {
			continue
		}
		if errs := s.Validate("", toInput(e.Server())); len(errs) > 0 {
			e.Import = false
			e.Notes = append(e.Notes, importcfg.Note{Kind: importcfg.NoteSkipped, Message: i18n.M("import.skip.invalid", "detail", errs.summary())})
		}
	}
	return p, nil
}

// Import adds the servers of a file the person confirmed in its preview,
// each through Add, so they are checked as servers added by hand. It reads
// the file again and refuses, importing nothing, when the file changed
// since the preview (req.Digest). A server that cannot be added is reported
// in the result and the others are still added.
func (s *ServersService) Import(req ImportRequest) (ImportResult, error) {
	res := ImportResult{Added: []ServerView{}, Failed: []ImportFailure{}}
	p, err := s.PreviewImport(req.File)
	if err != nil {
		return res, err
	}
	if p.Digest != req.Digest {
		return res, i18n.Err("import.error.changed", "file", req.File)
	}
	entries := make(map[string]importcfg.Entry, len(p.Servers))
	for _, e := range p.Servers {
		entries[e.Key] = e
	}
	for _, choice := range req.Servers {
		e, ok := entries[choice.Key]
		switch {
		case !ok:
			res.Failed = append(res.Failed, ImportFailure{Key: choice.Key, Name: choice.Key, Message: i18n.M("import.error.noEntry", "file", req.File, "name", choice.Key)})
			continue
		case !e.Import:
			res.Failed = append(res.Failed, ImportFailure{Key: e.Key, Name: e.Name, Message: skipReason(e)})
			continue
		}
		in := toInput(e.Server())
		if name := strings.TrimSpace(choice.Name); name != "" {
			in.Name = name
		}
		v, err := s.Add(in)
		if err != nil {
			res.Failed = append(res.Failed, ImportFailure{Key: e.Key, Name: in.Name, Message: i18n.ErrorMessage(err)})
			continue
		}
		res.Added = append(res.Added, v)
	}
	return res, nil
}

// skipReason is the note that says why an entry is not imported.
func skipReason(e importcfg.Entry) i18n.Message {
	for _, n := range e.Notes {
		if n.Kind == importcfg.NoteSkipped {
			return n.Message
		}
	}
	return i18n.Message{}
}

// toServer converts an editor input into a store record.
func toServer(id string, in ServerInput) store.Server {
	srv := store.Server{ID: id, Name: strings.TrimSpace(in.Name), Enabled: in.Enabled, Transport: in.Transport, DisableURLMode: in.NoURLMode,
		Roots: cleanRoots(in.Roots)}
	switch in.Transport {
	case store.TransportStdio:
		srv.Stdio = &store.StdioConfig{Command: strings.TrimSpace(in.Command), Args: in.Args, Env: in.Env,
			Dir: strings.TrimSpace(in.Dir), InheritEnv: in.InheritEnv}
	case store.TransportHTTP:
		srv.HTTP = &store.HTTPConfig{URL: strings.TrimSpace(in.URL), Headers: canonicalHeaders(in.Headers)}
		o := store.OAuthConfig{ClientID: strings.TrimSpace(in.ClientID), ClientSecret: in.ClientSecret,
			ClientMetadataURL: strings.TrimSpace(in.ClientMetadataURL)}
		if o != (store.OAuthConfig{}) {
			srv.HTTP.OAuth = &o
		}
	}
	return srv
}

func canonicalHeaders(h map[string]string) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[http.CanonicalHeaderKey(k)] = v
	}
	return out
}

// toInput converts a store record back into editor input, with every list
// and map present (the window receives [] and {}, never null).
func toInput(srv store.Server) ServerInput {
	in := ServerInput{Name: srv.Name, Enabled: srv.Enabled, Transport: srv.Transport, NoURLMode: srv.DisableURLMode,
		Args: []string{}, Env: map[string]string{}, Headers: map[string]string{}, Roots: append([]string{}, srv.Roots...)}
	if c := srv.Stdio; c != nil {
		in.Command, in.Dir, in.InheritEnv = c.Command, c.Dir, c.InheritEnv
		in.Args = append(in.Args, c.Args...)
		maps.Copy(in.Env, c.Env)
	}
	if c := srv.HTTP; c != nil {
		in.URL = c.URL
		maps.Copy(in.Headers, c.Headers)
		if o := c.OAuth; o != nil {
			in.ClientID, in.ClientSecret, in.ClientMetadataURL = o.ClientID, o.ClientSecret, o.ClientMetadataURL
		}
	}
	return in
}

func (c *Core) serverViews() ([]ServerView, error) {
	servers, err := c.Store.Servers()
	if err != nil {
		return nil, err
	}
	views := make([]ServerView, 0, len(servers))
	for _, srv := range servers {
		views = append(views, c.serverView(srv))
	}
	return views, nil
}

func (c *Core) serverView(srv store.Server) ServerView {
	v := ServerView{ID: srv.ID, Input: toInput(srv), Where: mcp.Where(srv), Demo: isDemo(srv), LogLevel: srv.LogLevel}
	st, err := c.Manager.Status(srv.ID)
	if err != nil { // not handed to the manager (CLI) or just removed
		st = mcp.Status{State: mcp.StateDisabled}
		if srv.Enabled {
			st.State = mcp.StateConnecting
		}
	}
	v.Status = StatusView{
		State:           string(st.State),
		Message:         st.Message,
		Transport:       st.Transport,
		ProtocolVersion: st.ProtocolVersion,
		ServerName:      st.ServerName,
		ServerVersion:   st.ServerVersion,
		Capabilities:    append([]string{}, st.Capabilities...),
		Since:           rfc3339(st.Since),
		NextRetry:       rfc3339(st.NextRetry),
		Counts:          ListCount{Tools: st.Tools, Resources: st.Resources, Prompts: st.Prompts},
		Stderr:          append([]string{}, st.Stderr...),
	}
	return v
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// summary joins field errors into one message, in a stable order.
func (e FieldErrors) summary() i18n.Message {
	return e.inOrder("name", "transport", "command", "env", "url", "headers")
}

// inOrder joins the errors of the given fields, in that order.
func (e FieldErrors) inOrder(fields ...string) i18n.Message {
	var parts []i18n.Message
	for _, k := range fields {
		if msg, ok := e[k]; ok {
			parts = append(parts, msg)
		}
	}
	return i18n.Sentences(parts...)
}
