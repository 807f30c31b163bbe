package mcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// hugeText is the size of hostilePeer's huge resource: far more than a
// window shows at once.
const hugeText = 3 << 20

// hostilePeer is a hand-written stdio MCP server (2025-06-18) that answers
// what the go-sdk would never send: a resource list without end, a huge
// resource, a blob that is not base64, a template that is not a URI
// template, and a prompt with a kind of content MCP does not define. With
// HOSTILE_DUPLICATES set it lists each of its tools, resources, templates,
// prompts, a prompt's arguments and completion values twice instead
// (issue 22, item 10).
func hostilePeer() int {
	if os.Getenv("HOSTILE_DUPLICATES") != "" {
		return duplicatesPeer()
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cursor string `json:"cursor"`
				URI    string `json:"uri"`
				Name   string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification
		}
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","serverInfo":{"name":"hostile","version":"1"},
				"capabilities":{"resources":{},"prompts":{}}}`
		case "resources/list":
			if req.Params.Cursor == "" && os.Getenv("HOSTILE_ENDLESS") == "" {
				result = `{"resources":[{"uri":"big://text","name":"big"},{"uri":"bad://blob","name":"bad"}]}`
				break
			}
			// Every page has 50 more and a next cursor, forever.
			var items []string
			for i := range 50 {
				items = append(items, fmt.Sprintf(`{"uri":"endless://%s/%d","name":"item"}`, req.Params.Cursor, i))
			}
			result = `{"resources":[` + strings.Join(items, ",") + `],"nextCursor":"` + req.Params.Cursor + `x"}`
		case "resources/templates/list":
			result = `{"resourceTemplates":[{"uriTemplate":"bad://{unclosed","name":"broken"}]}`
		case "resources/read":
			switch req.Params.URI {
			case "big://text":
				text, _ := json.Marshal(strings.Repeat("é", hugeText/2))
				result = `{"contents":[{"uri":"big://text","mimeType":"text/plain","text":` + string(text) + `}]}`
			default:
				result = `{"contents":[{"uri":"bad://blob","mimeType":"image/png","blob":"this is not base64!"}]}`
			}
		case "prompts/list":
			result = `{"prompts":[{"name":"odd"}]}`
		case "prompts/get":
			result = `{"messages":[{"role":"user","content":{"type":"hologram","text":"?"}}]}`
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", req.ID)
			out.Flush()
			continue
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, strings.Join(strings.Fields(result), " "))
		out.Flush()
	}
	return 0
}

// duplicatesPeer is hostilePeer with HOSTILE_DUPLICATES: every list names
// something twice.
func duplicatesPeer() int {
	answers := map[string]string{
		"initialize": `{"protocolVersion":"2025-06-18","serverInfo":{"name":"dups","version":"1"},
			"capabilities":{"tools":{},"resources":{},"prompts":{},"completions":{}}}`,
		"tools/list": `{"tools":[{"name":"echo","description":"first","inputSchema":{"type":"object"}},
			{"name":"other","inputSchema":{"type":"object"}},
			{"name":"echo","description":"second","inputSchema":{"type":"object"}}]}`,
		"resources/list":           `{"resources":[{"uri":"dup://a","name":"first"},{"uri":"dup://b","name":"b"},{"uri":"dup://a","name":"second"}]}`,
		"resources/templates/list": `{"resourceTemplates":[{"uriTemplate":"dup://{id}/{id}","name":"first"},{"uriTemplate":"dup://{id}/{id}","name":"second"}]}`,
		"prompts/list": `{"prompts":[{"name":"twice","description":"first","arguments":[{"name":"topic","required":true},{"name":"topic"},{"name":"tone"}]},
			{"name":"twice","description":"second"}]}`,
		"completion/complete": `{"completion":{"values":["alpha","alpha","beta","alpha","beta"],"hasMore":false}}`,
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		if result, ok := answers[req.Method]; ok {
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, strings.Join(strings.Fields(result), " "))
		} else {
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", req.ID)
		}
		out.Flush()
	}
	return 0
}
