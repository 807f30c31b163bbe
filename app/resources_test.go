package app

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// saveTo is a FileSaver that answers the save dialog with one path.
type saveTo string

func (s saveTo) SaveAnyFile(string, string) (string, error) { return string(s), nil }

// connectedDemo opens a core with the demo server connected.
func connectedDemo(t *testing.T) (*Core, *recorder, string) {
	t.Helper()
	core, rec := openTestCore(t)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	srv, err := core.Store.ServerByName(DemoServerName)
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the demo server", func() bool { st, _ := core.Manager.Status(srv.ID); return st.State == mcp.StateConnected })
	return core, rec, srv.ID
}

// TestResourcesService_Demo: the Resources view's story on the demo
// server: list, read text, an image and JSON from a template (its city
// suggested), subscribe to the note and hear it change, save the image.
func TestResourcesService_Demo(t *testing.T) {
	core, rec, id := connectedDemo(t)
	file := filepath.Join(t.TempDir(), "logo.png")
	svc := NewResourcesService(core, saveTo(file))

	list, err := svc.List(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != 3 || len(list.Templates) != 1 || !list.CanSubscribe || !list.CanComplete ||
		strings.Join(list.Templates[0].Variables, ",") != "city" || list.Templates[0].Problem != nil {
		t.Fatalf("list: %+v", list)
	}

	readme, err := svc.Read(id, "gatehouse-demo://readme")
	if err != nil || len(readme.Contents) != 1 || readme.Contents[0].Kind != KindText || !strings.HasPrefix(readme.Contents[0].Text, "# Gatehouse demo server") {
		t.Fatalf("readme: %+v, %v", readme, err)
	}

	logo, err := svc.Read(id, "gatehouse-demo://logo.png")
	if err != nil || logo.Contents[0].Kind != KindImage || !strings.HasPrefix(logo.Contents[0].DataURL, "data:image/png;base64,") || logo.Contents[0].FileName != "logo.png" {
		t.Fatalf("logo: %+v, %v", logo, err)
	}
	raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(logo.Contents[0].DataURL, "data:image/png;base64,"))
	if img, err := png.Decode(bytes.NewReader(raw)); err != nil || img.Bounds() != image.Rect(0, 0, 32, 32) {
		t.Errorf("the data URL is not the 32×32 logo: %v", err)
	}
	if path, err := svc.Save(id, "gatehouse-demo://logo.png", 0); err != nil || path != file {
		t.Fatalf("save: %q, %v", path, err)
	}
	if saved, _ := os.ReadFile(file); !bytes.Equal(saved, raw) {
		t.Errorf("saved %d bytes, want the logo's %d", len(saved), len(raw))
	}

	cities, err := svc.Complete(id, list.Templates[0].URITemplate, "city", "b", nil)
	if err != nil || !cities.Offered || strings.Join(cities.Values, ",") != "Beijing,Berlin" {
		t.Errorf("cities: %+v, %v", cities, err)
	}
	uri, err := svc.Expand(list.Templates[0].URITemplate, map[string]string{"city": "Berlin"})
	if err != nil {
		t.Fatal(err)
	}
	fc, err := svc.Read(id, uri)
	if err != nil || fc.Contents[0].Kind != KindJSON || !strings.Contains(fc.Contents[0].Text, "\n  \"city\": \"Berlin\",\n") {
		t.Errorf("forecast: %+v, %v", fc, err)
	}

	if err := svc.Subscribe(id, "gatehouse-demo://note"); err != nil {
		t.Fatal(err)
	}
	if _, err := NewToolsService(core).Call("", id, "echo", `{"message":"changed"}`); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the note's update event", func() bool {
		u, _ := rec.last(EventResourceUpdated).(ResourceUpdate)
		return u == ResourceUpdate{ServerID: id, URI: "gatehouse-demo://note"}
	})
	if list, _ := svc.List(id); strings.Join(list.Subscribed, ",") != "gatehouse-demo://note" {
		t.Errorf("subscribed: %v", list.Subscribed)
	}
	if err := svc.Unsubscribe(id, "gatehouse-demo://note"); err != nil {
		t.Error(err)
	}
}

// TestResourcesService_LinkInAToolResult: a resource_link that is not a
// web address is read on the server that returned it; a web address is
// not (it opens in the browser after consent).
func TestResourcesService_LinkInAToolResult(t *testing.T) {
	core, _, id := connectedDemo(t)
	res, err := NewToolsService(core).Call("", id, "readme_link", "")
	if err != nil {
		t.Fatal(err)
	}
	var readable, web *ContentView
	for i := range res.Content {
		if c := &res.Content[i]; c.Type == "resource_link" && c.Readable {
			readable = c
		} else if c.Type == "resource_link" {
			web = c
		}
	}
	if readable == nil || web == nil || readable.URI != "gatehouse-demo://readme" || web.Link == nil {
		t.Fatalf("links: %+v", res.Content)
	}
	read, err := NewResourcesService(core, nil).Read(id, readable.URI)
	if err != nil || !strings.Contains(read.Contents[0].Text, "demo server") {
		t.Errorf("reading the link: %+v, %v", read, err)
	}
}

// TestShowContent: how each kind of item of a read is shown, bounded.
func TestShowContent(t *testing.T) {
	pngBytes := func(w int) []byte {
		var b bytes.Buffer
		_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, w, 1)))
		return b.Bytes()
	}
	big := strings.Repeat("0123456789abcdef", PageBytes/16*2+10) // two pages and a bit
	cases := []struct {
		name     string
		contents *sdk.ResourceContents
		mime     string
		kind     string
		check    func(t *testing.T, s shownContent)
	}{
		{"a huge text comes a page at a time", &sdk.ResourceContents{URI: "x://big", Text: big}, "text/plain", KindText, func(t *testing.T, s shownContent) {
			var whole strings.Builder
			offset, pages := 0, 0
			for {
				p := s.page(offset)
				if len(p.Text) > PageBytes || p.Size != len(big) || p.Offset != offset {
					t.Fatalf("page at %d: %d bytes, size %d, offset %d", offset, len(p.Text), p.Size, p.Offset)
				}
				whole.WriteString(p.Text)
				pages++
				if p.NextOffset == 0 {
					break
				}
				offset = p.NextOffset
			}
			if pages != 3 || whole.String() != big {
				t.Errorf("%d pages; the pages make the text: %v", pages, whole.String() == big)
			}
		}},
		{"JSON is pretty-printed", &sdk.ResourceContents{URI: "x://a.json", Text: `{"a":[1,2]}`}, "application/json", KindJSON, func(t *testing.T, s shownContent) {
			if p := s.page(0); p.Text != "{\n  \"a\": [\n    1,\n    2\n  ]\n}" {
				t.Errorf("%q", p.Text)
			}
		}},
		{"JSON that does not parse is shown as it came", &sdk.ResourceContents{URI: "x://a.json", Text: `{"a":`}, "application/json", KindText, nil},
		{"a blob that says it is text is shown as text", &sdk.ResourceContents{URI: "x://t", Blob: []byte("hello")}, "text/plain", KindText, func(t *testing.T, s shownContent) {
			if p := s.page(0); p.Text != "hello" {
				t.Errorf("%q", p.Text)
			}
		}},
		{"an SVG is shown as its text, never as an image", &sdk.ResourceContents{URI: "x://a.svg", Blob: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)}, "image/svg+xml", KindText, func(t *testing.T, s shownContent) {
			if s.view.DataURL != "" || !strings.HasPrefix(s.page(0).Text, "<svg") || s.view.FileName != "a.svg" {
				t.Errorf("%+v", s.view)
			}
		}},
		{"an image over the bound is offered for saving with a note", &sdk.ResourceContents{URI: "x://big.png", Blob: append(pngBytes(1), make([]byte, MaxInlineImage)...)}, "image/png", KindBinary, func(t *testing.T, s shownContent) {
			if s.view.DataURL != "" || s.view.Note == nil || s.view.Size != len(s.data) {
				t.Errorf("%+v", s.view)
			}
		}},
		{"a PNG is shown", &sdk.ResourceContents{URI: "x://p", Blob: pngBytes(4)}, "image/png", KindImage, func(t *testing.T, s shownContent) {
			if !strings.HasPrefix(s.view.DataURL, "data:image/png;base64,") || s.view.FileName != "p.png" {
				t.Errorf("%+v", s.view)
			}
		}},
		{"other binary data is offered for saving with its size", &sdk.ResourceContents{URI: "x://data.bin", Blob: []byte{0, 1, 2, 255}}, "application/octet-stream", KindBinary, func(t *testing.T, s shownContent) {
			if s.view.Size != 4 || s.view.MimeType != "application/octet-stream" || !bytes.Equal(s.data, []byte{0, 1, 2, 255}) {
				t.Errorf("%+v", s.view)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mcp.Contents{Raw: tc.contents, MIMEType: tc.mime, IsText: tc.contents.Blob == nil}
			s := showContent(0, tc.contents.URI, c)
			if s.view.Kind != tc.kind {
				t.Fatalf("kind %q, want %q", s.view.Kind, tc.kind)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

// TestPromptsService_Demo: the prompt pane's story: the prompt and its
// arguments, a required one left empty said before sending, suggestions,
// and the messages with the embedded forecast readable on its server.
func TestPromptsService_Demo(t *testing.T) {
	core, _, id := connectedDemo(t)
	svc := NewPromptsService(core)
	list, err := svc.List(id)
	if err != nil || len(list) != 1 || list[0].Name != "weekend_plan" || len(list[0].Arguments) != 2 || !list[0].Arguments[0].Required {
		t.Fatalf("prompts: %+v, %v", list, err)
	}
	if _, err := svc.Get(id, "weekend_plan", map[string]string{"pace": "busy"}); err == nil || err.Error() != "The prompt weekend_plan needs city" {
		t.Errorf("without the city: %v", err)
	}
	if _, err := svc.Get(id, "nope", nil); err == nil || err.Error() != "Demo server has no prompt named nope" {
		t.Errorf("no such prompt: %v", err)
	}
	pace, err := svc.Complete(id, "weekend_plan", "pace", "", map[string]string{"city": "Oslo"})
	if err != nil || strings.Join(pace.Values, ",") != "relaxed,busy" {
		t.Errorf("pace: %+v, %v", pace, err)
	}
	res, err := svc.Get(id, "weekend_plan", map[string]string{"city": "Oslo"})
	if err != nil || len(res.Messages) != 2 || res.Description != "A relaxed weekend in Oslo" {
		t.Fatalf("messages: %+v, %v", res, err)
	}
	if m := res.Messages[1]; m.Role != "user" || m.Content.Type != "resource" || !m.Content.Readable || m.Content.URI != "gatehouse-demo://forecast/Oslo" {
		t.Errorf("the embedded forecast: %+v", m)
	}
}

// TestParsePromptArgs: the command line's JSON arguments of a prompt.
func TestParsePromptArgs(t *testing.T) {
	cases := []struct {
		name, in, want, problem string
	}{
		{"none", "", "map[]", ""},
		{"text", `{"city":"Oslo"}`, "map[city:Oslo]", ""},
		{"a number and a boolean as written", `{"days":3,"kids":true}`, "map[days:3 kids:true]", ""},
		{"a list is refused", `{"cities":["a"]}`, "", "The prompt argument cities must be text (or a number), not a list or an object"},
		{"not an object", `[1]`, "", "The prompt's arguments must be a JSON object, such as {\"city\": \"Oslo\"}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parsePromptArgs(tc.in)
			if tc.problem != "" {
				if err == nil || err.Error() != tc.problem {
					t.Errorf("error %v, want %q", err, tc.problem)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != tc.want {
				t.Errorf("got %v, %v", got, err)
			}
		})
	}
}
