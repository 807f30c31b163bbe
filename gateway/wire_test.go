package gateway

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// callSeeds are client messages the forwarded way reads: calls as clients
// write them, and what a hostile or careless client might send.
var callSeeds = []string{
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"Bench_01__lookup_0001","arguments":{"id":"a1"}}}`,
	`{"jsonrpc":"2.0","id":"r-1","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}},"name":"echo","arguments":{"message":"héllo \"quoted\" {braces}"}}}`,
	` { "jsonrpc" : "2.0" , "id" : 1 , "method" : "tools/call" , "params" : { "name" : "x" , "arguments" : [1, {"a": "}"}] , "_meta" : { "progressToken" : 5 } } } `,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":null},"task":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{"ttl":1}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\u0062c"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"n\u0061me":"abc"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":"no"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"no"}`,
	`{"jsonrpc":2,"id":1,"method":"tools/call"}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"},"params":{"name":"y"}}`,
	`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`,
	`[1,2]`, `"tools/call"`, `{}`, `{"jsonrpc":"2.0",}`, `{"jsonrpc":"2.0"`, ``, `null`,
}

// TestParseCall: the forwarded way reads each client message as
// json.Unmarshal into a forwardedCall reads it, or refuses it as that
// does, and keeps what it read when the line's buffer is reused
// (FuzzParseCall tries more).
func TestParseCall(t *testing.T) {
	for _, s := range callSeeds {
		checkParseCall(t, []byte(s))
	}
}

// FuzzParseCall: whatever a client sends, the scanning reads it as
// encoding/json does (go test -fuzz FuzzParseCall ./gateway).
func FuzzParseCall(f *testing.F) {
	for _, s := range callSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkParseCall)
}

func checkParseCall(t *testing.T, line []byte) {
	mine := bytes.Clone(line)
	got, ok := parseCall(mine)
	for i := range mine {
		mine[i] = 'x' // the Tap reads the next line into the same buffer
	}
	var want forwardedCall
	wantOK := json.Unmarshal(line, &want) == nil
	if ok != wantOK {
		t.Fatalf("%s: read %v, encoding/json %v", line, ok, wantOK)
	}
	if !ok {
		return
	}
	// The forwarded way asks only whether a progress token is there.
	token := func(c *forwardedCall) bool {
		if c.Params == nil {
			return false
		}
		had := c.Params.Meta.ProgressToken != nil
		c.Params.Meta.ProgressToken = nil
		return had
	}
	if token(&got) != token(&want) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n read %+v %+v\n want %+v %+v", line, got, got.Params, want, want.Params)
	}
}
