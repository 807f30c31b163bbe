package gateway

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gatehouse-app/gatehouse/importcfg"
)

// Launcher is what Gatehouse knows for sure of the program that launched
// a client's gateway pipe: the parent of the process connected to the
// socket, as the kernel says (/proc). Unlike the client's clientInfo, an
// app cannot claim it; another program of the same user can still run
// the gateway itself, so it names a program, not a person.
type Launcher struct {
	// PID is the launcher's process ID; 0 when unknown.
	PID int
	// Exe is its executable (/proc/PID/exe); "" when unknown.
	Exe string
	// Command is its command line, arguments joined by spaces, cut at
	// maxCommand bytes, with secret-looking values masked (an agent
	// started with --api-key KEY must not show the key in the approval or
	// keep it in History).
	Command string
}

// maxCommand bounds the command line read of a launcher.
const maxCommand = 4096

// procRoot is where /proc is; tests point it elsewhere.
var procRoot = "/proc"

// ReadLauncher reads what launched the process pid: its parent's
// executable and command line. What cannot be read stays empty.
func ReadLauncher(pid int) Launcher {
	if pid <= 0 {
		return Launcher{}
	}
	ppid := parentOf(pid)
	if ppid <= 0 {
		return Launcher{}
	}
	dir := procRoot + "/" + strconv.Itoa(ppid)
	l := Launcher{PID: ppid}
	l.Exe, _ = os.Readlink(dir + "/exe")
	if f, err := os.Open(dir + "/cmdline"); err == nil {
		raw, _ := io.ReadAll(io.LimitReader(f, maxCommand))
		f.Close()
		raw = bytes.TrimRight(raw, "\x00")
		args := strings.Split(strings.ToValidUTF8(string(raw), "?"), "\x00")
		l.Command = strings.Join(importcfg.MaskArgs(args), " ")
	}
	return l
}

// parentOf reads the PPid line of /proc/PID/status; 0 when unknown.
func parentOf(pid int) int {
	f, err := os.Open(procRoot + "/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PPid:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}
