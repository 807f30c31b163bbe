package app

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/gatehouse-app/gatehouse/connectapp"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// ConnectService adds Gatehouse's gateway entry to other apps' files of MCP
// servers ("Connect an app", `gatehouse connect`): a preview of the exact
// change, the write only after the person confirmed it, and an undo. The
// work is package connectapp's; this service fills in what only the app
// knows: the program other apps run, the data folder (named in the entry
// when it is not the default one; its connect-backups folder keeps the
// backups), and the servers Gatehouse has (for replacing them in the other
// app's file).
type ConnectService struct {
	core *Core
	// exe is the program other apps run; "" means os.Executable, symbolic
	// links resolved. home is the home folder; "" means os.UserHomeDir.
	exe, home string
}

// connectWriting makes one write or undo at a time in the process (the
// window's service and the command line's may ask at once; both write
// the same files): the second then reads the file the first wrote, and is
// refused as changed since its preview. One process holds the data folder
// at a time, so this is every writer of its backups.
var connectWriting sync.Mutex

// NewConnectService returns the service for core.
func NewConnectService(core *Core) *ConnectService {
	return &ConnectService{core: core}
}

// ConnectRequest says which app to connect and how.
type ConnectRequest struct {
	// App is the app's ID (connectapp.AppIDs).
	App string `json:"app"`
	// Replace also takes out of the app's file the servers Gatehouse has.
	Replace bool `json:"replace"`
	// Digest and Result are the preview's (connectapp.Change), for
	// Connect: it writes only what the preview showed.
	Digest string `json:"digest"`
	Result string `json:"result"`
}

// connector returns the Connector for the core's data folder.
func (s *ConnectService) connector() connectapp.Connector {
	return connectapp.Connector{Home: s.home, BackupDir: filepath.Join(s.core.Store.Dir(), "connect-backups")}
}

// entry returns the gateway entry other apps get.
func (s *ConnectService) entry() (connectapp.Entry, error) {
	exe := s.exe
	if exe == "" {
		p, err := os.Executable()
		if err == nil {
			p, err = filepath.EvalSymlinks(p)
		}
		if err != nil {
			return connectapp.Entry{}, i18n.Wrap(err, "connect.error.program", "detail", err)
		}
		exe = p
	}
	dir := s.core.Store.Dir()
	if isDefaultDataDir(dir) {
		dir = ""
	}
	return connectapp.GatewayEntry(exe, dir), nil
}

// isDefaultDataDir reports whether dir is the data folder Gatehouse uses
// when none is named (gatehouse in os.UserConfigDir): an entry for it needs
// no --data-dir.
func isDefaultDataDir(dir string) bool {
	base, err := os.UserConfigDir()
	if err != nil {
		return false
	}
	own, err1 := os.Stat(filepath.Join(base, "gatehouse"))
	fi, err2 := os.Stat(dir)
	return err1 == nil && err2 == nil && os.SameFile(own, fi)
}

// request builds the connectapp request.
func (s *ConnectService) request(req ConnectRequest) (connectapp.Request, error) {
	e, err := s.entry()
	if err != nil {
		return connectapp.Request{}, err
	}
	r := connectapp.Request{App: req.App, Entry: e, Replace: req.Replace}
	if req.Replace {
		if r.Have, err = s.core.Store.Servers(); err != nil {
			return connectapp.Request{}, err
		}
	}
	return r, nil
}

// Apps lists the apps Gatehouse connects, with the state of each one's
// file.
func (s *ConnectService) Apps() ([]connectapp.Status, error) {
	e, err := s.entry()
	if err != nil {
		return nil, err
	}
	return s.connector().Apps(e), nil
}

// Preview returns the change connecting the app would make; nothing is
// written.
func (s *ConnectService) Preview(req ConnectRequest) (connectapp.Change, error) {
	r, err := s.request(req)
	if err != nil {
		return connectapp.Change{}, err
	}
	return s.connector().Preview(r)
}

// Connect writes the change the person confirmed in its preview
// (req.Digest), refused when the file changed since.
func (s *ConnectService) Connect(req ConnectRequest) (connectapp.Written, error) {
	r, err := s.request(req)
	if err != nil {
		return connectapp.Written{}, err
	}
	connectWriting.Lock()
	defer connectWriting.Unlock()
	return s.connector().Write(r, connectapp.Change{Digest: req.Digest, Result: req.Result})
}

// Undo takes back the last change Gatehouse made to the app's file.
func (s *ConnectService) Undo(app string) (connectapp.Undone, error) {
	connectWriting.Lock()
	defer connectWriting.Unlock()
	return s.connector().Undo(app)
}

// PreviewUndo returns what undoing the last change Gatehouse made to the
// app's file does now: the backup put back whole when the file is as
// Gatehouse left it, else only Gatehouse's entry taken out (and the
// servers it replaced put back), as a diff; nothing is written.
func (s *ConnectService) PreviewUndo(app string) (connectapp.UndoChange, error) {
	return s.connector().PreviewUndo(app)
}

// UndoRequest is the undo the person confirmed in its preview.
type UndoRequest struct {
	App string `json:"app"`
	// Digest and Result are the preview's (connectapp.UndoChange).
	Digest string `json:"digest"`
	Result string `json:"result"`
}

// UndoChanged takes back Gatehouse's part of its last change to the app's
// file as its preview showed, refused when the file changed since.
func (s *ConnectService) UndoChanged(req UndoRequest) (connectapp.Undone, error) {
	connectWriting.Lock()
	defer connectWriting.Unlock()
	return s.connector().UndoChanged(req.App, connectapp.UndoChange{Digest: req.Digest, Result: req.Result})
}
