package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// sdkReadLine is what the go-sdk's own newline-delimited connection (the
// one CommandTransport used) reads from one line.
func sdkReadLine(t testing.TB, line []byte) (jsonrpc.Message, error) {
	t.Helper()
	ctx := context.Background()
	conn, err := (&sdk.IOTransport{
		Reader: io.NopCloser(bytes.NewReader(append(bytes.Clone(line), '\n'))),
		Writer: nopWriteCloser{io.Discard},
	}).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return conn.Read(ctx)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// ourReadLine is what lineConn reads from one line, without the host's
// rewriting of elicitations (carryOnRead).
func ourReadLine(line []byte) (jsonrpc.Message, error) {
	trimmed := bytes.TrimRight(line, "\r")
	if len(bytes.TrimLeft(trimmed, " \t\r")) == 0 {
		return nil, io.EOF
	}
	return decodeMessage(bytes.Clone(trimmed))
}

// compareWithSDK fails unless lineConn reads line as the SDK does, apart
// from the deliberate differences that lineConn's comment names.
func compareWithSDK(t *testing.T, line []byte) {
	t.Helper()
	if bytes.ContainsRune(line, '\n') {
		return // a message is one line (deliberate)
	}
	if i := bytes.IndexByte(bytes.TrimRight(line, "\r"), '\r'); i >= 0 {
		return // a carriage return inside a line is not a line break for lineConn
	}
	want, wantErr := sdkReadLine(t, line)
	got, gotErr := ourReadLine(line)
	trimmed := bytes.TrimLeft(line, " \t\r")
	switch {
	case wantErr == nil && len(trimmed) > 0 && trimmed[0] == '[':
		if !errors.Is(gotErr, errBatch) {
			t.Fatalf("%q: a batch the SDK reads must be refused as a batch; got %v, %v", line, got, gotErr)
		}
	case wantErr != nil && gotErr == nil:
		// lineConn accepts a line that ends in spaces or tabs.
		if stripped := bytes.TrimRight(line, " \t\r"); !bytes.Equal(stripped, bytes.TrimRight(line, "\r")) {
			want, wantErr = sdkReadLine(t, stripped)
			if wantErr == nil && reflect.DeepEqual(got, want) {
				return
			}
		}
		t.Fatalf("%q: the SDK refuses it (%v) but lineConn read %#v", line, wantErr, got)
	case wantErr == nil && gotErr != nil:
		t.Fatalf("%q: the SDK reads %#v but lineConn refuses it: %v", line, want, gotErr)
	case wantErr == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("%q:\n lineConn read %#v\n      SDK read %#v", line, got, want)
	}
}

// hostileLines are lines a server might send by mistake or on purpose, with
// what lineConn must make of them.
var hostileLines = []struct {
	name   string
	line   string
	refuse bool
}{
	{"a request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, false},
	{"a notification", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, false},
	{"a response with a string id", `{"jsonrpc":"2.0","id":"a","result":{}}`, false},
	{"an error response", `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no such method","data":[1]}}`, false},
	{"an id with a fraction keeps its integer part, as the SDK does", `{"jsonrpc":"2.0","id":1.9,"result":{}}`, false},
	{"an id in exponent form", `{"jsonrpc":"2.0","id":1e3,"result":{}}`, false},
	{"a null method makes a request with an empty method", `{"jsonrpc":"2.0","id":1,"method":null}`, false},
	{"a null params", `{"jsonrpc":"2.0","id":1,"method":"x","params":null}`, false},
	{"escaped member names are unescaped", `{"jsonr\u0070c":"2.0","id":1,"m\u0065thod":"ping"}`, false},
	{"a repeated member: the last one counts", `{"jsonrpc":"2.0","id":1,"id":2,"method":"a","method":"b"}`, false},
	{"a repeated error fills in one error", `{"jsonrpc":"2.0","id":1,"error":{"code":3},"error":{"message":"m"}}`, false},
	{"an unknown member is ignored", `{"jsonrpc":"2.0","id":1,"result":{},"extra":[{"deep":true}]}`, false},
	{"leading spaces", "   \t{\"jsonrpc\":\"2.0\",\"method\":\"x\"}", false},
	{"a Windows line ending", "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r", false},
	{"text that is not UTF-8 inside a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":\"\xff\xfe\"}}", false},
	{"a method that is not UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xffx\"}", false},

	{"a method name in another case is not the method", `{"jsonrpc":"2.0","id":1,"Method":"ping"}`, false},
	{"JSONRPC in capitals is not jsonrpc", `{"JSONRPC":"2.0","id":1,"method":"ping"}`, true},
	{"no jsonrpc member", `{"id":1,"method":"ping"}`, true},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, true},
	{"jsonrpc as a number", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, true},
	{"a response without an id", `{"jsonrpc":"2.0","result":{}}`, true},
	{"a response with a null id", `{"jsonrpc":"2.0","id":null,"result":{}}`, true},
	{"an id that is an object", `{"jsonrpc":"2.0","id":{},"method":"x"}`, true},
	{"an id that is true", `{"jsonrpc":"2.0","id":true,"method":"x"}`, true},
	{"an id too large for a float", `{"jsonrpc":"2.0","id":1e400,"method":"x"}`, true},
	{"a method that is a number", `{"jsonrpc":"2.0","id":1,"method":5}`, true},
	{"an error that is a string", `{"jsonrpc":"2.0","id":1,"error":"bad"}`, true},
	{"an error code with a fraction", `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`, true},
	{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"x"} garbage`, true},
	{"two messages on one line", `{"jsonrpc":"2.0","method":"x"}{"jsonrpc":"2.0","method":"y"}`, true},
	{"cut off", `{"jsonrpc":"2.0","id":1,"method":"x"`, true},
	{"not JSON", `hello`, true},
	{"a string, not a message", `"jsonrpc"`, true},
	{"an empty batch", `[]`, true},
	{"nested deeper than the SDK allows", `{"jsonrpc":"2.0","method":"x","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, true},
}

func TestDecodeMessage_HostileLines(t *testing.T) {
	for _, tc := range hostileLines {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ourReadLine([]byte(tc.line))
			if refused := err != nil; refused != tc.refuse {
				t.Fatalf("refused = %v (%v), want %v", refused, err, tc.refuse)
			}
			compareWithSDK(t, []byte(tc.line))
		})
	}
}

func TestDecodeMessage_DeepButAllowed(t *testing.T) {
	line := `{"jsonrpc":"2.0","method":"x","params":` + strings.Repeat("[", 998) + strings.Repeat("]", 998) + `}`
	if _, err := ourReadLine([]byte(line)); err != nil {
		t.Fatalf("999 levels are within the SDK's bound: %v", err)
	}
	compareWithSDK(t, []byte(line))
}

func TestDecodeMessage_RefusesABatch(t *testing.T) {
	line := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`
	if _, err := ourReadLine([]byte(line)); !errors.Is(err, errBatch) {
		t.Fatalf("err = %v, want errBatch", err)
	}
	if !strings.Contains(errBatch.Error(), "batch") {
		t.Fatalf("the error does not say what was wrong: %v", errBatch)
	}
	compareWithSDK(t, []byte(line))
}

func FuzzDecodeMessage(f *testing.F) {
	for _, tc := range hostileLines {
		f.Add([]byte(tc.line))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":-0,"result":{"a":"\u00e9\ud83d\ude00"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":9007199254740993,"error":{"code":-1,"message":null,"data":null}}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"result":{}}]`))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}  "))
	f.Fuzz(func(t *testing.T, line []byte) {
		compareWithSDK(t, line)
	})
}

// lineConnOver returns a lineConn reading input, and a function that
// reads its next message.
func lineConnOver(t *testing.T, input io.Reader) (*lineConn, func() (jsonrpc.Message, error)) {
	t.Helper()
	c := newLineConn(input, io.Discard, func() error { return nil })
	t.Cleanup(func() { c.Close() })
	return c, func() (jsonrpc.Message, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return c.Read(ctx)
	}
}

func TestLineConn_Lines(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	cases := []struct {
		name    string
		input   string
		methods []string // the requests read, in order
		wantErr string   // what the read after them says; "" for io.EOF
	}{
		{"messages one a line, then the end", ping + "\n" + ping + "\n", []string{"ping", "ping"}, ""},
		{"empty and blank lines are skipped", "\n\n  \r\n" + ping + "\n\n", []string{"ping"}, ""},
		{"the last line needs no newline", ping + "\n" + ping, []string{"ping", "ping"}, ""},
		{"a bad line ends the reading with its reason", ping + "\n{\"jsonrpc\":\"2.0\",\n" + ping + "\n", []string{"ping"}, "not JSON"},
		{"a line longer than the buffer is read whole", `{"jsonrpc":"2.0","method":"big","params":{"s":"` + strings.Repeat("x", 200<<10) + `"}}` + "\n" + ping + "\n", []string{"big", "ping"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, read := lineConnOver(t, strings.NewReader(tc.input))
			for _, want := range tc.methods {
				msg, err := read()
				if err != nil {
					t.Fatalf("read: %v, want %s", err, want)
				}
				if req, ok := msg.(*jsonrpc.Request); !ok || req.Method != want {
					t.Fatalf("read %#v, want the request %s", msg, want)
				}
			}
			_, err := read()
			switch {
			case tc.wantErr == "" && err != io.EOF:
				t.Fatalf("after the messages: %v, want io.EOF", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("after the messages: %v, want an error saying %q", err, tc.wantErr)
			}
		})
	}
}

// endlessLine is a line that never ends.
type endlessLine struct{ read int }

func (r *endlessLine) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.read += len(p)
	return len(p), nil
}

func TestLineConn_RefusesALineOverTheBound(t *testing.T) {
	input := &endlessLine{}
	_, read := lineConnOver(t, io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","method":"x","params":"`), input))
	_, err := read()
	if !errors.Is(err, errLineTooLong) {
		t.Fatalf("err = %v, want errLineTooLong", err)
	}
	if input.read > maxLineLength+1<<20 {
		t.Fatalf("read %d bytes of one line, far past the bound of %d", input.read, maxLineLength)
	}
}

func TestLineConn_CloseEndsARead(t *testing.T) {
	pr, pw := io.Pipe() // nothing is ever written
	defer pw.Close()
	stops := 0
	c := newLineConn(pr, io.Discard, func() error { stops++; return errors.New("first close") })
	done := make(chan error, 1)
	go func() { _, err := c.Read(context.Background()); done <- err }()
	if err := c.Close(); err == nil || err.Error() != "first close" {
		t.Fatalf("Close = %v, want the stop's error", err)
	}
	select {
	case err := <-done:
		if err != io.EOF {
			t.Fatalf("the blocked Read returned %v, want io.EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the blocked Read")
	}
	if err := c.Close(); err == nil || err.Error() != "first close" || stops != 1 {
		t.Fatalf("a second Close = %v after %d stops, want the first result and one stop", err, stops)
	}
}

func TestLineConn_WritesOneMessageALine(t *testing.T) {
	var out bytes.Buffer
	c := newLineConn(strings.NewReader(""), &out, func() error { return nil })
	defer c.Close()
	id, err := jsonrpc.MakeID(float64(3))
	if err != nil {
		t.Fatal(err)
	}
	req := &jsonrpc.Request{ID: id, Method: "tools/call", Params: []byte(`{"name":"<b>"}`)}
	if err := c.Write(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"<b>"}}` + "\n"
	if out.String() != want {
		t.Fatalf("wrote %q, want %q", out.String(), want)
	}
}

func TestLineConn_CarriesTheSchemaOfAnElicitation(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"b":{"type":"string","default":"x"},"a":{"type":"string"}}}}}` + "\n"
	_, read := lineConnOver(t, strings.NewReader(line))
	msg, err := read()
	if err != nil {
		t.Fatal(err)
	}
	w := readWire(t, msg.(*jsonrpc.Request).Params)
	if w.sdkSchema != "" || w.carried != `{"type":"object","properties":{"b":{"type":"string","default":"x"},"a":{"type":"string"}}}` {
		t.Fatalf("the SDK would see the schema %q and the host %q", w.sdkSchema, w.carried)
	}
}

// TestStdioProcess_Stop: closing a stdio server's connection stops its
// process as the specification asks (input closed, then SIGTERM, then
// SIGKILL), and exitError says how it ended.
func TestStdioProcess_Stop(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // in the exit message
	}{
		{"a server that exits when its input closes ends by itself", []string{"cat"}, "exited with code 0"},
		{"a server that exits with an error says its code", []string{"sh", "-c", "cat; exit 3"}, "exited with code 3"},
		{"a server that ignores its input closing is sent SIGTERM", []string{"sleep", "60"}, "terminated"},
		{"a server that ignores SIGTERM is killed", []string{"sh", "-c", `trap "" TERM; while :; do sleep 0.1; done`}, "killed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			proc, err := newStdioProcess(&store.StdioConfig{Command: tc.args[0], Args: tc.args[1:], Dir: t.TempDir()}, &serverLog{})
			if err != nil {
				t.Fatal(err)
			}
			conn, err := proc.transport().Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer proc.killGroup()
			reading := make(chan error, 1)
			go func() { _, err := conn.Read(context.Background()); reading <- err }()
			exit := proc.exitError()
			if exit == nil || !strings.Contains(exit.Error(), tc.want) {
				t.Fatalf("exitError = %v, want it to say %q", exit, tc.want)
			}
			if again := proc.exitError(); again == nil || again.Error() != exit.Error() {
				t.Fatalf("a second exitError = %v, want the first's %v", again, exit)
			}
			select {
			case err := <-reading:
				if err != io.EOF {
					t.Fatalf("a Read during the close returned %v, want io.EOF", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("closing did not end a Read")
			}
		})
	}
}
