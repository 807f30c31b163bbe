package chat

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// pngBytes is a PNG as far as its bytes tell (its signature and more).
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...)

// startLibrary starts a real go-sdk MCP server over Streamable HTTP with the
// resources the tests attach, and adds it to the fixture's manager as
// "Library"; it returns the server's ID.
func (f *fixture) startLibrary(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "library", Version: "1"}, nil)
	add := func(uri, mimeType string, c sdk.ResourceContents) {
		c.URI, c.MIMEType = uri, mimeType
		srv.AddResource(&sdk.Resource{URI: uri, Name: uri, MIMEType: mimeType},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{&c}}, nil
			})
	}
	add("lib://notes", "text/plain", sdk.ResourceContents{Text: "<b>not bold</b> 会议纪要"})
	add("lib://big", "text/plain", sdk.ResourceContents{Text: strings.Repeat("x", MaxAttachmentText+10)})
	add("lib://logo", "image/png", sdk.ResourceContents{Blob: pngBytes})
	add("lib://huge-logo", "image/png", sdk.ResourceContents{Blob: append(append([]byte{}, pngBytes...), make([]byte, MaxAttachedImages)...)})
	add("lib://archive", "application/zip", sdk.ResourceContents{Blob: []byte("PK\x03\x04 zip")})
	add("lib://data", "application/json", sdk.ResourceContents{Blob: []byte(`{"a":1}`)})
	h := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() {
		h.CloseClientConnections()
		h.Close()
	})
	s, err := f.st.PutServer(store.Server{Name: "Library", Enabled: true, Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: h.URL}})
	if err != nil {
		t.Fatal(err)
	}
	f.runner.Manager.Set(s)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.runner.Manager.WaitConnected(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func TestReadAttachments(t *testing.T) {
	f := newFixture(t, func(*mcp.Question) mcp.Response { return mcp.Response{} })
	lib := f.startLibrary(t)
	tests := []struct {
		name  string
		reqs  []AttachmentRequest
		check func(t *testing.T, got []store.Attachment, err error)
	}{
		{"a text resource is its text, named by the server", []AttachmentRequest{{ServerID: lib, URI: "lib://notes", Name: "Notes"}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err != nil || len(got) != 1 || got[0].Text != "<b>not bold</b> 会议纪要" || got[0].ServerName != "Library" || got[0].Name != "Notes" ||
					got[0].Size != len("<b>not bold</b> 会议纪要") {
					t.Errorf("got %+v, %v", got, err)
				}
			}},
		{"a long text is cut at the bound, saying so", []AttachmentRequest{{ServerID: lib, URI: "lib://big"}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err != nil || len(got) != 1 || !strings.HasPrefix(got[0].Text, strings.Repeat("x", MaxAttachmentText)+"\n[Gatehouse cut this resource here") ||
					got[0].Size != MaxAttachmentText+10 {
					t.Errorf("got %d bytes: %.80q…, %v", len(got[0].Text), got[0].Text[MaxAttachmentText:], err)
				}
			}},
		{"a PNG is an image", []AttachmentRequest{{ServerID: lib, URI: "lib://logo", Name: "Logo"}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err != nil || len(got) != 1 || string(got[0].Image) != string(pngBytes) || got[0].MimeType != "image/png" || got[0].Text != "" {
					t.Errorf("got %+v, %v", got, err)
				}
			}},
		{"an image beyond the bound is a sentence", []AttachmentRequest{{ServerID: lib, URI: "lib://logo"}, {ServerID: lib, URI: "lib://huge-logo", Name: "Huge"}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err != nil || len(got) != 2 || got[1].Image != nil || !strings.Contains(got[1].Text, `"Huge" is an image of`) {
					t.Errorf("got %+v, %v", got, err)
				}
			}},
		{"binary data is a sentence with its type and size", []AttachmentRequest{{ServerID: lib, URI: "lib://archive", Name: "Archive"}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err != nil || len(got) != 1 || got[0].Text != `["Archive" is binary data (application/zip, 8 bytes), which Gatehouse does not send to the model.]` {
					t.Errorf("got %+v, %v", got, err)
				}
			}},
		{"a JSON blob is text", []AttachmentRequest{{ServerID: lib, URI: "lib://data"}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err != nil || len(got) != 1 || got[0].Text != `{"a":1}` {
					t.Errorf("got %+v, %v", got, err)
				}
			}},
		{"a prompt's embedded text is taken as it came, without a read", []AttachmentRequest{{ServerID: lib, URI: "lib://gone", Name: "Forecast", MimeType: "application/json", Text: `{"t":3}`}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err != nil || len(got) != 1 || got[0].Text != `{"t":3}` || got[0].URI != "lib://gone" {
					t.Errorf("got %+v, %v", got, err)
				}
			}},
		{"a resource the server does not have is named in the error", []AttachmentRequest{{ServerID: lib, URI: "lib://missing", Name: "Missing"}},
			func(t *testing.T, got []store.Attachment, err error) {
				if err == nil || !strings.Contains(err.Error(), `Missing`) || !strings.Contains(err.Error(), "Library") {
					t.Errorf("got %+v, %v; want an error naming Missing on Library", got, err)
				}
			}},
		{"more than the bound is refused", make([]AttachmentRequest, MaxAttachments+1),
			func(t *testing.T, got []store.Attachment, err error) {
				if err == nil || !strings.Contains(err.Error(), "8") {
					t.Errorf("got %+v, %v; want a refusal saying 8", got, err)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.runner.ReadAttachments(context.Background(), tt.reqs)
			tt.check(t, got, err)
		})
	}
}

// TestRun_AttachmentsReachTheModel: what a scripted stand-in model server
// (llm/llmtest; no model can run here) received when the person's message
// carries a text resource and an image, in both wire formats, with and
// without the provider reading images.
func TestRun_AttachmentsReachTheModel(t *testing.T) {
	f := newFixture(t, func(*mcp.Question) mcp.Response { return mcp.Response{} })
	lib := f.startLibrary(t)
	atts, err := f.runner.ReadAttachments(context.Background(), []AttachmentRequest{
		{ServerID: lib, URI: "lib://notes", Name: "Notes"}, {ServerID: lib, URI: "lib://logo", Name: "Logo"}})
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString(pngBytes)
	tests := []struct {
		name   string
		kind   llm.Kind
		images bool
		want   string // the user message's content as the server received it, as JSON
	}{
		{"OpenAI format, images read", llm.KindOpenAI, true,
			`[{"text":"Summarise these","type":"text"},{"text":"Attached resource \"Notes\" (lib://notes) from the server \"Library\":\n<b>not bold</b> 会议纪要","type":"text"},{"image_url":{"url":"data:image/png;base64,` + b64 + `"},"type":"image_url"}]`},
		{"OpenAI format, a model that reads no images gets a sentence", llm.KindOpenAI, false,
			`[{"text":"Summarise these","type":"text"},{"text":"Attached resource \"Notes\" (lib://notes) from the server \"Library\":\n<b>not bold</b> 会议纪要","type":"text"},{"text":"Attached resource \"Logo\" (lib://logo) from the server \"Library\":\n[An image (image/png, 108 bytes). This model does not read images, so Gatehouse did not send it.]","type":"text"}]`},
		{"Anthropic format, images read", llm.KindAnthropic, true,
			`[{"text":"Summarise these","type":"text"},{"text":"Attached resource \"Notes\" (lib://notes) from the server \"Library\":\n\u003cb\u003enot bold\u003c/b\u003e 会议纪要","type":"text"},{"source":{"data":"` + b64 + `","media_type":"image/png","type":"base64"},"type":"image"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"Done."}}}}
			var stand *llmtest.Server
			if tt.kind == llm.KindAnthropic {
				stand = llmtest.NewAnthropic(t, script)
			} else {
				stand = llmtest.NewOpenAI(t, script)
			}
			p, err := llm.New(llm.Config{Kind: tt.kind, BaseURL: stand.URL, Model: "stand-in", Quirks: llm.Quirks{Images: tt.images}})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := f.runner.Run(ctx, Turn{ConversationID: "c1", Provider: p, Text: "Summarise these", Attachments: atts}, func(Event) {})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Messages) != 2 || len(res.Messages[0].Parts) != 2 {
				t.Fatalf("the turn's messages: %+v", res.Messages)
			}
			reqs := stand.ChatRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			var body struct {
				Messages []struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			reqs[0].Decode(t, &body)
			last := body.Messages[len(body.Messages)-1]
			if last.Role != "user" || string(last.Content) != tt.want {
				t.Errorf("the model received %s\nwant %s", last.Content, tt.want)
			}
		})
	}
}
