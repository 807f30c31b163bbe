package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"mime"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// Bounds of what a read shows at once. The window gets text a page at a
// time (ResourcesService.Page), an image inline only up to MaxInlineImage,
// and any other binary only when saved; the command line gets everything.
const (
	// PageBytes is how much text one page holds.
	PageBytes = 256 << 10
	// MaxInlineImage is the largest image shown inline, as a data: URL.
	MaxInlineImage = 8 << 20
	// keptReads is how many reads the service keeps for paging and saving.
	keptReads = 8
	// requestTimeout bounds a read, a prompt or a completion.
	requestTimeout = 60 * time.Second
)

// Kinds of resource contents, as the window shows them.
const (
	KindText   = "text"   // text, a page at a time
	KindJSON   = "json"   // JSON, pretty-printed, a page at a time
	KindImage  = "image"  // a PNG, JPEG, GIF or WebP image: DataURL
	KindBinary = "binary" // anything else: offered for saving
)

// EventResourceUpdated carries a ResourceUpdate when a resource the person
// subscribed to changed.
const EventResourceUpdated = "resources:updated"

// EventResources carries the ID of a server whose resources may have
// changed (its list changed, or it connected again); EventPrompts the
// same for prompts.
const (
	EventResources = "resources:changed"
	EventPrompts   = "prompts:changed"
)

// ResourceUpdate says which subscribed resource changed.
type ResourceUpdate struct {
	ServerID string `json:"serverId"`
	URI      string `json:"uri"`
}

// ResourceListView is a server's resources and resource templates, as the
// window lists them. Every string in it is server text.
type ResourceListView struct {
	Resources []ResourceView `json:"resources"`
	Templates []TemplateView `json:"templates"`
	// More is set when the server listed more than mcp.MaxListed: the rest
	// are not shown.
	More bool `json:"more"`
	// CanSubscribe is true when the server sends updates of its resources;
	// CanComplete when it suggests values for template variables.
	CanSubscribe bool `json:"canSubscribe"`
	CanComplete  bool `json:"canComplete"`
	// Subscribed are the URIs the person subscribed to.
	Subscribed []string `json:"subscribed"`
}

// ResourceView is one resource a server lists.
type ResourceView struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title"` // title, else name
	Description string `json:"description"`
	MimeType    string `json:"mimeType"`
	Size        int64  `json:"size"` // as the server says; 0 when it does not
}

// TemplateView is one resource template: its variables are filled to make
// a URI (ResourcesService.Expand), with suggestions when CanComplete.
type TemplateView struct {
	URITemplate string   `json:"uriTemplate"`
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	MimeType    string   `json:"mimeType"`
	Variables   []string `json:"variables"`
	// Problem says why the template cannot be filled (it is not a valid
	// URI template); Variables is then empty.
	Problem *i18n.Message `json:"problem,omitempty"`
}

// ResourceReadView is one read of a resource, ready to show.
type ResourceReadView struct {
	ServerID string                `json:"serverId"`
	URI      string                `json:"uri"`
	Contents []ResourceContentView `json:"contents"`
}

// ResourceContentView is one item of a read. Text is server text: show it
// as text, never as HTML.
type ResourceContentView struct {
	// Index is the item's place in the read, for Page and Save.
	Index    int    `json:"index"`
	URI      string `json:"uri"`
	MimeType string `json:"mimeType"`
	Kind     string `json:"kind"` // KindText, KindJSON, KindImage or KindBinary
	// Text is a page of the text (KindText, KindJSON pretty-printed),
	// starting at byte Offset; NextOffset is where the next page starts,
	// 0 when this page reaches the end.
	Text       string `json:"text"`
	Offset     int    `json:"offset"`
	NextOffset int    `json:"nextOffset"`
	// Size is the whole text's length in bytes (as shown), or the binary's.
	Size int `json:"size"`
	// DataURL is a data: URL of an image (KindImage): PNG, JPEG, GIF or
	// WebP whose bytes are what its MIME type says; never SVG.
	DataURL string `json:"dataUrl"`
	// FileName is a name to save it under.
	FileName string `json:"fileName"`
	// Note says why an image or a text is offered for saving only.
	Note *i18n.Message `json:"note,omitempty"`
}

// CompletionView is what a server suggests for an argument.
type CompletionView struct {
	Values  []string `json:"values"`
	HasMore bool     `json:"hasMore"`
	Total   int      `json:"total"`
	// Offered is false when the server does not suggest values at all.
	Offered bool `json:"offered"`
}

// A FileSaver asks where to save a file of any kind: the GUI's save dialog.
// It returns the chosen path, or "" when the person cancelled.
type FileSaver interface {
	SaveAnyFile(title, defaultName string) (string, error)
}

// ResourcesService is bound to the frontend: browsing, reading and
// subscribing to a server's resources. The command line uses it too.
type ResourcesService struct {
	core  *Core
	files FileSaver // nil outside the GUI: Save refuses

	mu    sync.Mutex
	reads []*keptRead // newest last, at most keptReads
}

// keptRead is a read kept for paging and saving, with each item's text as
// shown (JSON pretty-printed) and bytes.
type keptRead struct {
	serverID, uri string
	items         []shownContent
}

// shownContent is one item of a read, as it is shown.
type shownContent struct {
	view ResourceContentView // without Text, Offset and NextOffset
	text string              // KindText, KindJSON
	data []byte              // the bytes to save
}

// NewResourcesService returns the resources service on core; files (may be
// nil) is where Save asks for a file.
func NewResourcesService(core *Core, files FileSaver) *ResourcesService {
	return &ResourcesService{core: core, files: files}
}

// List lists a connected server's resources and templates now.
func (r *ResourcesService) List(serverID string) (ResourceListView, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	list, err := r.core.Manager.ResourceList(ctx, serverID)
	if err != nil {
		return ResourceListView{}, err
	}
	v := ResourceListView{Resources: make([]ResourceView, 0, len(list.Resources)), Templates: make([]TemplateView, 0, len(list.Templates)),
		More: list.More, CanSubscribe: list.Subscribe, Subscribed: []string{}}
	for _, res := range list.Resources {
		v.Resources = append(v.Resources, ResourceView{URI: res.URI, Name: res.Name, Title: orName(res.Title, res.Name),
			Description: res.Description, MimeType: res.MIMEType, Size: res.Size})
	}
	for _, t := range list.Templates {
		tv := TemplateView{URITemplate: t.URITemplate, Name: t.Name, Title: orName(t.Title, t.Name), Description: t.Description,
			MimeType: t.MIMEType, Variables: []string{}}
		if vars, err := mcp.TemplateVariables(t.URITemplate); err != nil {
			m := i18n.ErrorMessage(err)
			tv.Problem = &m
		} else {
			tv.Variables = append(tv.Variables, vars...)
		}
		v.Templates = append(v.Templates, tv)
	}
	if st, err := r.core.Manager.Status(serverID); err == nil {
		for _, c := range st.Capabilities {
			v.CanComplete = v.CanComplete || c == "completions"
		}
	}
	if subs, err := r.core.Manager.Subscriptions(serverID); err == nil {
		v.Subscribed = append(v.Subscribed, subs...)
	}
	return v, nil
}

func orName(title, name string) string {
	if title != "" {
		return title
	}
	return name
}

// Read reads a resource on a server: one the server listed, one made from
// a template, or a link (resource_link or embedded resource) in a result
// of that server's that is not a web address. Text comes as its first
// page.
func (r *ResourcesService) Read(serverID, uri string) (ResourceReadView, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	res, err := r.core.Manager.ReadResource(ctx, serverID, uri)
	if err != nil {
		return ResourceReadView{}, err
	}
	kept := &keptRead{serverID: serverID, uri: uri}
	for i, c := range res.Contents {
		kept.items = append(kept.items, showContent(i, uri, c))
	}
	r.mu.Lock()
	r.reads = append(r.reads, kept)
	if len(r.reads) > keptReads {
		r.reads = r.reads[len(r.reads)-keptReads:]
	}
	r.mu.Unlock()
	v := ResourceReadView{ServerID: serverID, URI: uri, Contents: make([]ResourceContentView, 0, len(kept.items))}
	for _, item := range kept.items {
		v.Contents = append(v.Contents, item.page(0))
	}
	return v, nil
}

// Page returns the page of an item's text that starts at byte offset, from
// the latest read of the resource (read again when it is no longer kept).
func (r *ResourcesService) Page(serverID, uri string, index, offset int) (ResourceContentView, error) {
	item, err := r.item(serverID, uri, index)
	if err != nil {
		return ResourceContentView{}, err
	}
	return item.page(offset), nil
}

// Save asks the person where to save an item of the latest read of a
// resource and writes its bytes there (text as UTF-8, as the server sent
// it); it returns the path, or "" when the person cancelled.
func (r *ResourcesService) Save(serverID, uri string, index int) (string, error) {
	if r.files == nil {
		return "", i18n.Err("resources.error.noWindow")
	}
	item, err := r.item(serverID, uri, index)
	if err != nil {
		return "", err
	}
	file, err := r.files.SaveAnyFile(i18n.M("resources.saveTitle").String(), item.view.FileName)
	if err != nil || file == "" {
		return "", err
	}
	if err := os.WriteFile(file, item.data, 0o600); err != nil {
		return "", i18n.Wrap(err, "resources.error.save", "path", file, "detail", err)
	}
	return file, nil
}

// item returns an item of the latest read of serverID's uri, reading it
// again when it is not kept.
func (r *ResourcesService) item(serverID, uri string, index int) (shownContent, error) {
	find := func() *keptRead {
		r.mu.Lock()
		defer r.mu.Unlock()
		for i := len(r.reads) - 1; i >= 0; i-- {
			if k := r.reads[i]; k.serverID == serverID && k.uri == uri {
				return k
			}
		}
		return nil
	}
	kept := find()
	if kept == nil {
		if _, err := r.Read(serverID, uri); err != nil {
			return shownContent{}, err
		}
		kept = find()
	}
	if kept == nil || index < 0 || index >= len(kept.items) {
		return shownContent{}, i18n.Err("resources.error.noItem", "uri", uri)
	}
	return kept.items[index], nil
}

// Expand fills a template's variables and returns the URI to read.
func (r *ResourcesService) Expand(uriTemplate string, values map[string]string) (string, error) {
	return mcp.ExpandTemplate(uriTemplate, values)
}

// Complete asks the server for values of a template's variable that start
// like value; filled are the variables already chosen.
func (r *ResourcesService) Complete(serverID, uriTemplate, variable, value string, filled map[string]string) (CompletionView, error) {
	return complete(r.core, serverID, mcp.CompletionRef{Template: uriTemplate}, variable, value, filled)
}

// complete asks a server for suggestions; one that offers none is not an
// error.
func complete(core *Core, serverID string, ref mcp.CompletionRef, argument, value string, filled map[string]string) (CompletionView, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	res, err := core.Manager.Complete(ctx, serverID, ref, argument, value, filled)
	if errors.Is(err, mcp.ErrNotOffered) {
		return CompletionView{Values: []string{}}, nil
	}
	if err != nil {
		return CompletionView{}, err
	}
	values := append([]string{}, res.Values...)
	return CompletionView{Values: values, HasMore: res.HasMore, Total: res.Total, Offered: true}, nil
}

// Subscribe asks the server to say when the resource changes: an
// EventResourceUpdated follows each change, until Unsubscribe.
func (r *ResourcesService) Subscribe(serverID, uri string) error {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	return r.core.Manager.Subscribe(ctx, serverID, uri)
}

// Unsubscribe ends a subscription.
func (r *ResourcesService) Unsubscribe(serverID, uri string) error {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	return r.core.Manager.Unsubscribe(ctx, serverID, uri)
}

// showContent decides how an item of a read of uri is shown.
func showContent(index int, uri string, c mcp.Contents) shownContent {
	itemURI := c.Raw.URI
	if itemURI == "" {
		itemURI = uri
	}
	s := shownContent{view: ResourceContentView{Index: index, URI: itemURI, MimeType: c.MIMEType, FileName: fileName(itemURI, c.MIMEType)}}
	text, isText := c.Raw.Text, c.IsText
	if isText {
		s.data = []byte(text)
	} else {
		s.data = c.Raw.Blob
		// A blob that says it is text (and is) is shown as text.
		if textual(c.MIMEType) && utf8.Valid(c.Raw.Blob) {
			text, isText = string(c.Raw.Blob), true
		}
	}
	switch {
	case isText && jsonType(c.MIMEType) && json.Valid([]byte(text)):
		var b bytes.Buffer
		if json.Indent(&b, []byte(text), "", "  ") == nil {
			text = b.String()
		}
		s.view.Kind, s.text = KindJSON, text
	case isText:
		s.view.Kind, s.text = KindText, text
	case mcp.ImageType(c.MIMEType, c.Raw.Blob) != "" && len(c.Raw.Blob) <= MaxInlineImage:
		s.view.Kind = KindImage
		s.view.DataURL = "data:" + mcp.ImageType(c.MIMEType, c.Raw.Blob) + ";base64," + base64.StdEncoding.EncodeToString(c.Raw.Blob)
	default:
		s.view.Kind = KindBinary
		if mcp.ImageType(c.MIMEType, c.Raw.Blob) != "" {
			n := i18n.M("resources.note.bigImage", "max", MaxInlineImage>>20)
			s.view.Note = &n
		}
	}
	s.view.Size = len(s.data)
	if isText {
		s.view.Size = len(s.text)
	}
	return s
}

// page is the item's view with the page of its text from offset.
func (s shownContent) page(offset int) ResourceContentView {
	v := s.view
	if v.Kind == KindText || v.Kind == KindJSON {
		v.Text, v.NextOffset = mcp.TextPage(s.text, offset, PageBytes)
		v.Offset = min(max(offset, 0), len(s.text))
		for v.Offset > 0 && v.Offset < len(s.text) && !utf8.RuneStart(s.text[v.Offset]) {
			v.Offset--
		}
	}
	return v
}

// textual reports whether a MIME type is text: text/*, JSON, XML or
// JavaScript.
func textual(mimeType string) bool {
	base := strings.ToLower(strings.TrimSpace(strings.Split(mimeType, ";")[0]))
	return strings.HasPrefix(base, "text/") || jsonType(base) || strings.HasSuffix(base, "+xml") ||
		base == "application/xml" || base == "application/javascript"
}

// jsonType reports whether a MIME type is JSON.
func jsonType(mimeType string) bool {
	base := strings.ToLower(strings.TrimSpace(strings.Split(mimeType, ";")[0]))
	return base == "application/json" || strings.HasSuffix(base, "+json")
}

// fileName is a name to save a resource under: the last part of its URI,
// with an extension for its MIME type when it has none.
func fileName(uri, mimeType string) string {
	name := ""
	if u, err := url.Parse(uri); err == nil {
		name = path.Base(u.Path)
		if name == "." || name == "/" {
			name = u.Host
		}
	}
	name = strings.Map(func(r rune) rune {
		if r < ' ' || strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, name)
	if name == "" {
		name = "resource"
	}
	if path.Ext(name) == "" {
		if exts, _ := mime.ExtensionsByType(strings.Split(mimeType, ";")[0]); len(exts) > 0 {
			name += exts[0]
		}
	}
	if len(name) > 100 {
		name = name[len(name)-100:]
	}
	return name
}
