package app

import (
	"os"
	"strings"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
)

// A FileOpener asks the person which file to open: the GUI's open dialog.
// OpenFile returns the chosen path, or "" when the person cancelled.
type FileOpener interface {
	OpenFile(opts wruntime.OpenDialogOptions) (string, error)
}

// ImportService is bound to the window's import dialog: where other apps'
// files of MCP servers are on this computer, the file chooser, and the check
// of a name the person gives an imported server. Reading a file and
// importing it are ServersService.PreviewImport and Import.
type ImportService struct {
	servers *ServersService
	// files is the open dialog; nil outside the GUI (ChooseFile refuses).
	files FileOpener
	// home and cwd are where KnownLocations looks; os.UserHomeDir and
	// os.Getwd when empty.
	home, cwd string
}

// NewImportService returns the import dialog's service: names are checked
// as servers checks them, and files asks which file to import.
func NewImportService(servers *ServersService, files FileOpener) *ImportService {
	return &ImportService{servers: servers, files: files}
}

// ImportLocation is a file of another app's MCP servers found on this
// computer, for the dialog's "Found on this computer" list.
type ImportLocation struct {
	// Path is the file's absolute path.
	Path string `json:"path"`
	// Format is the app that keeps its servers there, and App its name as
	// people know it ("Claude Desktop").
	Format importcfg.Format `json:"format"`
	App    string           `json:"app"`
	// Project is the project folder the file belongs to (the folder
	// Gatehouse was started in), "" for the person's own apps' files. The
	// dialog lists a project's files apart, under that folder's name.
	Project string `json:"project"`
}

// Locations returns the files at the places the apps keep their servers:
// in the person's home folder, and in the folder Gatehouse was started in
// (a project's .mcp.json, .vscode/mcp.json, ..., marked with Project),
// grouped by app in the order of importcfg.Formats. A folder that cannot
// be found is skipped.
func (s *ImportService) Locations() []ImportLocation {
	home, cwd := s.home, s.cwd
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	out := []ImportLocation{}
	for _, l := range importcfg.KnownLocations(home, cwd) {
		out = append(out, ImportLocation{Path: l.Path, Format: l.Format, App: l.Format.Name(), Project: l.Project})
	}
	return out
}

// ChooseFile asks the person for another app's file of MCP servers with the
// system's open dialog, starting in the home folder with hidden files shown
// (the apps keep theirs in dot folders). It returns the path, or "" when the
// person cancelled. The file is read by PreviewImport, in Go.
func (s *ImportService) ChooseFile() (string, error) {
	if s.files == nil {
		return "", i18n.Err("importui.error.noWindow")
	}
	home, _ := os.UserHomeDir()
	return s.files.OpenFile(wruntime.OpenDialogOptions{
		Title:            i18n.M("importui.chooseTitle").String(),
		DefaultDirectory: home,
		ShowHiddenFiles:  true,
		Filters: []wruntime.FileFilter{
			{DisplayName: i18n.M("importui.filter.config").String(), Pattern: "*.json;*.toml"},
			{DisplayName: i18n.M("importui.filter.all").String(), Pattern: "*"},
		},
	})
}

// CheckName says what is wrong with name as the name of a new server (empty,
// too long, or taken, ignoring case), as adding a server checks it; the
// zero Message when it is fine.
func (s *ImportService) CheckName(name string) i18n.Message {
	return s.servers.Validate("", ServerInput{Name: strings.TrimSpace(name)})["name"]
}
