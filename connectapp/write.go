package connectapp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
)

// A record is one write Undo can take back: kept, newest last, in the
// app's journal (BackupDir/APP.json).
type record struct {
	File string `json:"file"`
	// Backup is the copy of the file before the write; "" when the write
	// created the file.
	Backup  string      `json:"backup"`
	Created bool        `json:"created"`
	Mode    fs.FileMode `json:"mode"`
	// Digest is the SHA-256 of what was written.
	Digest string    `json:"digest"`
	Time   time.Time `json:"time"`
	// Gateway is the gateway entry as written, Removed the servers the
	// write took out (Replace): what UndoChanged takes out and puts back
	// when the app changed the file since. Older records have neither
	// (then any gateway entry is taken out, nothing put back).
	Gateway *Entry   `json:"gateway,omitempty"`
	Removed []string `json:"removed,omitempty"`
}

// Write applies the request whose preview (seen) the person confirmed. It
// reads the file again and refuses, writing nothing, when its content is
// not the one the preview read (seen.Digest), or when what it would write
// is not what the preview showed (seen.Result: the servers Gatehouse has
// changed meanwhile). It copies the file into
// BackupDir first, then replaces it atomically with the same permissions
// (a new file is 0600, in folders created 0700), and records the write for
// Undo.
func (c Connector) Write(req Request, seen Change) (Written, error) {
	if c.BackupDir == "" {
		return Written{}, i18n.Err("connect.error.noBackupDir")
	}
	p, err := c.prepare(req, false)
	if err != nil {
		return Written{}, err
	}
	switch {
	case p.Digest != seen.Digest:
		return Written{}, i18n.Wrap(ErrChanged, "connect.error.changed", "file", p.File)
	case p.Result != seen.Result:
		return Written{}, i18n.Wrap(ErrChanged, "connect.error.otherResult", "file", p.File)
	}
	if p.Unchanged {
		return Written{File: p.File, Removed: []string{}}, nil
	}
	if err := os.MkdirAll(c.BackupDir, 0o700); err != nil {
		return Written{}, i18n.Wrap(err, "connect.error.backup", "detail", err)
	}
	now := time.Now().UTC()
	if c.Now != nil {
		now = c.Now().UTC()
	}
	rec := record{File: p.File, Created: !p.Exists, Mode: p.mode, Digest: digestOf(p.new), Time: now, Gateway: &p.Entry, Removed: p.Removed}
	if p.Exists {
		rec.Backup = c.backupPath(p.App, now)
		if err := writeNew(rec.Backup, p.old); err != nil {
			return Written{}, i18n.Wrap(err, "connect.error.backup", "detail", err)
		}
	} else if err := os.MkdirAll(filepath.Dir(p.File), 0o700); err != nil {
		return Written{}, i18n.Wrap(err, "connect.error.write", "file", p.File, "detail", err)
	}
	records, err := c.journal(p.App)
	if err != nil {
		return Written{}, err
	}
	if err := c.saveJournal(p.App, append(records, rec)); err != nil {
		return Written{}, err
	}
	if err := replaceFile(p.File, p.new, p.mode); err != nil {
		_ = c.saveJournal(p.App, records)
		return Written{}, i18n.Wrap(err, "connect.error.write", "file", p.File, "detail", err)
	}
	return Written{File: p.File, Backup: rec.Backup, Created: rec.Created, Removed: p.Removed}, nil
}

// Undone is what Undo did.
type Undone struct {
	File string `json:"file"`
	// Removed is true when the undone write had created the file, which
	// is now removed again.
	Removed bool `json:"removed"`
	// Time is when the undone write was made (RFC 3339).
	Time string `json:"time"`
	// Backup is the copy of the file as it was before an undo that took
	// out only Gatehouse's part (UndoChanged); "" for the others.
	Backup string `json:"backup"`
	// Forgotten is true when nothing of Gatehouse's change was left in the
	// file: the change is forgotten, the file not written.
	Forgotten bool `json:"forgotten"`
}

// Undo takes back the last write Gatehouse made to the app's file: it puts
// back the backup (or removes the file the write created). It refuses,
// changing nothing, when the file is not what that write left (the app or
// the person changed it since; undoing would lose that): PreviewUndo and
// UndoChanged then take out only Gatehouse's part.
func (c Connector) Undo(appID string) (Undone, error) {
	_, id, records, err := c.lastWrite(appID)
	if err != nil {
		return Undone{}, err
	}
	rec := records[len(records)-1]
	now, err := importcfg.ReadBounded(rec.File)
	if err != nil || digestOf(now) != rec.Digest {
		return Undone{}, i18n.Wrap(ErrChanged, "connect.error.changedSince", "file", rec.File, "time", rec.Time.Local().Format(time.DateTime))
	}
	if rec.Created {
		if err := os.Remove(rec.File); err != nil {
			return Undone{}, i18n.Wrap(err, "connect.error.write", "file", rec.File, "detail", err)
		}
	} else {
		old, err := importcfg.ReadBounded(rec.Backup)
		if err != nil {
			return Undone{}, i18n.Wrap(err, "connect.error.noBackup", "file", rec.Backup)
		}
		if err := replaceFile(rec.File, old, rec.Mode); err != nil {
			return Undone{}, i18n.Wrap(err, "connect.error.write", "file", rec.File, "detail", err)
		}
	}
	if err := c.saveJournal(id, records[:len(records)-1]); err != nil {
		return Undone{}, err
	}
	if rec.Backup != "" {
		_ = os.Remove(rec.Backup)
	}
	return Undone{File: rec.File, Removed: rec.Created, Time: rec.Time.Format(time.RFC3339)}, nil
}

// lastWrite returns the app, its ID and its journal, which has a write to
// undo: else the error says why not.
func (c Connector) lastWrite(appID string) (app, string, []record, error) {
	a, ok := findApp(appID)
	if !ok {
		return app{}, "", nil, i18n.Err("connect.error.unknownApp", "app", appID, "apps", i18n.List(appNames()...))
	}
	if c.BackupDir == "" {
		return app{}, "", nil, i18n.Err("connect.error.noBackupDir")
	}
	id := string(a.format)
	records, err := c.journal(id)
	if err != nil {
		return app{}, "", nil, err
	}
	if len(records) == 0 {
		return app{}, "", nil, i18n.Err("connect.error.nothingToUndo", "app", a.format.Name())
	}
	return a, id, records, nil
}

// backupPath is where a copy of the app's file made at now goes.
func (c Connector) backupPath(id string, now time.Time) string {
	return filepath.Join(c.BackupDir, id+"-"+now.Format("20060102T150405.000000000Z")+".bak")
}

// journalPath is the app's record of writes.
func (c Connector) journalPath(id string) string {
	return filepath.Join(c.BackupDir, id+".json")
}

// journal reads the app's record of writes, oldest first.
func (c Connector) journal(id string) ([]record, error) {
	data, err := os.ReadFile(c.journalPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, i18n.Wrap(err, "connect.error.journal", "file", c.journalPath(id), "detail", err)
	}
	var out []record
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, i18n.Wrap(err, "connect.error.journal", "file", c.journalPath(id), "detail", err)
	}
	return out, nil
}

// saveJournal replaces the app's record of writes.
func (c Connector) saveJournal(id string, records []record) error {
	if len(records) == 0 {
		if err := os.Remove(c.journalPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return i18n.Wrap(err, "connect.error.journal", "file", c.journalPath(id), "detail", err)
		}
		return nil
	}
	data, err := json.MarshalIndent(records, "", "  ")
	if err == nil {
		err = replaceFile(c.journalPath(id), data, 0o600)
	}
	if err != nil {
		return i18n.Wrap(err, "connect.error.journal", "file", c.journalPath(id), "detail", err)
	}
	return nil
}

// CanUndo reports whether the app has a write Undo can take back, and when
// it was made.
func (c Connector) CanUndo(appID string) (time.Time, bool) {
	a, ok := findApp(appID)
	if !ok || c.BackupDir == "" {
		return time.Time{}, false
	}
	records, err := c.journal(string(a.format))
	if err != nil || len(records) == 0 {
		return time.Time{}, false
	}
	return records[len(records)-1].Time, true
}

// digestOf is the SHA-256 of data, hex.
func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// writeNew writes a new file 0600 (a backup), failing when it exists.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replaceFile replaces path with data atomically: a reader sees the old
// file or the new one, never part of one. The new file has mode.
func replaceFile(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".gatehouse-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Status is one app as the list of apps shows it.
type Status struct {
	App     string `json:"app"`
	AppName string `json:"appName"`
	File    string `json:"file"`
	Exists  bool   `json:"exists"`
	// Connected is true when the file has the gateway entry as it would be
	// written now.
	Connected bool `json:"connected"`
	// Problem says why the file cannot be connected (broken, too large),
	// else it is empty.
	Problem i18n.Message `json:"problem"`
	// CanUndo is true when a write can be undone, made at UndoTime
	// (RFC 3339).
	CanUndo  bool   `json:"canUndo"`
	UndoTime string `json:"undoTime"`
}

// Apps lists every app Gatehouse connects with the state of its file for
// the gateway entry e.
func (c Connector) Apps(e Entry) []Status {
	out := make([]Status, 0, len(apps))
	for _, a := range apps {
		id := string(a.format)
		s := Status{App: id, AppName: a.format.Name()}
		if home, err := c.home(); err == nil {
			s.File = importcfg.UserFile(a.format, home)
		}
		p, err := c.prepare(Request{App: id, Entry: e}, false)
		if err != nil {
			s.Problem = i18n.ErrorMessage(err)
			_, statErr := os.Lstat(s.File)
			s.Exists = statErr == nil
		} else {
			s.File, s.Exists, s.Connected = p.File, p.Exists, p.Unchanged
		}
		if t, ok := c.CanUndo(id); ok {
			s.UndoTime, s.CanUndo = t.Format(time.RFC3339), true
		}
		out = append(out, s)
	}
	return out
}
