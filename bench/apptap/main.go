// Command apptap runs an MCP stdio server behind a pass-through that notes
// when the server's answers pass: the benchmarks of MCP Apps (P10) start
// their clock when the result of a tool call is handed to the host, the
// same moment whichever host started the server.
//
//	apptap -log FILE -- COMMAND ARGS...
//
// Every line the host writes goes to the server unchanged and every line
// the server writes goes to the host unchanged (MCP's stdio transport is
// one JSON-RPC message per line). For each answer to a tools/call or a
// resources/read, apptap appends to FILE, just before writing the answer to
// the host, one line: "result <unix ns> <tool>" or "read <unix ns> <uri>".
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	logPath := flag.String("log", "", "file the times are appended to")
	flag.Parse()
	if *logPath == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: apptap -log FILE -- COMMAND ARGS...")
		os.Exit(2)
	}
	logFile, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apptap:", err)
		os.Exit(1)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stderr = os.Stderr
	toServer, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "apptap:", err)
		os.Exit(1)
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "apptap:", err)
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "apptap:", err)
		os.Exit(1)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		s := <-sig
		_ = cmd.Process.Signal(s)
	}()

	var mu sync.Mutex
	pending := map[string]string{} // request ID → "result TOOL" or "read URI"
	go func() {
		r := bufio.NewReaderSize(os.Stdin, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				var m struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
					Params struct {
						Name string `json:"name"`
						URI  string `json:"uri"`
					} `json:"params"`
				}
				if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 {
					mu.Lock()
					switch m.Method {
					case "tools/call":
						pending[string(m.ID)] = "result " + m.Params.Name
					case "resources/read":
						pending[string(m.ID)] = "read " + m.Params.URI
					}
					mu.Unlock()
				}
				if _, werr := toServer.Write(line); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		toServer.Close()
	}()

	r := bufio.NewReaderSize(fromServer, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			note := ""
			if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 && m.Method == "" {
				mu.Lock()
				note = pending[string(m.ID)]
				delete(pending, string(m.ID))
				mu.Unlock()
			}
			if note != "" {
				kind, what, _ := strings.Cut(note, " ")
				fmt.Fprintf(logFile, "%s %d %s\n", kind, time.Now().UnixNano(), what)
			}
			if _, werr := os.Stdout.Write(line); werr != nil {
				break
			}
		}
		if err == io.EOF || err != nil {
			break
		}
	}
	_ = cmd.Wait()
	logFile.Close()
	if cmd.ProcessState != nil {
		os.Exit(cmd.ProcessState.ExitCode())
	}
}
