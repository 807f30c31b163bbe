package connectapp

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
)

// UndoChange is the preview of taking back Gatehouse's last write to an
// app's file (PreviewUndo). When the file is still as that write left it,
// Whole is true: Undo puts the backup back. When the app (or the person)
// changed the file since, only Gatehouse's part is taken back
// (UndoChanged): its gateway entry is taken out, and the servers that write
// replaced are put back from the backup when the file has none of their
// name now. Everything else the file has now stays as it is. It holds no
// secret (the diff masks them) and is JSON for the window as it is.
type UndoChange struct {
	App     string `json:"app"`
	AppName string `json:"appName"`
	File    string `json:"file"`
	// Whole is true when the file is as Gatehouse's write left it.
	Whole bool `json:"whole"`
	// Entry is the name of the gateway entry taken out; "" when the file
	// has it no more.
	Entry string `json:"entry"`
	// Restored are the servers put back from the backup.
	Restored []string `json:"restored"`
	// Unchanged is true when nothing of Gatehouse's is left to take back:
	// undoing only forgets the write.
	Unchanged bool `json:"unchanged"`
	// Digest identifies the content read, Result the content UndoChanged
	// writes (SHA-256, hex): it writes nothing else.
	Digest string `json:"digest"`
	Result string `json:"result"`
	// Diff is the change as a unified diff (not when Whole).
	Diff string `json:"diff"`
	// Time is when the write taken back was made (RFC 3339).
	Time string `json:"time"`
}

// undoPlan is an UndoChange with what writing it needs.
type undoPlan struct {
	UndoChange
	id      string
	records []record
	rec     record
	cur     []byte
	new     []byte
}

// PreviewUndo returns what undoing Gatehouse's last write to the app's
// file does now, writing nothing.
func (c Connector) PreviewUndo(appID string) (UndoChange, error) {
	p, err := c.planUndo(appID, true)
	return p.UndoChange, err
}

// planUndo reads the app's journal and file and works out the undo.
func (c Connector) planUndo(appID string, withDiff bool) (undoPlan, error) {
	a, id, records, err := c.lastWrite(appID)
	if err != nil {
		return undoPlan{}, err
	}
	rec := records[len(records)-1]
	p := undoPlan{id: id, records: records, rec: rec, UndoChange: UndoChange{App: id, AppName: a.format.Name(), File: rec.File,
		Restored: []string{}, Time: rec.Time.Format(time.RFC3339)}}
	if _, err := os.Stat(rec.File); errors.Is(err, fs.ErrNotExist) {
		p.Unchanged = true // the app removed the file: nothing of Gatehouse's is left
		return p, nil
	}
	if p.cur, err = importcfg.ReadBounded(rec.File); err != nil {
		return undoPlan{}, err
	}
	p.Digest = digestOf(p.cur)
	if p.Digest == rec.Digest {
		p.Whole = true
		return p, nil
	}
	var backup []byte
	if rec.Backup != "" && len(rec.Removed) > 0 {
		if backup, err = importcfg.ReadBounded(rec.Backup); err != nil {
			return undoPlan{}, i18n.Wrap(err, "connect.error.noBackup", "file", rec.Backup)
		}
	}
	var edits []edit
	if a.toml {
		edits, p.Entry, p.Restored, err = undoTOML(a, p.cur, backup, rec)
	} else {
		edits, p.Entry, p.Restored, err = undoJSON(a, p.cur, backup, rec)
	}
	if err == nil {
		p.new = apply(p.cur, edits)
		err = verifyUndo(a, p.cur, backup, p.new, p.Entry, p.Restored)
	}
	if err != nil {
		return undoPlan{}, i18n.Wrap(err, "connect.error.cannotEdit", "file", rec.File, "detail", i18n.ErrorMessage(err))
	}
	p.Unchanged = len(edits) == 0
	p.Result = digestOf(p.new)
	if withDiff && !p.Unchanged {
		p.Diff = unifiedDiff(rec.File, p.cur, edits, false)
	}
	return p, nil
}

// UndoChanged takes back Gatehouse's part of its last write to a file the
// app changed since, as its preview (seen) showed: it refuses, writing
// nothing, when the file is not the one the preview read or the result
// would be another. The file as it was is copied into BackupDir first.
func (c Connector) UndoChanged(appID string, seen UndoChange) (Undone, error) {
	p, err := c.planUndo(appID, false)
	if err != nil {
		return Undone{}, err
	}
	switch {
	case p.Whole:
		return c.Undo(appID)
	case p.Digest != seen.Digest || p.Result != seen.Result:
		return Undone{}, i18n.Wrap(ErrChanged, "connect.error.changed", "file", p.File)
	}
	backup := ""
	if !p.Unchanged {
		fi, err := os.Stat(p.File)
		if err != nil {
			return Undone{}, i18n.Wrap(err, "connect.error.read", "file", p.File, "detail", err)
		}
		now := time.Now().UTC()
		if c.Now != nil {
			now = c.Now().UTC()
		}
		backup = c.backupPath(p.id, now)
		if err := writeNew(backup, p.cur); err != nil {
			return Undone{}, i18n.Wrap(err, "connect.error.backup", "detail", err)
		}
		if err := replaceFile(p.File, p.new, fi.Mode().Perm()); err != nil {
			return Undone{}, i18n.Wrap(err, "connect.error.write", "file", p.File, "detail", err)
		}
	}
	if err := c.saveJournal(p.id, p.records[:len(p.records)-1]); err != nil {
		return Undone{}, err
	}
	if p.rec.Backup != "" {
		_ = os.Remove(p.rec.Backup)
	}
	return Undone{File: p.File, Time: p.rec.Time.Format(time.RFC3339), Backup: backup, Forgotten: p.Unchanged}, nil
}

// undoJSON finds the edits that take the gateway entry rec wrote out of a
// JSON file and put back from backup the servers rec took out that the
// file has none of now, in the servers object the file has now (when the
// app removed that object, nothing is put back).
func undoJSON(a app, data, backup []byte, rec record) (edits []edit, entry string, restored []string, err error) {
	restored = []string{}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, "", restored, nil
	}
	sv, ms, style, err := jsonServers(a, data)
	if err != nil || sv == nil {
		return nil, "", restored, err
	}
	at := slices.IndexFunc(ms, func(m member) bool { return rec.ours(m.name, m.command, m.args) })
	kept := len(ms)
	if at >= 0 {
		entry = ms[at].name
		edits = cutRuns(data, *sv, ms, [][2]int{{at, at}})
		kept--
	}
	var pieces []string // name: value of each server put back
	if len(rec.Removed) > 0 && len(bytes.TrimSpace(backup)) > 0 {
		bsv, bms, _, err := jsonServers(a, backup)
		if err != nil {
			return nil, "", nil, err
		}
		for _, name := range rec.Removed {
			i := slices.IndexFunc(bms, func(m member) bool { return m.name == name })
			if bsv == nil || i < 0 || slices.ContainsFunc(ms, func(m member) bool { return m.name == name }) {
				continue
			}
			restored = append(restored, name)
			pieces = append(pieces, jsonString(name), string(backup[bms[i].valueStart:bms[i].valueEnd]))
		}
	}
	if len(pieces) > 0 {
		ind := ""
		if !style.compact {
			ind = lineIndent(data, sv.StartOffset) + style.unit
			if first := firstOnOwnLine(data, sv.StartOffset, ms); first >= 0 {
				ind = lineIndent(data, first)
			}
		}
		value := pieces[1]
		for i := 2; i < len(pieces); i += 2 {
			if style.compact {
				value += "," + pieces[i] + ":" + pieces[i+1]
			} else {
				value += "," + style.nl + ind + pieces[i] + ": " + pieces[i+1]
			}
		}
		edits = append(edits, insertFirst(data, *sv, ms, pieces[0], value, kept > 0, style, ind)...)
		if kept == 0 && at >= 0 {
			// The entry was the only server: the object closes on a line
			// of its own when nothing left does.
			close := sv.EndOffset - 1
			if !style.compact && !bytes.Contains(data[edits[0].end:close], []byte("\n")) {
				edits = append(edits, edit{close, close, style.nl + lineIndent(data, sv.StartOffset)})
			}
		}
	}
	sortEdits(edits)
	return edits, entry, restored, nil
}

// ours reports whether the server of the file named name, running command
// with args, is the gateway entry the write wrote (by an older record:
// any gateway entry).
func (r record) ours(name, command string, args []string) bool {
	if r.Gateway == nil {
		return isGateway(command, args)
	}
	return name == r.Gateway.Name && (isGateway(command, args) || r.Gateway.same(command, args))
}

// jsonServers finds the servers object of a JSON file (nil when it has
// none), its members and the file's layout.
func jsonServers(a app, data []byte) (*hujson.Value, []member, jsonStyle, error) {
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, nil, jsonStyle{}, i18n.Err("connect.error.parse", "detail", err)
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, nil, jsonStyle{}, i18n.Err("connect.error.notObject")
	}
	tops := members(data, top)
	style := styleOf(data, v, tops)
	i := slices.IndexFunc(tops, func(m member) bool { return m.name == a.key })
	if i < 0 {
		return nil, nil, style, nil
	}
	sv := top.Members[i].Value
	obj, ok := sv.Value.(*hujson.Object)
	if !ok {
		return nil, nil, style, i18n.Err("connect.error.serversNotObject", "key", a.key)
	}
	return &sv, members(data, obj), style, nil
}

// undoTOML finds the edits that take the gateway entry's tables rec wrote
// out of a TOML file, and put back at its end the tables of the servers
// rec took out that the file has none of now.
func undoTOML(a app, data, backup []byte, rec record) (edits []edit, entry string, restored []string, err error) {
	restored = []string{}
	servers, tables, err := tomlServers(a, data)
	if err != nil {
		return nil, "", nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s, _ := servers[name].(map[string]any)
		cmd, _ := s["command"].(string)
		if rec.ours(name, cmd, texts(s["args"])) {
			entry = name
			break
		}
	}
	if entry != "" {
		spans := tomlSpans(a, tables, entry)
		if len(spans) == 0 {
			return nil, "", nil, i18n.Err("connect.error.tomlShape", "name", entry)
		}
		edits = cutTables(data, spans)
	}
	var text []byte
	if len(rec.Removed) > 0 && len(bytes.TrimSpace(backup)) > 0 && servers != nil {
		_, btables, err := tomlServers(a, backup)
		if err != nil {
			return nil, "", nil, err
		}
		for _, name := range rec.Removed {
			spans := tomlSpans(a, btables, name)
			if _, there := servers[name]; there || len(spans) == 0 {
				continue
			}
			restored = append(restored, name)
			for _, t := range spans {
				piece := bytes.TrimRight(backup[t.start:t.end], " \t\r\n")
				if len(text) > 0 && bytes.HasPrefix(piece, []byte("[")) && len(t.key) == 2 {
					text = append(text, '\n') // a blank line between servers
				}
				text = append(append(text, piece...), '\n')
			}
		}
	}
	if len(text) > 0 {
		nl := "\n"
		if bytes.Contains(data, []byte("\r\n")) {
			nl = "\r\n"
			text = bytes.ReplaceAll(bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte(nl))
		}
		kept := apply(data, edits)
		sep := ""
		switch {
		case len(bytes.TrimSpace(kept)) == 0:
		case !bytes.HasSuffix(kept, []byte("\n")):
			sep = nl + nl
		case !bytes.HasSuffix(kept, []byte("\n\n")) && !bytes.HasSuffix(kept, []byte("\n\r\n")):
			sep = nl
		}
		edits = append(edits, edit{len(data), len(data), sep + string(text)})
	}
	sortEdits(edits)
	return edits, entry, restored, nil
}

// tomlServers reads the servers of a TOML file and its table headers.
func tomlServers(a app, data []byte) (map[string]any, []tomlTable, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, nil, i18n.Err("connect.error.parse", "detail", err)
	}
	servers, _ := doc[a.key].(map[string]any)
	if doc[a.key] != nil && servers == nil {
		return nil, nil, i18n.Err("connect.error.serversNotObject", "key", a.key)
	}
	tables, err := tomlTables(data)
	return servers, tables, err
}

// tomlSpans returns the tables of one server: [KEY.NAME] and its
// [KEY.NAME.env] and such.
func tomlSpans(a app, tables []tomlTable, name string) []tomlTable {
	var out []tomlTable
	for _, t := range tables {
		if len(t.key) >= 2 && t.key[0] == a.key && t.key[1] == name {
			out = append(out, t)
		}
	}
	return out
}

// verifyUndo checks the file an undo writes: it reads as the file now,
// without the entry taken out and with the servers put back as the backup
// had them, so that nothing else the app has was lost or changed.
func verifyUndo(a app, cur, backup, new []byte, entry string, restored []string) error {
	curDoc, err := decode(a, cur)
	if err != nil {
		return err
	}
	newDoc, err := decode(a, new)
	if err != nil {
		return i18n.Err("connect.error.notKept")
	}
	if entry != "" || len(restored) > 0 {
		servers, _ := curDoc[a.key].(map[string]any)
		delete(servers, entry)
		if len(restored) > 0 {
			oldDoc, err := decode(a, backup)
			if err != nil {
				return err
			}
			old, _ := oldDoc[a.key].(map[string]any)
			for _, name := range restored {
				servers[name] = old[name]
			}
		}
	}
	if !reflect.DeepEqual(curDoc, newDoc) {
		return i18n.Err("connect.error.notKept")
	}
	return nil
}
