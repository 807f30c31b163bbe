package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/store"
)

// These benchmarks split the core's share of an elicitation round trip
// (bench.BenchmarkP1P2RoundTrip) into its parts: parsing the form schema,
// validating the answer, the history write, and the broker's own hand-offs.
//
//	go test -run '^$' -bench . ./mcp/ -benchmem

// benchForm is the typical 5-field form of bench/server.
const benchForm = `{
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

func benchAnswer() map[string]any {
	var v map[string]any
	_ = json.Unmarshal([]byte(`{"name":"Ada Lovelace","email":"ada@example.com","guests":2,"newsletter":true,"track":"go"}`), &v)
	return v
}

func BenchmarkParseRequestedSchema(b *testing.B) {
	raw := json.RawMessage(benchForm)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := forms.ParseElicitation(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormValidate(b *testing.B) {
	fs, err := forms.ParseElicitation(json.RawMessage(benchForm))
	if err != nil {
		b.Fatal(err)
	}
	answer := benchAnswer()
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := fs.Validate(answer); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkHistoryWrite is one history entry written to a real data file,
// as the broker records every request (bbolt commits with fsync).
func BenchmarkHistoryWrite(b *testing.B) {
	st, err := store.Open(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	e := store.HistoryEntry{ServerID: "s", ServerName: "Bench", Mode: "form", Message: "Register for the workshop.",
		Fields: []string{"name", "email", "guests", "newsletter", "track"}, Outcome: store.OutcomeAccepted}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.AddHistory(e); err != nil {
			b.Fatal(err)
		}
	}
}

// instant answers every form at once with the bench answer.
type instant struct{ answer map[string]any }

func (a instant) Present(context.Context, *Question) (Response, error) {
	return Response{Action: ActionAccept, Values: a.answer}, nil
}
func (instant) Notify(Notice)              {}
func (instant) OpenedChanged([]OpenedPage) {}

// memStore is a BrokerStore that keeps nothing: the broker without the
// history write.
type memStore struct{}

func (memStore) Policy(string) (store.Policy, error)     { return store.Policy{}, nil }
func (memStore) Settings() (store.Settings, error)       { return store.Settings{}, nil }
func (memStore) AddHistories([]store.HistoryEntry) error { return nil }

// BenchmarkBrokerElicit is Broker.Elicit for one form with an answerer that
// answers at once, with default options: with the real data file, and with a
// store that writes nothing.
func BenchmarkBrokerElicit(b *testing.B) {
	run := func(b *testing.B, st BrokerStore) {
		br := NewBroker(BrokerOptions{Answerer: instant{benchAnswer()}, Store: st})
		peer := Peer{Server: store.Server{ID: "s", Name: "Bench"}, Where: "bench"}
		req := formRequest("Register for the workshop.", benchForm)
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			res, err := br.Elicit(ctx, peer, req)
			if err != nil || res.Action != ActionAccept {
				b.Fatal(res, err)
			}
		}
	}
	b.Run("datafile", func(b *testing.B) {
		st, err := store.Open(b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		run(b, st)
	})
	b.Run("nostore", func(b *testing.B) { run(b, memStore{}) })
}

// BenchmarkCarrySchema is the rewrite of one elicitation/create's params as
// it is read from the connection (rawschema.go): the schema moved into _meta.
func BenchmarkCarrySchema(b *testing.B) {
	params := json.RawMessage(`{"message":"Register for the workshop.\nWe need a few details for your badge.","requestedSchema":` + benchForm + `}`)
	b.ReportAllocs()
	for b.Loop() {
		if out := carrySchema(params); len(out) == len(params) {
			b.Fatal("not carried")
		}
	}
}
