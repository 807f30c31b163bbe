package app

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"path/filepath"

	"github.com/gatehouse-app/gatehouse/i18n"
)

//go:generate go run ../scripts/genlicences -root .. -out licences.json

// licencesJSON is what the binary has compiled in, written by
// scripts/genlicences (go generate ./app/); TestLicencesListEveryModule
// fails when it no longer matches the build.
//
//go:embed licences.json
var licencesJSON []byte

// Licence is Gatehouse's own licence (SPDX), the LICENSE file at the root.
const Licence = "Apache-2.0"

// ProjectURL is Gatehouse's project page; its README is the documentation.
const ProjectURL = "https://github.com/gatehouse-app/gatehouse"

// docsLinks are the only addresses Settings → About opens, by name: the
// window asks for one by its name, never with an address of its own.
var docsLinks = map[string]string{
	"readme":  ProjectURL + "#readme",
	"docs":    ProjectURL + "/tree/main/docs",
	"licence": ProjectURL + "/blob/main/LICENSE",
}

// CompiledIn is one Go module or JavaScript package compiled into the binary.
type CompiledIn struct {
	// Kind is "go" or "npm".
	Kind string `json:"kind"`
	// Name is the module path ("std" for Go's standard library) or package name.
	Name    string `json:"name"`
	Version string `json:"version"`
	// Licence is its licence as a DEP-5 short name (Expat is MIT's), or
	// several joined by " and ".
	Licence string `json:"licence"`
}

// Licences is Settings → About's list of licences.
type Licences struct {
	// Gatehouse is Gatehouse's own licence (SPDX).
	Gatehouse string       `json:"gatehouse"`
	Modules   []CompiledIn `json:"modules"`
}

// compiledIn reads the embedded list.
func compiledIn() (Licences, error) {
	var l Licences
	if err := json.Unmarshal(licencesJSON, &l); err != nil {
		return Licences{}, fmt.Errorf("read the embedded licence list: %w", err)
	}
	return l, nil
}

// openFolder shows a folder of Gatehouse's own in the desktop's file
// manager: the system's opener gets the absolute, cleaned path as its single
// argument (no shell; an absolute path cannot be taken for an option),
// through runOpener, as OpenLink's checked URLs.
func openFolder(dir string) error {
	if !filepath.IsAbs(dir) {
		return i18n.Err("settings.error.openFolder", "detail", dir)
	}
	name, err := runOpener(filepath.Clean(dir))
	var failed *BrowserError
	switch {
	case errors.Is(err, errNoOpener):
		return i18n.Err("settings.error.noOpener", "program", name)
	case errors.As(err, &failed):
		return i18n.Wrap(failed, "settings.error.openFolder", "detail", failed.Detail)
	case err != nil:
		return i18n.Wrap(err, "settings.error.openFolder", "detail", err)
	}
	log.Printf("gatehouse: opened the data folder in the file manager")
	return nil
}
