// Command server is the MCP server `make bench` measures every client
// against: a small go-sdk server on stdio whose tools send elicitation/create
// requests and time them from the server's side.
//
// Tools (all return one text item holding a JSON object):
//
//	elicit_loop {n}          n elicitations of a typical 5-field form, one
//	                         after another, each sent after the previous
//	                         answer; returns every round trip in nanoseconds
//	                         ({"ns":[...], "bad":k}). bad counts answers that
//	                         were not "accept" with the 5 expected values.
//	flood {count, spread_ms, status}
//	                         count elicitations at once, started evenly over
//	                         spread_ms; returns how each ended. While it runs
//	                         it keeps the file status (if given) up to date
//	                         with {"sent":k,"done":m}, so the benchmark can see
//	                         when every request not waiting for a person has
//	                         been answered.
//	ask_once {}              one elicitation whose message carries the send
//	                         time ("sent=<unix ns>"), so the host can tell how
//	                         long it took to reach the person.
//	input_loop {n}           (protocol 2026-07-28 and later) the same form as
//	                         an input request: the first call returns it, the
//	                         client's retry with the answer completes; n is
//	                         ignored, one round per call.
//
// With -tools N it also lists N more tools (P9, the Tools pane with a big
// list): lookup_0001 … each with a title, a one-line description and a
// small input schema; calling one returns its name.
//
// Elicitation during a tool call (a nested elicitation/create) needs protocol
// 2025-11-25 or earlier: the benchmark clients pin it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// FormSchema is the typical form: five fields of four kinds, with limits,
// a format, defaults and an enum. Kept as raw JSON so the field order holds.
const FormSchema = `{
  "type": "object",
  "properties": {
    "name":       {"type": "string", "title": "Full name", "description": "As on your badge", "minLength": 2, "maxLength": 60},
    "email":      {"type": "string", "format": "email", "title": "Email", "description": "Where the confirmation goes"},
    "guests":     {"type": "integer", "title": "Guests", "minimum": 0, "maximum": 4, "default": 0},
    "newsletter": {"type": "boolean", "title": "Send me the newsletter", "default": false},
    "track":      {"type": "string", "title": "Track", "enum": ["go", "web", "ops"]}
  },
  "required": ["name", "email", "track"]
}`

// Answer is what every benchmark answerer submits.
var Answer = map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "guests": 2, "newsletter": true, "track": "go"}

const message = "Register for the workshop.\nWe need a few details for your badge."

func main() {
	extraTools := flag.Int("tools", 0, "more tools to list (P9)")
	flag.Parse()
	s := sdk.NewServer(&sdk.Implementation{Name: "gatehouse-bench", Version: "1.0.0"}, nil)
	obj := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"count":{"type":"integer"},"spread_ms":{"type":"integer"}}}`)
	s.AddTool(&sdk.Tool{Name: "elicit_loop", InputSchema: obj}, elicitLoop)
	s.AddTool(&sdk.Tool{Name: "flood", InputSchema: obj}, flood)
	s.AddTool(&sdk.Tool{Name: "ask_once", InputSchema: obj}, askOnce)
	s.AddTool(&sdk.Tool{Name: "input_loop", InputSchema: obj}, inputLoop)
	addListTools(s, *extraTools)
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		os.Exit(1)
	}
}

type args struct {
	N        int    `json:"n"`
	Count    int    `json:"count"`
	SpreadMs int    `json:"spread_ms"`
	Status   string `json:"status"`
}

func readArgs(req *sdk.CallToolRequest) args {
	var a args
	_ = json.Unmarshal(req.Params.Arguments, &a)
	return a
}

func result(v any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
}

func formParams(msg string) *sdk.ElicitParams {
	return &sdk.ElicitParams{Message: msg, RequestedSchema: json.RawMessage(FormSchema)}
}

// good reports whether res accepted the form with the expected values.
func good(res *sdk.ElicitResult) bool {
	if res == nil || res.Action != "accept" || len(res.Content) != len(Answer) {
		return false
	}
	for k, want := range Answer {
		got, ok := res.Content[k]
		if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
			return false
		}
	}
	return true
}

func elicitLoop(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	a := readArgs(req)
	if a.N <= 0 {
		a.N = 1
	}
	ns := make([]int64, 0, a.N)
	bad := 0
	params := formParams(message)
	for range a.N {
		start := time.Now()
		res, err := req.Session.Elicit(ctx, params)
		ns = append(ns, time.Since(start).Nanoseconds())
		if err != nil {
			return nil, fmt.Errorf("elicitation %d: %w", len(ns), err)
		}
		if !good(res) {
			bad++
		}
	}
	return result(map[string]any{"ns": ns, "bad": bad})
}

// floodResult says how each request of a flood ended.
type floodResult struct {
	Sent       int            `json:"sent"`
	Accepted   int            `json:"accepted"`
	Declined   int            `json:"declined"`
	Cancelled  int            `json:"cancelled"`
	Refused    int            `json:"refused"` // JSON-RPC error -32000 (too many requests)
	OtherError int            `json:"otherError"`
	Errors     map[string]int `json:"errors,omitempty"` // other errors by message, a few
	SendMs     float64        `json:"sendMs"`           // from the first send to the last
	AllDoneMs  float64        `json:"allDoneMs"`        // from the first send to the last answer
}

func flood(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	a := readArgs(req)
	if a.Count <= 0 {
		a.Count = 1
	}
	var (
		mu  sync.Mutex
		out = floodResult{Errors: map[string]int{}}
		wg  sync.WaitGroup
	)
	params := formParams("Flood request.")
	var sent, done atomic.Int64
	stop := make(chan struct{})
	if a.Status != "" {
		go func() {
			t := time.NewTicker(10 * time.Millisecond)
			defer t.Stop()
			for {
				b := fmt.Appendf(nil, `{"sent":%d,"done":%d}`, sent.Load(), done.Load())
				_ = os.WriteFile(a.Status+".tmp", b, 0o600)
				_ = os.Rename(a.Status+".tmp", a.Status)
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		}()
	}
	defer close(stop)
	start := time.Now()
	var lastSend time.Time
	for i := range a.Count {
		// Start request i at i/count of the spread.
		if a.SpreadMs > 0 {
			at := start.Add(time.Duration(int64(i) * int64(a.SpreadMs) * int64(time.Millisecond) / int64(a.Count)))
			if d := time.Until(at); d > 0 {
				time.Sleep(d)
			}
		}
		lastSend = time.Now()
		sent.Add(1)
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
			defer cancel()
			res, err := req.Session.Elicit(cctx, params)
			done.Add(1)
			mu.Lock()
			defer mu.Unlock()
			out.Sent++
			var rpcErr *jsonrpc.Error
			switch {
			case err != nil && errors.As(err, &rpcErr) && rpcErr.Code == -32000:
				out.Refused++
			case err != nil:
				out.OtherError++
				if len(out.Errors) < 5 {
					out.Errors[err.Error()]++
				}
			case res.Action == "accept":
				out.Accepted++
			case res.Action == "decline":
				out.Declined++
			default:
				out.Cancelled++
			}
		})
	}
	wg.Wait()
	out.SendMs = float64(lastSend.Sub(start).Microseconds()) / 1000
	out.AllDoneMs = float64(time.Since(start).Microseconds()) / 1000
	return result(out)
}

func askOnce(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	sent := time.Now()
	res, err := req.Session.Elicit(ctx, formParams(fmt.Sprintf("One normal request. sent=%d", sent.UnixNano())))
	if err != nil {
		return nil, err
	}
	return result(map[string]any{"action": res.Action, "ms": float64(time.Since(sent).Microseconds()) / 1000})
}

// inputLoop is one form round as an input request (2026-07-28): the client
// answers it and calls again with the answer in inputResponses.
func inputLoop(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	if r, ok := req.Params.InputResponses["form"]; ok {
		res, _ := r.(*sdk.ElicitResult)
		return result(map[string]any{"good": good(res)})
	}
	return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"form": formParams(message)}}, nil
}

// listTopics make the big list's tools differ, so that a filter narrows it.
var listTopics = []string{"invoice", "customer", "shipment", "ticket", "calendar", "report", "repository", "forecast"}

// addListTools adds n tools for the big-list benchmark (P9).
func addListTools(s *sdk.Server, n int) {
	schema := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"Which one"},` +
		`"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},"verbose":{"type":"boolean"}},"required":["id"]}`)
	for i := range n {
		topic := listTopics[i%len(listTopics)]
		name := fmt.Sprintf("lookup_%04d", i+1)
		s.AddTool(&sdk.Tool{Name: name, Title: fmt.Sprintf("Look up %s %d", topic, i+1),
			Description: fmt.Sprintf("Finds the %s with the given ID in archive %d and returns its fields.", topic, i/len(listTopics)+1),
			InputSchema: schema}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return result(map[string]any{"tool": name})
		})
	}
}
