package mcp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Resources: listing, reading, templates and subscriptions (the Manager's
// side; a session keeps its subscriptions across reconnects).

// Listing bounds. A server decides how many items a page holds and whether
// there is a next page: one that lists without end (or repeats a cursor)
// must not make the host spin or fill its memory. The first MaxListed items
// are kept and the listing says there were more.
const (
	MaxListed   = 10000
	maxListPage = 1000 // pages per listing, even empty ones
)

// ErrNotOffered is wrapped by the sentences for a feature the server did
// not declare (resources, prompts, completions, subscriptions).
var ErrNotOffered = errors.New("not offered by the server")

// ResourceList is what a server offers to read: its resources and its
// resource templates, in the server's order.
type ResourceList struct {
	Resources []*sdk.Resource
	Templates []*sdk.ResourceTemplate
	// More is set when the server listed more than MaxListed of either:
	// the rest were not read.
	More bool
	// Subscribe is true when the server lets clients subscribe to updates.
	Subscribe bool
}

// ResourceList lists the server's resources and resource templates now,
// every page. A server that does not offer resources gets a sentence
// saying so (wrapping ErrNotOffered); one that offers resources but not
// templates (resources/templates/list unknown to it) has none.
func (m *Manager) ResourceList(ctx context.Context, id string) (ResourceList, error) {
	ctx, s, cs, release, err := m.liveSession(ctx, id)
	if err != nil {
		return ResourceList{}, err
	}
	defer release()
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Resources == nil {
		return ResourceList{}, i18n.Wrap(ErrNotOffered, "mcp.resources.notOffered", "server", m.config(id, s.srv).Name)
	}
	var list ResourceList
	list.Subscribe = caps.Resources.Subscribe
	var more bool
	list.Resources, list.More, err = listPages(ctx, func(ctx context.Context, cursor string) ([]*sdk.Resource, string, error) {
		r, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.Resources, r.NextCursor, nil
	})
	if err != nil {
		return ResourceList{}, m.listFailed(id, s, connectionEnded(ctx, err))
	}
	list.Templates, more, err = listPages(ctx, func(ctx context.Context, cursor string) ([]*sdk.ResourceTemplate, string, error) {
		r, err := cs.ListResourceTemplates(ctx, &sdk.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.ResourceTemplates, r.NextCursor, nil
	})
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeMethodNotFound {
		err = nil // resources without templates
	}
	if err != nil {
		return ResourceList{}, m.listFailed(id, s, connectionEnded(ctx, err))
	}
	list.More = list.More || more
	list.Resources, list.Templates = uniqueResources(s.log, list.Resources), uniqueTemplates(s.log, list.Templates)
	if list.More {
		s.log.event(fmt.Sprintf("the server lists more than %d resources or templates; only the first %d of each are shown", MaxListed, MaxListed))
	}
	return list, nil
}

// listPages reads a list page by page until the server gives no cursor,
// keeping at most MaxListed items and reading at most maxListPage pages;
// more reports whether it stopped before the end.
func listPages[T any](ctx context.Context, page func(ctx context.Context, cursor string) ([]T, string, error)) (items []T, more bool, err error) {
	cursor := ""
	for range maxListPage {
		got, next, err := page(ctx, cursor)
		if err != nil {
			return nil, false, err
		}
		items = append(items, got...)
		if len(items) > MaxListed {
			return items[:MaxListed], true, nil
		}
		if next == "" {
			return items, false, nil
		}
		cursor = next
	}
	return items, true, nil
}

// ReadResult is one resources/read: the result as the go-sdk gave it, and
// each of its contents described for a viewer.
type ReadResult struct {
	Raw      *sdk.ReadResourceResult
	Contents []Contents
}

// Contents is one item of a read, as the go-sdk gave it, with what a viewer
// needs first: its MIME type, whether it is text, and its size.
type Contents struct {
	Raw *sdk.ResourceContents
	// MIMEType is the item's own, else the one the server listed the
	// resource with, else "" (unknown).
	MIMEType string
	// IsText is true for a text item; false for a blob.
	IsText bool
	// Size is the text's length in bytes (UTF-8), or the blob's.
	Size int
}

// ReadResource reads a resource from the server. A read whose contents the
// go-sdk cannot decode (a blob that is not base64) fails with a sentence
// saying so; an empty result is not an error.
func (m *Manager) ReadResource(ctx context.Context, id, uri string) (*ReadResult, error) {
	ctx, s, cs, release, err := m.liveSession(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Resources == nil {
		return nil, i18n.Wrap(ErrNotOffered, "mcp.resources.notOffered", "server", m.config(id, s.srv).Name)
	}
	params := &sdk.ReadResourceParams{URI: uri}
	defer s.progress.track(ctx, params)() // progress to ctx's report (WithProgress)
	res, err := cs.ReadResource(ctx, params)
	var b64 base64.CorruptInputError
	switch {
	case errors.As(err, &b64):
		return nil, i18n.Wrap(err, "mcp.resources.badBlob", "server", m.config(id, s.srv).Name, "uri", uri)
	case err != nil:
		return nil, m.readFailed(id, s, uri, connectionEnded(ctx, err))
	}
	listed := ""
	s.mu.Lock()
	for _, r := range s.resources {
		if r.URI == uri {
			listed = r.MIMEType
		}
	}
	s.mu.Unlock()
	out := &ReadResult{Raw: res, Contents: make([]Contents, 0, len(res.Contents))}
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		item := Contents{Raw: c, MIMEType: c.MIMEType, IsText: c.Blob == nil, Size: len(c.Text)}
		if !item.IsText {
			item.Size = len(c.Blob)
		}
		if item.MIMEType == "" && (c.URI == "" || c.URI == uri) {
			item.MIMEType = listed
		}
		out.Contents = append(out.Contents, item)
	}
	return out, nil
}

// readFailed says why a read failed: the server's own answer (no such
// resource is -32602 since 2025-11-25, -32002 before), or what went wrong.
func (m *Manager) readFailed(id string, s *session, uri string, err error) error {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return i18n.Wrap(err, "mcp.resources.refused", "server", m.config(id, s.srv).Name, "uri", uri, "detail", rpcErr.Message)
	}
	return i18n.Wrap(err, "mcp.resources.readFailed", "server", m.config(id, s.srv).Name, "uri", uri, "detail", Describe(err))
}

// listFailed says why listing the server's resources failed.
func (m *Manager) listFailed(id string, s *session, err error) error {
	return i18n.Wrap(err, "mcp.resources.listFailed", "server", m.config(id, s.srv).Name, "detail", Describe(err))
}

// TextPage returns at most limit bytes of text from byte offset, cut at
// whole characters, and the offset of the rest (0 when the page reaches the
// end). An offset inside a character moves back to its start.
func TextPage(text string, offset, limit int) (page string, next int) {
	offset = min(max(offset, 0), len(text))
	for offset > 0 && offset < len(text) && !utf8.RuneStart(text[offset]) {
		offset--
	}
	end := offset + max(limit, 1)
	if end >= len(text) {
		return text[offset:], 0
	}
	for end > offset && !utf8.RuneStart(text[end]) {
		end--
	}
	if end == offset { // a limit smaller than one character: take it whole
		_, size := utf8.DecodeRuneInString(text[offset:])
		end = offset + size
	}
	return text[offset:end], end
}

// ImageType returns the MIME type of an image a viewer may show inline —
// PNG, JPEG, GIF or WebP, as declared AND as its bytes are — or "" for
// anything else. SVG is never one: it can carry scripts and links.
func ImageType(declared string, data []byte) string {
	declared = strings.ToLower(strings.TrimSpace(strings.Split(declared, ";")[0]))
	switch declared {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return ""
	}
	if http.DetectContentType(data) != declared {
		return "" // the bytes are not what the server says
	}
	return declared
}

// TemplateVariables returns the variables of an RFC 6570 URI template, in
// order, or a sentence saying why the template cannot be used.
func TemplateVariables(template string) ([]string, error) {
	t, err := uritemplate.New(template)
	if err != nil {
		return nil, i18n.Wrap(err, "mcp.resources.badTemplate", "template", template, "detail", err.Error())
	}
	// A template may name a variable twice ({id}/{id}): it is one value.
	var names []string
	for _, n := range t.Varnames() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names, nil
}

// ExpandTemplate fills an RFC 6570 URI template's variables with values
// (an empty one is left out, as RFC 6570 says) and returns the URI.
func ExpandTemplate(template string, values map[string]string) (string, error) {
	t, err := uritemplate.New(template)
	if err != nil {
		return "", i18n.Wrap(err, "mcp.resources.badTemplate", "template", template, "detail", err.Error())
	}
	// uritemplate v3.0.2 percent-encodes a character beyond ASCII by its
	// code point ("ã" as %E3), not by its UTF-8 bytes (%C3%A3) as RFC 6570
	// section 1.6 says. Such characters go through as placeholders made of
	// unreserved characters, which every operator keeps as they are, and
	// are encoded here.
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	mark := "~" + hex.EncodeToString(nonce[:])
	var encoded []string
	vals := uritemplate.Values{}
	for k, v := range values {
		if v == "" {
			continue
		}
		var b strings.Builder
		for _, r := range v {
			if r < utf8.RuneSelf {
				b.WriteRune(r)
				continue
			}
			b.WriteString(mark + strconv.Itoa(len(encoded)) + "~")
			encoded = append(encoded, url.PathEscape(string(r)))
		}
		vals.Set(k, uritemplate.String(b.String()))
	}
	uri, err := t.Expand(vals)
	if err != nil {
		return "", i18n.Wrap(err, "mcp.resources.badTemplate", "template", template, "detail", err.Error())
	}
	for i, e := range encoded {
		uri = strings.Replace(uri, mark+strconv.Itoa(i)+"~", e, 1)
	}
	return uri, nil
}

// Subscribe asks the server for notifications/resources/updated of uri,
// for the window (SubscribeFor, holder ""); each arrives through
// Options.OnResourceUpdated. The subscription is made again on every
// reconnection of the server until Unsubscribe (or the server's
// configuration changes).
func (m *Manager) Subscribe(ctx context.Context, id, uri string) error {
	return m.SubscribeFor(ctx, id, uri, "")
}

// SubscribeFor subscribes to uri for holder (the window is "", another
// part of Gatehouse names itself, e.g. the gateway): the server is asked
// once, for the first holder, and told to stop once the last one ends
// (UnsubscribeFor), so that one holder's end does not end another's.
func (m *Manager) SubscribeFor(ctx context.Context, id, uri, holder string) error {
	ctx, s, cs, release, err := m.liveSession(ctx, id)
	if err != nil {
		return err
	}
	defer release()
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Resources == nil || !caps.Resources.Subscribe {
		return i18n.Wrap(ErrNotOffered, "mcp.resources.noSubscribe", "server", m.config(id, s.srv).Name)
	}
	s.subMu.Lock() // one change of the subscriptions at a time, with the server's answer
	defer s.subMu.Unlock()
	s.mu.Lock()
	already := len(s.subscribed[uri]) > 0
	if already {
		s.subscribed[uri][holder] = true
	}
	s.mu.Unlock()
	if already {
		return nil
	}
	var acked chan struct{}
	if listensForUpdates(cs) {
		acked = s.acks.expect(uri)
		defer s.acks.forget(uri, acked)
	}
	if err := connectionEnded(ctx, cs.Subscribe(ctx, &sdk.SubscribeParams{URI: uri})); err != nil {
		return i18n.Wrap(err, "mcp.resources.subscribeFailed", "server", m.config(id, s.srv).Name, "uri", uri, "detail", Describe(err))
	}
	if acked != nil {
		wait := time.NewTimer(subscribeAckTimeout)
		defer wait.Stop()
		select {
		case <-acked:
		case <-ctx.Done():
			_ = cs.Unsubscribe(context.WithoutCancel(ctx), &sdk.UnsubscribeParams{URI: uri})
			return ctx.Err()
		case <-wait.C:
			_ = cs.Unsubscribe(context.WithoutCancel(ctx), &sdk.UnsubscribeParams{URI: uri})
			return i18n.Err("mcp.resources.notConfirmed", "server", m.config(id, s.srv).Name, "uri", uri)
		}
	}
	s.mu.Lock()
	if s.subscribed == nil {
		s.subscribed = map[string]map[string]bool{}
	}
	if s.subscribed[uri] == nil {
		s.subscribed[uri] = map[string]bool{}
	}
	s.subscribed[uri][holder] = true
	s.mu.Unlock()
	return nil
}

// Unsubscribe ends the window's subscription (UnsubscribeFor, holder "").
func (m *Manager) Unsubscribe(ctx context.Context, id, uri string) error {
	return m.UnsubscribeFor(ctx, id, uri, "")
}

// UnsubscribeFor ends holder's subscription to uri; the server is told
// when it was the last one and the server is connected.
func (m *Manager) UnsubscribeFor(ctx context.Context, id, uri, holder string) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	s.subMu.Lock()
	defer s.subMu.Unlock()
	s.mu.Lock()
	was := s.subscribed[uri][holder]
	delete(s.subscribed[uri], holder)
	last := was && len(s.subscribed[uri]) == 0
	if last {
		delete(s.subscribed, uri)
	}
	cs := s.cs
	s.mu.Unlock()
	if !last || cs == nil {
		return nil
	}
	if err := cs.Unsubscribe(ctx, &sdk.UnsubscribeParams{URI: uri}); err != nil {
		return i18n.Wrap(err, "mcp.resources.unsubscribeFailed", "server", m.config(id, s.srv).Name, "uri", uri, "detail", Describe(err))
	}
	return nil
}

// Subscriptions returns the URIs the window subscribed to on the server
// (holder "").
func (m *Manager) Subscriptions(id string) ([]string, error) {
	s, err := m.session(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	uris := make([]string, 0, len(s.subscribed))
	for uri, holders := range s.subscribed {
		if holders[""] {
			uris = append(uris, uri)
		}
	}
	return uris, nil
}

// SubscribedFor reports whether holder is subscribed to the server's uri.
func (m *Manager) SubscribedFor(id, uri, holder string) bool {
	s, err := m.session(id)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subscribed[uri][holder]
}

// resubscribe makes the session's subscriptions again on a new connection.
// A server that no longer lets clients subscribe drops them, with a line in
// its log.
func (s *session) resubscribe(ctx context.Context, cs *sdk.ClientSession) {
	s.mu.Lock()
	uris := make([]string, 0, len(s.subscribed))
	for uri := range s.subscribed {
		uris = append(uris, uri)
	}
	s.mu.Unlock()
	if len(uris) == 0 {
		return
	}
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Resources == nil || !caps.Resources.Subscribe {
		s.log.event("the server no longer offers resource subscriptions; dropped them")
		s.mu.Lock()
		s.subscribed = nil
		s.mu.Unlock()
		return
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	for _, uri := range uris {
		if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: uri}); err != nil {
			s.log.event(fmt.Sprintf("subscribing again to %s failed: %v", uri, err))
		}
	}
}

// onResourceUpdated passes a server's notifications/resources/updated on
// to Options.OnResourceUpdated, for subscribed URIs only: a server cannot
// make the host announce resources nobody asked about.
func (s *session) onResourceUpdated(req *sdk.ResourceUpdatedNotificationRequest) {
	if req == nil || req.Params == nil {
		return
	}
	s.mu.Lock()
	subscribed := len(s.subscribed[req.Params.URI]) > 0
	s.mu.Unlock()
	if subscribed && s.m.opts.OnResourceUpdated != nil {
		s.m.opts.OnResourceUpdated(s.srv.ID, req.Params.URI)
	}
}

// liveSession returns the server's session and its live connection,
// waiting within ctx for a server that is (re)connecting (session.await).
// The context it returns is ctx that also ends when that connection ends,
// for the request about to be made on it: the go-sdk's Close waits for
// the requests running on a connection, and a request's own time limit
// may be a day (the Tools pane), so a server turned off, reconnected or
// quitting with a request running would otherwise wait for it. release
// frees the context; connectionEnded says why its request failed.
func (m *Manager) liveSession(ctx context.Context, id string) (_ context.Context, _ *session, _ *sdk.ClientSession, release func(), _ error) {
	s, err := m.session(id)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	cs, connCtx, err := s.await(ctx)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	reqCtx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(connCtx, func() { cancel(ErrConnectionEnded) })
	return reqCtx, s, cs, func() {
		stop()
		cancel(nil)
	}, nil
}

// connectionEnded is err, the error of a request made under ctx (a context
// from liveSession), or ErrConnectionEnded when the request failed because
// its connection ended before its answer came.
func connectionEnded(ctx context.Context, err error) error {
	if err != nil && errors.Is(context.Cause(ctx), ErrConnectionEnded) {
		return ErrConnectionEnded
	}
	return err
}
