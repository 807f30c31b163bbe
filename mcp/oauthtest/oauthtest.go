// Package oauthtest is an OAuth-protected MCP server for tests: a small
// authorization server (metadata, dynamic client registration, an
// authorization endpoint that approves at once, a token endpoint with PKCE,
// resource indicators and refresh) and a go-sdk MCP server behind
// auth.RequireBearerToken, all on one loopback port. It is written for
// Gatehouse's tests and is not an authorization server to deploy.
package oauthtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
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

// Options configures a Server. Zero values are sensible defaults.
type Options struct {
	// TokenLifetime is how long an access token is valid (default 1 hour).
	TokenLifetime time.Duration
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
	clients  map[string][]string // client_id → redirect URIs
	counters Counters
}

// Counters tell a test what happened.
type Counters struct {
	Registrations, Authorizations, TokenGrants, Refreshes, ToolCalls int
}

type grant struct {
	clientID, redirectURI, challenge, resource, scope string
}

type token struct {
	resource string
	expires  time.Time
}

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
		codes: map[string]grant{}, tokens: map[string]token{}, refresh: map[string]grant{}, clients: map[string][]string{}}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("POST /register", s.register)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	for _, res := range []string{s.URL, s.OtherURL} {
		path := strings.TrimPrefix(res, base)
		prm := "/.well-known/oauth-protected-resource" + path
		mux.Handle("GET "+prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: res, AuthorizationServers: []string{base}, ScopesSupported: []string{"tools"},
		}))
		handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.mcpServer() }, nil)
		verifier := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
			return s.verify(tok, res)
		}
		mux.Handle(path, auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{ResourceMetadataURL: base + prm})(handler))
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

func (s *Server) mcpServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "oauth-peer", Version: "1.0.0"}, nil)
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
	if t.resource != resource {
		return nil, fmt.Errorf("%w: the token is for another resource", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: []string{"tools"}, Expiration: t.expires}, nil
}

func (s *Server) metadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                s.Issuer,
		"authorization_endpoint":                s.Issuer + "/authorize",
		"token_endpoint":                        s.Issuer + "/token",
		"registration_endpoint":                 s.Issuer + "/register",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"},
		"scopes_supported":                      []string{"tools", "offline_access"},
	})
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
	s.mu.Lock()
	s.clients[id] = md.RedirectURIs
	s.counters.Registrations++
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "redirect_uris": md.RedirectURIs, "token_endpoint_auth_method": "none"})
}

// authorize approves at once (there is no person to ask in a test) and
// redirects back with a code, as a real server does after its login page.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	uris, known := s.clients[q.Get("client_id")]
	s.mu.Unlock()
	redirect := q.Get("redirect_uri")
	switch {
	case !known || !slices.Contains(uris, redirect):
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
	var g grant
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		var ok bool
		g, ok = s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code")) // single use
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || g.clientID != r.PostForm.Get("client_id") || g.redirectURI != r.PostForm.Get("redirect_uri") ||
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
	s.tokens[access] = token{resource: g.resource, expires: time.Now().Add(s.opts.TokenLifetime)}
	s.refresh[refresh] = g
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access, "token_type": "Bearer", "refresh_token": refresh,
		"expires_in": int(s.opts.TokenLifetime.Seconds()), "scope": g.scope,
	})
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
