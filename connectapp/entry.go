package connectapp

import (
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gatehouse-app/gatehouse/cmdline"
)

// Entry is the gateway entry Gatehouse writes into another app's file: a
// stdio server that runs `gatehouse gateway`. It carries no environment
// and no secret.
type Entry struct {
	// Name is the entry's name in the other app's file: EntryName, or
	// "gatehouse-2", ... when that name is taken by another server.
	Name string `json:"name"`
	// Command is the absolute path of the gatehouse program.
	Command string `json:"command"`
	// Args are its arguments: ["gateway"], or ["--data-dir", DIR,
	// "gateway"] for a data folder other than the default.
	Args []string `json:"args"`
}

// EntryName is the name the gateway entry gets in another app's file.
const EntryName = "gatehouse"

// GatewayEntry returns the entry that runs `gatehouse gateway` with the
// program exe (os.Executable, symbolic links resolved) and the data folder
// dataDir, "" for the default one (then the entry names none, and follows
// the default wherever it is). A relative dataDir is made absolute: the
// other app starts the program in a folder of its own.
func GatewayEntry(exe, dataDir string) Entry {
	e := Entry{Name: EntryName, Command: exe, Args: []string{"gateway"}}
	if dataDir != "" {
		if abs, err := filepath.Abs(dataDir); err == nil {
			dataDir = abs
		}
		e.Args = []string{"--data-dir", dataDir, "gateway"}
	}
	return e
}

// isGateway reports whether a server of the other app's file is a
// gateway entry Gatehouse wrote: it runs a program called gatehouse (or
// the development build, gatehouse-dev) with "gateway" as its last
// argument. Such an entry is Gatehouse's own, to update, never a server to
// keep beside it.
func isGateway(command string, args []string) bool {
	base := filepath.Base(command)
	return (base == "gatehouse" || base == "gatehouse-dev") && len(args) > 0 && args[len(args)-1] == "gateway"
}

// same reports whether an entry in the file already is e.
func (e Entry) same(command string, args []string) bool {
	return command == e.Command && slices.Equal(args, e.Args)
}

// candidateName returns the i-th name to try: EntryName, then
// "gatehouse-2", "gatehouse-3", ...
func candidateName(i int) string {
	if i == 0 {
		return EntryName
	}
	return EntryName + "-" + strconv.Itoa(i+1)
}

// commandLine is the entry as one line, for sentences.
func (e Entry) commandLine() string {
	return cmdline.Join(e.Command, e.Args)
}
