// Command asker is the MCP server of `make bench`'s P7 ("a question reaches
// the person"): a stdio server that sends elicitation/create when the
// benchmark tells it to, and says when it wrote the request.
//
//	asker -control SOCKET
//
// It speaks JSON-RPC on stdin and stdout itself, without an SDK, for two
// reasons. The time it reports is taken where the request is written: just
// before the one write(2) of the request's line to stdout. And it offers
// protocol 2025-11-25, where a server may send elicitation/create on its
// own; from 2026-07-28 on it may not (it would return an input request from
// a tool call instead), and a go-sdk server agrees to the newest revision
// Gatehouse offers. Gatehouse and the MCP Inspector both accept 2025-11-25.
//
// The benchmark connects to SOCKET (a Unix socket the asker listens on) and
// sends lines:
//
//	ask        send one elicitation/create (the typical 5-field form); the
//	           asker answers "sent ID UNIXNANO" with the write's time
//	cancel ID  withdraw request ID (notifications/cancelled)
//
// The asker writes, unprompted:
//
//	ready                      once the client has initialized the session
//	answered ID ACTION         when the client answered request ID
//	                           (ACTION is accept, decline, cancel or error)
//
// The server offers no tools, resources or prompts; other requests get
// "method not found", notifications are ignored.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// formSchema is the typical form of the benchmarks (bench/server's too):
// five fields of four kinds, with limits, a format, defaults and an enum.
const formSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","title":"Full name","description":"As on your badge","minLength":2,"maxLength":60},` +
	`"email":{"type":"string","format":"email","title":"Email","description":"Where the confirmation goes"},` +
	`"guests":{"type":"integer","title":"Guests","minimum":0,"maximum":4,"default":0},` +
	`"newsletter":{"type":"boolean","title":"Send me the newsletter","default":false},` +
	`"track":{"type":"string","title":"Track","enum":["go","web","ops"]}},` +
	`"required":["name","email","track"]}`

const message = "Register for the workshop.\nWe need a few details for your badge."

// offered are the revisions the asker speaks, newest first: those in which
// a server may send elicitation/create by itself.
var offered = []string{"2025-11-25", "2025-06-18"}

func main() {
	control := flag.String("control", "", "Unix socket to listen on for the benchmark's commands")
	flag.Parse()
	log.SetPrefix("asker: ")
	log.SetFlags(0)
	if *control == "" {
		log.Fatal("-control SOCKET is required")
	}
	_ = os.Remove(*control)
	l, err := net.Listen("unix", *control)
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(*control)
	a := &asker{out: os.Stdout, initialized: make(chan struct{}), asked: map[string]bool{}}
	go a.serveControl(l)
	if err := a.serveMCP(os.Stdin); err != nil && !errors.Is(err, io.EOF) {
		log.Fatal(err)
	}
}

// asker is one MCP session on stdio and the benchmark's control connection.
type asker struct {
	outMu sync.Mutex // one line at a time on stdout
	out   io.Writer

	initialized chan struct{} // closed on notifications/initialized
	initOnce    sync.Once

	mu    sync.Mutex
	ctl   net.Conn        // the benchmark, once connected
	next  int             // the last request ID used
	asked map[string]bool // IDs of requests not yet answered
}

// rpcMessage is a JSON-RPC message, as much of it as the asker reads.
type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result *struct {
		Action string `json:"action"`
	} `json:"result,omitempty"`
	Error json.RawMessage `json:"error,omitempty"`
}

func (a *asker) serveMCP(in io.Reader) error {
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			a.handle(line)
		}
		if err != nil {
			return err
		}
	}
}

func (a *asker) handle(line []byte) {
	var m rpcMessage
	if err := json.Unmarshal(line, &m); err != nil {
		log.Printf("unreadable message: %v", err)
		return
	}
	switch {
	case m.Method == "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(m.Params, &p)
		version := offered[0]
		for _, v := range offered {
			if v == p.ProtocolVersion {
				version = v
			}
		}
		a.reply(m.ID, fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"serverInfo":{"name":"gatehouse-bench-asker","version":"1.0.0"}}`, version))
	case m.Method == "notifications/initialized":
		a.initOnce.Do(func() { close(a.initialized) })
	case m.Method == "ping":
		a.reply(m.ID, `{}`)
	case m.Method != "" && len(m.ID) > 0:
		a.write(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID))
	case m.Method == "" && len(m.ID) > 0: // an answer to one of ours
		id := strings.Trim(string(m.ID), `"`)
		action := "error"
		if m.Result != nil {
			action = m.Result.Action
		}
		a.mu.Lock()
		known := a.asked[id]
		delete(a.asked, id)
		a.mu.Unlock()
		if known {
			a.tell(fmt.Sprintf("answered %s %s", id, action))
		}
	}
}

func (a *asker) reply(id json.RawMessage, result string) {
	a.write(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result))
}

// write writes one line with one write(2) and returns the time just before it.
func (a *asker) write(line []byte) time.Time {
	a.outMu.Lock()
	defer a.outMu.Unlock()
	at := time.Now()
	if _, err := a.out.Write(line); err != nil {
		log.Fatalf("writing to the client: %v", err)
	}
	return at
}

// ask sends one elicitation/create and returns its ID and write time.
func (a *asker) ask() (string, time.Time) {
	a.mu.Lock()
	a.next++
	id := fmt.Sprintf("ask-%d", a.next)
	a.asked[id] = true
	a.mu.Unlock()
	msg, _ := json.Marshal(message)
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%q,"method":"elicitation/create","params":{"mode":"form","message":%s,"requestedSchema":%s}}`+"\n",
		id, msg, formSchema)
	return id, a.write(line)
}

// tell writes a line to the benchmark, if it is connected.
func (a *asker) tell(line string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ctl != nil {
		_, _ = io.WriteString(a.ctl, line+"\n")
	}
}

// serveControl takes the benchmark's connections, one at a time.
func (a *asker) serveControl(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		<-a.initialized
		a.mu.Lock()
		a.ctl = c
		a.mu.Unlock()
		a.tell("ready")
		sc := bufio.NewScanner(c)
		for sc.Scan() {
			cmd, arg, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
			switch cmd {
			case "ask":
				id, at := a.ask()
				a.tell(fmt.Sprintf("sent %s %d", id, at.UnixNano()))
			case "cancel":
				a.write(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%q,"reason":"withdrawn by the benchmark"}}`+"\n", arg))
			default:
				a.tell("error unknown command " + cmd)
			}
		}
		a.mu.Lock()
		a.ctl = nil
		a.mu.Unlock()
		c.Close()
	}
}
