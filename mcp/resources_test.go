package mcp

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// updates records the resource updates a manager passes on.
type updates struct {
	mu   sync.Mutex
	seen []string // "serverID uri"
}

func (u *updates) add(id, uri string) {
	u.mu.Lock()
	u.seen = append(u.seen, id+" "+uri)
	u.mu.Unlock()
}

func (u *updates) count(id, uri string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := 0
	for _, s := range u.seen {
		if s == id+" "+uri {
			n++
		}
	}
	return n
}

// contentManager is a manager on the given revision ("" for the newest)
// that records resource updates.
func contentManager(t *testing.T, version string) (*Manager, *updates) {
	t.Helper()
	u := &updates{}
	m := NewManager(Options{ClientName: "gatehouse-test", ProtocolVersion: version, OnResourceUpdated: u.add})
	t.Cleanup(m.Close)
	return m, u
}

// everythingServers are server-everything over stdio and Streamable HTTP.
func everythingServers() []struct {
	name string
	srv  func(t *testing.T) store.Server
} {
	return []struct {
		name string
		srv  func(t *testing.T) store.Server
	}{
		{"stdio", func(t *testing.T) store.Server {
			return store.Server{ID: "everything", Name: "Everything", Enabled: true, Transport: store.TransportStdio,
				Stdio: &store.StdioConfig{Command: "node", Args: []string{everythingPath(t), "stdio"}}}
		}},
		{"Streamable HTTP", func(t *testing.T) store.Server {
			return store.Server{ID: "everything", Name: "Everything", Enabled: true, Transport: store.TransportHTTP,
				HTTP: &store.HTTPConfig{URL: startEverythingHTTP(t, "streamableHttp") + "/mcp"}}
		}},
	}
}

// TestResources_ServerEverything: what a person does in the Resources view
// with server-everything: list resources and templates, read a text
// document, fill the blob template (its variable completed by the server)
// and read the blob, subscribe to a document and see updates arrive, also
// after the server was reconnected.
func TestResources_ServerEverything(t *testing.T) {
	for _, tr := range everythingServers() {
		t.Run(tr.name, func(t *testing.T) {
			m, ups := contentManager(t, "")
			srv := tr.srv(t)
			m.Set(srv)
			connected(t, m, srv.ID)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			list, err := m.ResourceList(ctx, srv.ID)
			if err != nil {
				t.Fatal(err)
			}
			doc := ""
			for _, r := range list.Resources {
				if strings.HasSuffix(r.URI, "/features.md") {
					doc = r.URI
				}
			}
			var templates []string
			for _, tp := range list.Templates {
				templates = append(templates, tp.URITemplate)
			}
			if doc == "" || !list.Subscribe || list.More ||
				strings.Join(templates, " ") != "demo://resource/dynamic/text/{resourceId} demo://resource/dynamic/blob/{resourceId}" {
				t.Fatalf("listed %d resources (features.md: %q), templates %v, subscribe %v, more %v", len(list.Resources), doc, templates, list.Subscribe, list.More)
			}

			read, err := m.ReadResource(ctx, srv.ID, doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(read.Contents) != 1 || !read.Contents[0].IsText || read.Contents[0].MIMEType != "text/markdown" ||
				read.Contents[0].Size != len(read.Contents[0].Raw.Text) || read.Contents[0].Size == 0 {
				t.Errorf("read %s: %+v", doc, read.Contents)
			}

			vars, err := TemplateVariables(templates[1])
			if err != nil || strings.Join(vars, ",") != "resourceId" {
				t.Fatalf("variables %v, %v", vars, err)
			}
			got, err := m.Complete(ctx, srv.ID, CompletionRef{Template: templates[1]}, "resourceId", "7", nil)
			if err != nil || strings.Join(got.Values, ",") != "7" {
				t.Errorf("completion of resourceId: %+v, %v", got, err)
			}
			uri, err := ExpandTemplate(templates[1], map[string]string{"resourceId": "7"})
			if err != nil || uri != "demo://resource/dynamic/blob/7" {
				t.Fatalf("expanded %q, %v", uri, err)
			}
			read, err = m.ReadResource(ctx, srv.ID, uri)
			if err != nil {
				t.Fatal(err)
			}
			if c := read.Contents[0]; c.IsText || c.Size != len(c.Raw.Blob) || !strings.HasPrefix(string(c.Raw.Blob), "Resource 7: This is a base64 blob") {
				t.Errorf("blob read: %+v", c)
			}
			if _, err := m.ReadResource(ctx, srv.ID, "demo://resource/dynamic/text/zero"); err == nil || !strings.Contains(err.Error(), "Everything did not read demo://resource/dynamic/text/zero") {
				t.Errorf("reading an unknown resource: %v", err)
			}

			if err := m.Subscribe(ctx, srv.ID, doc); err != nil {
				t.Fatal(err)
			}
			if _, err := m.CallTool(ctx, srv.ID, "toggle-subscriber-updates", nil); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "an update of the subscribed document", 15*time.Second, func() bool { return ups.count(srv.ID, doc) > 0 })

			// A new connection (a new process, or a new HTTP session) has
			// updates off again; the subscription is made anew by itself.
			if err := m.Reconnect(srv.ID); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the reconnection", 20*time.Second, func() bool {
				st, _ := m.Status(srv.ID)
				return st.State == StateConnected && st.Attempts >= 2
			})
			before := ups.count(srv.ID, doc)
			if _, err := m.CallTool(ctx, srv.ID, "toggle-subscriber-updates", nil); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "an update after reconnecting", 15*time.Second, func() bool { return ups.count(srv.ID, doc) > before })
			if err := m.Unsubscribe(ctx, srv.ID, doc); err != nil {
				t.Fatal(err)
			}
			if subs, _ := m.Subscriptions(srv.ID); len(subs) != 0 {
				t.Errorf("still subscribed to %v", subs)
			}
		})
	}
}

// TestPrompts_ServerEverything: server-everything's four prompts, with
// their arguments, and completion that uses the argument already chosen.
func TestPrompts_ServerEverything(t *testing.T) {
	for _, tr := range everythingServers() {
		t.Run(tr.name, func(t *testing.T) {
			m, _ := contentManager(t, "")
			srv := tr.srv(t)
			m.Set(srv)
			connected(t, m, srv.ID)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			prompts, err := m.Prompts(srv.ID)
			if err != nil || len(prompts) != 4 {
				t.Fatalf("prompts: %d, %v", len(prompts), err)
			}
			args, err := m.Prompt(srv.ID, "args-prompt")
			if err != nil || len(args.Arguments) != 2 || !args.Arguments[0].Required || args.Arguments[1].Required {
				t.Fatalf("args-prompt: %+v, %v", args, err)
			}

			dept, err := m.Complete(ctx, srv.ID, CompletionRef{Prompt: "completable-prompt"}, "department", "S", nil)
			if err != nil || strings.Join(dept.Values, ",") != "Sales,Support" {
				t.Errorf("department completion: %+v, %v", dept, err)
			}
			names, err := m.Complete(ctx, srv.ID, CompletionRef{Prompt: "completable-prompt"}, "name", "", map[string]string{"department": "Sales", "name": "x"})
			if err != nil || strings.Join(names.Values, ",") != "David,Eve,Frank" {
				t.Errorf("name completion in Sales: %+v, %v", names, err)
			}

			cases := []struct {
				name   string
				prompt string
				args   map[string]string
				want   []string // the text of each message
			}{
				{"no arguments", "simple-prompt", nil, []string{"This is a simple prompt without arguments."}},
				{"a required and an optional argument", "args-prompt", map[string]string{"city": "Oslo", "state": "Viken"}, []string{"What's weather in Oslo, Viken?"}},
				{"completed arguments", "completable-prompt", map[string]string{"department": "Sales", "name": "Eve"}, []string{"Please promote Eve to the head of the Sales team."}},
				{"an embedded resource", "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "2"},
					[]string{"This prompt includes the Text resource with id: 2. Please analyze the following resource:", "Resource 2: This is a plaintext resource"}},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					res, err := m.GetPrompt(ctx, srv.ID, tc.prompt, tc.args)
					if err != nil {
						t.Fatal(err)
					}
					if len(res.Messages) != len(tc.want) {
						t.Fatalf("%d messages, want %d", len(res.Messages), len(tc.want))
					}
					for i, msg := range res.Messages {
						var text string
						switch c := msg.Content.(type) {
						case *sdk.TextContent:
							text = c.Text
						case *sdk.EmbeddedResource:
							text = c.Resource.Text
						}
						if msg.Role != "user" || !strings.HasPrefix(text, tc.want[i]) {
							t.Errorf("message %d: %s %q, want %q", i, msg.Role, text, tc.want[i])
						}
					}
				})
			}
			if _, err := m.GetPrompt(ctx, srv.ID, "resource-prompt", map[string]string{"resourceType": "Video", "resourceId": "1"}); err == nil ||
				!strings.Contains(err.Error(), "Everything did not give the prompt resource-prompt") {
				t.Errorf("a prompt the server refuses: %v", err)
			}
		})
	}
}

// TestContent_DemoServer_2026: the go-sdk demo server on 2026-07-28 (the
// stateless revision): its resources (text, an image), its forecast
// template with completion, a subscription, and its prompt.
func TestContent_DemoServer_2026(t *testing.T) {
	m, ups := contentManager(t, "2026-07-28")
	srv := peerServer(t, "demo", "demo", nil)
	m.Set(srv)
	if st := connected(t, m, srv.ID); st.ProtocolVersion != "2026-07-28" {
		t.Fatalf("negotiated %s", st.ProtocolVersion)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := m.ResourceList(ctx, srv.ID)
	if err != nil || len(list.Resources) != 3 || len(list.Templates) != 1 || !list.Subscribe {
		t.Fatalf("list: %+v, %v", list, err)
	}
	logo, err := m.ReadResource(ctx, srv.ID, "gatehouse-demo://logo.png")
	if err != nil || len(logo.Contents) != 1 || logo.Contents[0].IsText || ImageType(logo.Contents[0].MIMEType, logo.Contents[0].Raw.Blob) != "image/png" {
		t.Fatalf("logo: %+v, %v", logo, err)
	}
	cities, err := m.Complete(ctx, srv.ID, CompletionRef{Template: list.Templates[0].URITemplate}, "city", "o", nil)
	if err != nil || strings.Join(cities.Values, ",") != "Oslo" {
		t.Errorf("cities: %+v, %v", cities, err)
	}
	uri, _ := ExpandTemplate(list.Templates[0].URITemplate, map[string]string{"city": "Oslo"})
	fc, err := m.ReadResource(ctx, srv.ID, uri)
	if err != nil || fc.Contents[0].MIMEType != "application/json" || !strings.Contains(fc.Contents[0].Raw.Text, `"city":"Oslo"`) {
		t.Errorf("forecast: %+v, %v", fc, err)
	}

	if err := m.Subscribe(ctx, srv.ID, "gatehouse-demo://note"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "an update of the note", 10*time.Second, func() bool {
		// The subscription stream opens in the background: update until heard.
		if _, err := m.CallTool(ctx, srv.ID, "echo", map[string]any{"message": "hello"}); err != nil {
			t.Fatal(err)
		}
		return ups.count(srv.ID, "gatehouse-demo://note") > 0
	})
	note, err := m.ReadResource(ctx, srv.ID, "gatehouse-demo://note")
	if err != nil || note.Contents[0].Raw.Text != "hello" {
		t.Errorf("the note after the update: %+v, %v", note, err)
	}

	pace, err := m.Complete(ctx, srv.ID, CompletionRef{Prompt: "weekend_plan"}, "pace", "b", map[string]string{"city": "Oslo"})
	if err != nil || strings.Join(pace.Values, ",") != "busy" {
		t.Errorf("pace: %+v, %v", pace, err)
	}
	plan, err := m.GetPrompt(ctx, srv.ID, "weekend_plan", map[string]string{"city": "Oslo", "pace": "busy"})
	if err != nil || len(plan.Messages) != 2 {
		t.Fatalf("weekend_plan: %+v, %v", plan, err)
	}
	if e, ok := plan.Messages[1].Content.(*sdk.EmbeddedResource); !ok || e.Resource.URI != "gatehouse-demo://forecast/Oslo" {
		t.Errorf("the second message is %#v", plan.Messages[1].Content)
	}
}

// TestContent_HostileServer: what a misbehaving server sends is bounded or
// refused with a sentence, and loses nothing else.
func TestContent_HostileServer(t *testing.T) {
	m, _ := contentManager(t, "2025-06-18")
	srv := peerServer(t, "hostile", "hostile", nil)
	m.Set(srv)
	connected(t, m, srv.ID)
	endless := peerServer(t, "endless", "hostile", map[string]string{"HOSTILE_ENDLESS": "1"})
	m.Set(endless)
	connected(t, m, endless.ID)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	t.Run("a huge resource is read with its size", func(t *testing.T) {
		res, err := m.ReadResource(ctx, srv.ID, "big://text")
		if err != nil || res.Contents[0].Size != hugeText || !res.Contents[0].IsText {
			t.Fatalf("%v", err)
		}
		page, next := TextPage(res.Contents[0].Raw.Text, 0, 1001)
		if len(page) != 1000 || next != 1000 {
			t.Errorf("a page of at most 1001 bytes of two-byte characters is %d bytes, next %d", len(page), next)
		}
	})
	t.Run("a blob that is not base64 says so", func(t *testing.T) {
		_, err := m.ReadResource(ctx, srv.ID, "bad://blob")
		var b64 base64.CorruptInputError
		if err == nil || !errors.As(err, &b64) || err.Error() != "hostile sent the binary contents of bad://blob in a form that is not base64, so they cannot be shown or saved" {
			t.Errorf("%v", err)
		}
	})
	t.Run("a template with bad syntax says so", func(t *testing.T) {
		list, err := m.ResourceList(ctx, srv.ID)
		if err != nil || len(list.Templates) != 1 {
			t.Fatalf("%+v, %v", list, err)
		}
		_, err = TemplateVariables(list.Templates[0].URITemplate)
		if err == nil || !strings.HasPrefix(err.Error(), "the resource template bad://{unclosed is not a valid URI template: ") {
			t.Errorf("%v", err)
		}
	})
	t.Run("a prompt with an unknown kind of content says so", func(t *testing.T) {
		_, err := m.GetPrompt(ctx, srv.ID, "odd", nil)
		if err == nil || err.Error() != "the prompt odd of hostile holds content of a kind MCP does not define (hologram), so it cannot be shown" {
			t.Errorf("%v", err)
		}
	})
	t.Run("a listing without end stops at the bound", func(t *testing.T) {
		list, err := m.ResourceList(ctx, endless.ID)
		if err != nil || len(list.Resources) != MaxListed || !list.More {
			t.Errorf("%d resources, more %v, %v", len(list.Resources), list.More, err)
		}
		if st, _ := m.Status(endless.ID); st.Resources != MaxListed {
			t.Errorf("the connection listed %d", st.Resources)
		}
	})
	t.Run("no completions offered says so", func(t *testing.T) {
		_, err := m.Complete(ctx, srv.ID, CompletionRef{Prompt: "odd"}, "x", "", nil)
		if !errors.Is(err, ErrNotOffered) || err.Error() != "hostile does not suggest values" {
			t.Errorf("%v", err)
		}
	})
	t.Run("no subscriptions offered says so", func(t *testing.T) {
		err := m.Subscribe(ctx, srv.ID, "big://text")
		if !errors.Is(err, ErrNotOffered) || err.Error() != "hostile does not offer updates of its resources" {
			t.Errorf("%v", err)
		}
	})
}

// TestTextPage: pages of text cut at whole characters.
func TestTextPage(t *testing.T) {
	cases := []struct {
		name          string
		text          string
		offset, limit int
		page          string
		next          int
	}{
		{"the whole text fits", "hello", 0, 10, "hello", 0},
		{"a first page", "hello world", 0, 5, "hello", 5},
		{"the last page", "hello world", 5, 100, " world", 0},
		{"a cut inside a character moves before it", "aé", 0, 2, "a", 1},
		{"an offset inside a character moves to its start", "aéb", 2, 10, "éb", 0},
		{"a limit smaller than a character takes it whole", "日本", 0, 1, "日", 3},
		{"an offset past the end is empty", "abc", 10, 5, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			page, next := TextPage(tc.text, tc.offset, tc.limit)
			if page != tc.page || next != tc.next {
				t.Errorf("got %q, %d; want %q, %d", page, next, tc.page, tc.next)
			}
		})
	}
}

// TestImageType: only PNG, JPEG, GIF and WebP whose bytes are what they
// say are shown inline; SVG never.
func TestImageType(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	cases := []struct {
		name, declared string
		data           []byte
		want           string
	}{
		{"a PNG", "image/png", png, "image/png"},
		{"a MIME type with parameters", "IMAGE/PNG; charset=binary", png, "image/png"},
		{"an SVG is never inline", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), ""},
		{"HTML that says it is a PNG", "image/png", []byte("<html><script>alert(1)</script></html>"), ""},
		{"a PNG that says it is a JPEG", "image/jpeg", png, ""},
		{"a PNG without a MIME type", "", png, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ImageType(tc.declared, tc.data); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestExpandTemplate: a template's variables filled as RFC 6570 says.
func TestExpandTemplate(t *testing.T) {
	cases := []struct {
		name, template string
		values         map[string]string
		want, problem  string
	}{
		{"a simple variable", "demo://forecast/{city}", map[string]string{"city": "Oslo"}, "demo://forecast/Oslo", ""},
		{"reserved characters are encoded", "demo://forecast/{city}", map[string]string{"city": "São Paulo/x"}, "demo://forecast/S%C3%A3o%20Paulo%2Fx", ""},
		{"an empty variable is left out", "file:///{+path}{?q}", map[string]string{"path": "a/b"}, "file:///a/b", ""},
		{"bad syntax says so", "bad://{unclosed", nil, "", "the resource template bad://{unclosed is not a valid URI template"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExpandTemplate(tc.template, tc.values)
			if tc.problem != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.problem) {
					t.Errorf("error %v, want %q", err, tc.problem)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestSubscribeFor_EachHolderKeepsItsOwn: the window and the gateway
// subscribe to the same resource; the server is asked once, the end of
// one's subscription leaves the other's (updates still arrive), and the
// last one's end ends it on the server.
func TestSubscribeFor_EachHolderKeepsItsOwn(t *testing.T) {
	m, ups := contentManager(t, "")
	srv := everythingServers()[0].srv(t)
	m.Set(srv)
	connected(t, m, srv.ID)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const doc = "demo://resource/static/document/features.md"
	if err := m.Subscribe(ctx, srv.ID, doc); err != nil {
		t.Fatal(err)
	}
	if err := m.SubscribeFor(ctx, srv.ID, doc, "gateway"); err != nil {
		t.Fatal(err)
	}
	if err := m.Unsubscribe(ctx, srv.ID, doc); err != nil {
		t.Fatal(err)
	}
	if subs, _ := m.Subscriptions(srv.ID); len(subs) != 0 || !m.SubscribedFor(srv.ID, doc, "gateway") || m.SubscribedFor(srv.ID, doc, "") {
		t.Fatalf("after the window's end: window %v, gateway %v", subs, m.SubscribedFor(srv.ID, doc, "gateway"))
	}
	if _, err := m.CallTool(ctx, srv.ID, "toggle-subscriber-updates", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "an update for the gateway's subscription", 15*time.Second, func() bool { return ups.count(srv.ID, doc) > 0 })
	if err := m.UnsubscribeFor(ctx, srv.ID, doc, "gateway"); err != nil {
		t.Fatal(err)
	}
	if m.SubscribedFor(srv.ID, doc, "gateway") {
		t.Error("still subscribed after the last holder's end")
	}
}
