package oauthtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Options configures a Server. Zero values are sensible defaults. The
// fields after TokenLifetime make the server misbehave, or behave in a less
// common way, for tests of the client's checks.
type Options struct {
	// TokenLifetime is how long an access token is valid (default 1 hour).
	TokenLifetime time.Duration

	// AdvertiseIss puts authorization_response_iss_parameter_supported in
	// the metadata (RFC 9207).
	AdvertiseIss bool
	// RedirectIss, when set, gives the iss parameter of the authorization
	// response from the real issuer; "" leaves it out. Nil sends none.
	RedirectIss func(issuer string) string
	// MetadataIssuer, when set, is the issuer the metadata claims.
	MetadataIssuer string
	// AuthorizationEndpoint, when set, is the authorization endpoint the
	// metadata names.
	AuthorizationEndpoint string
	// Resource, when set, is the resource the protected resource metadata
	// names for URL (and OtherURL).
	Resource string
	// Unresponsive makes the authorization server metadata never answer,
	// until the client gives up.
	Unresponsive bool
	// Unprotected lists JSON-RPC methods the MCP endpoints answer without a
	// token ("initialize", "notifications/initialized", "server/discover"),
	// as servers do that let the handshake through and protect the rest.
	Unprotected []string

	// Preregistered are clients registered in advance, by client_id, with
	// their secret.
	Preregistered map[string]string
	// NoRegistration leaves dynamic client registration out.
	NoRegistration bool
	// TokenAuthMethods is token_endpoint_auth_methods_supported (default
	// "none"). A client with a secret must authenticate at the token
	// endpoint with one of them; dynamic registration hands out a secret
	// and the first method when it is not "none".
	TokenAuthMethods []string
	// OneUseTokens makes the MCP endpoints accept each token once only, so
	// that every request asks for a sign-in again (a broken or hostile
	// server).
	OneUseTokens bool
	// ClientIDMetadataDocuments advertises client ID metadata documents:
	// an https client_id is accepted without registration (the document is
	// not fetched).
	ClientIDMetadataDocuments bool
}

// Server is a running protected MCP server and its authorization server.
type Server struct {
	// URL is the MCP endpoint (http://127.0.0.1:PORT/mcp); OtherURL is a
	// second MCP endpoint that is a different resource (tokens for URL are
	// refused there).
	URL, OtherURL string
	// Issuer is the authorization server's issuer URL.
	Issuer string

	opts  Options
	srv   *http.Server
	mu    sync.Mutex
	codes map[string]grant // authorization code → grant
	// tokens are access tokens by value; refresh tokens by value.
	tokens   map[string]token
	refresh  map[string]grant
	clients  map[string]client // by client_id
	counters Counters
	requests []Authorization
}

// Counters tell a test what happened.
type Counters struct {
	Registrations, Authorizations, TokenGrants, Refreshes, ToolCalls int
	// MetadataRequests counts requests for the authorization server's metadata.
	MetadataRequests int
	// TokenAuth is how the client authenticated at the token endpoint last:
	// "client_secret_basic", "client_secret_post" or "none".
	TokenAuth string
}

// Authorization is an authorization request as the server received it.
type Authorization struct {
	ClientID, Scope, Resource string
}

type client struct {
	redirectURIs []string // nil: any loopback redirect (pre-registered, CIMD)
	secret       string
}

type grant struct {
	clientID, redirectURI, challenge, resource, scope string
}

type token struct {
	resource string
	scopes   []string
	expires  time.Time
}

// AdminScope is the scope the "admin" tool needs; a call without it is
// answered 403 insufficient_scope (step-up authorization).
const AdminScope = "admin"

// Start runs the server on a free loopback port until ctx ends.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.TokenLifetime <= 0 {
		opts.TokenLifetime = time.Hour
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	base := "http://" + l.Addr().String()
	s := &Server{URL: base + "/mcp", OtherURL: base + "/other", Issuer: base, opts: opts,
		codes: map[string]grant{}, tokens: map[string]token{}, refresh: map[string]grant{}, clients: map[string]client{}}
	for id, secret := range opts.Preregistered {
		s.clients[id] = client{secret: secret}
	}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	if !opts.NoRegistration {
		mux.HandleFunc("POST /register", s.register)
	}
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	for _, res := range []string{s.URL, s.OtherURL} {
		path := strings.TrimPrefix(res, base)
		prm := "/.well-known/oauth-protected-resource" + path
		named := res
		if opts.Resource != "" {
			named = opts.Resource
		}
		mux.Handle("GET "+prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: named, AuthorizationServers: []string{base}, ScopesSupported: []string{"tools"},
		}))
		handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.mcpServer() }, nil)
		verifier := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
			return s.verify(tok, res)
		}
		protected := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{ResourceMetadataURL: base + prm})(s.stepUp(handler, base+prm))
		mux.Handle(path, s.unprotected(handler, protected))
	}
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(l) }()
	go func() {
		<-ctx.Done()
		_ = s.srv.Close()
	}()
	return s, nil
}

// Counts returns what happened so far.
func (s *Server) Counts() Counters {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counters
}

// AuthorizationRequests returns the authorization requests so far, oldest first.
func (s *Server) AuthorizationRequests() []Authorization {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// rpcMethod reads the JSON-RPC method (and tool name) of a POST body and
// puts the body back.
func rpcMethod(r *http.Request) (method, tool string) {
	if r.Method != http.MethodPost || r.Body == nil {
		return "", ""
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return "", ""
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	_ = json.Unmarshal(body, &msg)
	return msg.Method, msg.Params.Name
}

// unprotected answers the methods of Options.Unprotected without a token.
func (s *Server) unprotected(open, protected http.Handler) http.Handler {
	if len(s.opts.Unprotected) == 0 {
		return protected
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method, _ := rpcMethod(r)
		if method != "" && slices.Contains(s.opts.Unprotected, method) && r.Header.Get("Authorization") == "" {
			open.ServeHTTP(w, r)
			return
		}
		protected.ServeHTTP(w, r)
	})
}

// stepUp answers a call of the "admin" tool without AdminScope in the token
// with 403 insufficient_scope, asking for that scope.
func (s *Server) stepUp(next http.Handler, prm string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if method, tool := rpcMethod(r); method == "tools/call" && tool == "admin" {
			if info := auth.TokenInfoFromContext(r.Context()); info == nil || !slices.Contains(info.Scopes, AdminScope) {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, AdminScope, prm))
				http.Error(w, "insufficient scope", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) mcpServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "oauth-peer", Version: "1.0.0"}, nil)
	srv.AddTool(&sdk.Tool{Name: "admin", Description: "Needs the admin scope.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "admin"}}}, nil
		})
	srv.AddTool(&sdk.Tool{Name: "whoami", Description: "Says that the caller is signed in.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			s.mu.Lock()
			s.counters.ToolCalls++
			s.mu.Unlock()
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "signed in"}}}, nil
		})
	return srv
}

func (s *Server) verify(tok, resource string) (*auth.TokenInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[tok]
	if !ok || time.Now().After(t.expires) {
		return nil, fmt.Errorf("%w: unknown or expired token", auth.ErrInvalidToken)
	}
	if s.opts.OneUseTokens {
		delete(s.tokens, tok)
	}
	if t.resource != resource {
		return nil, fmt.Errorf("%w: the token is for another resource", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: t.scopes, Expiration: t.expires}, nil
}

func (s *Server) authMethods() []string {
	if len(s.opts.TokenAuthMethods) > 0 {
		return s.opts.TokenAuthMethods
	}
	return []string{"none"}
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.counters.MetadataRequests++
	s.mu.Unlock()
	if s.opts.Unresponsive {
		<-r.Context().Done() // the client gave up
		return
	}
	md := map[string]any{
		"issuer":                                s.Issuer,
		"authorization_endpoint":                s.Issuer + "/authorize",
		"token_endpoint":                        s.Issuer + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": s.authMethods(),
		"scopes_supported":                      []string{"tools", AdminScope, "offline_access"},
	}
	if !s.opts.NoRegistration {
		md["registration_endpoint"] = s.Issuer + "/register"
	}
	if s.opts.MetadataIssuer != "" {
		md["issuer"] = s.opts.MetadataIssuer
	}
	if s.opts.AuthorizationEndpoint != "" {
		md["authorization_endpoint"] = s.opts.AuthorizationEndpoint
	}
	if s.opts.AdvertiseIss {
		md["authorization_response_iss_parameter_supported"] = true
	}
	if s.opts.ClientIDMetadataDocuments {
		md["client_id_metadata_document_supported"] = true
	}
	writeJSON(w, http.StatusOK, md)
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var md struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(r.Body).Decode(&md); err != nil || len(md.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	id := random()
	c := client{redirectURIs: md.RedirectURIs}
	resp := map[string]any{"client_id": id, "redirect_uris": md.RedirectURIs, "token_endpoint_auth_method": s.authMethods()[0]}
	if s.authMethods()[0] != "none" {
		c.secret = random()
		resp["client_secret"] = c.secret
	}
	s.mu.Lock()
	s.clients[id] = c
	s.counters.Registrations++
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, resp)
}

// knownClient returns the client a client_id names: registered, or (with
// ClientIDMetadataDocuments) an https URL, taken as a metadata document.
func (s *Server) knownClient(id string) (client, bool) {
	if c, ok := s.clients[id]; ok {
		return c, true
	}
	if s.opts.ClientIDMetadataDocuments && strings.HasPrefix(id, "https://") {
		return client{}, true
	}
	return client{}, false
}

// redirectAllowed: a registered client's own redirect URIs, else any
// loopback one (RFC 8252 section 7.3).
func (c client) redirectAllowed(uri string) bool {
	if c.redirectURIs != nil {
		return slices.Contains(c.redirectURIs, uri)
	}
	u, err := url.Parse(uri)
	return err == nil && u.Scheme == "http" && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost")
}

// authorize approves at once (there is no person to ask in a test) and
// redirects back with a code, as a real server does after its login page.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	c, known := s.knownClient(q.Get("client_id"))
	s.requests = append(s.requests, Authorization{ClientID: q.Get("client_id"), Scope: q.Get("scope"), Resource: q.Get("resource")})
	s.mu.Unlock()
	redirect := q.Get("redirect_uri")
	switch {
	case !known || !c.redirectAllowed(redirect):
		http.Error(w, "unknown client or redirect URI", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE with S256 is required", http.StatusBadRequest)
		return
	case q.Get("resource") != s.URL && q.Get("resource") != s.OtherURL:
		http.Error(w, "unknown resource", http.StatusBadRequest)
		return
	}
	code := random()
	s.mu.Lock()
	s.codes[code] = grant{clientID: q.Get("client_id"), redirectURI: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource"), scope: q.Get("scope")}
	s.counters.Authorizations++
	s.mu.Unlock()
	u, _ := url.Parse(redirect)
	v := u.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	if s.opts.RedirectIss != nil {
		if iss := s.opts.RedirectIss(s.Issuer); iss != "" {
			v.Set("iss", iss)
		}
	}
	u.RawQuery = v.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	clientID, ok := s.authenticate(r)
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	var g grant
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		var ok bool
		g, ok = s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code")) // single use
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || g.clientID != clientID || g.redirectURI != r.PostForm.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		s.counters.TokenGrants++
	case "refresh_token":
		var ok bool
		g, ok = s.refresh[r.PostForm.Get("refresh_token")]
		delete(s.refresh, r.PostForm.Get("refresh_token"))
		if !ok {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		s.counters.Refreshes++
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	if res := r.PostForm.Get("resource"); res != "" && res != g.resource {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_target"})
		return
	}
	access, refresh := random(), random()
	s.tokens[access] = token{resource: g.resource, scopes: strings.Fields(g.scope), expires: time.Now().Add(s.opts.TokenLifetime)}
	s.refresh[refresh] = g
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access, "token_type": "Bearer", "refresh_token": refresh,
		"expires_in": int(s.opts.TokenLifetime.Seconds()), "scope": g.scope,
	})
}

// authenticate finds the client of a token request: a client with a secret
// must present it with one of the advertised methods, a public client only
// names itself. It records the method used.
func (s *Server) authenticate(r *http.Request) (string, bool) {
	id, secret, basic := r.BasicAuth()
	method := "client_secret_basic"
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		method = "client_secret_post"
		if secret == "" {
			method = "none"
		}
	}
	s.counters.TokenAuth = method
	c, known := s.knownClient(id)
	switch {
	case !known:
		return "", false
	case c.secret == "":
		return id, method == "none" || (basic && secret == "")
	}
	return id, secret == c.secret && slices.Contains(s.authMethods(), method)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func random() string {
	return rand.Text()
}
