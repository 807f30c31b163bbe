package oauthflow

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCheckResourceMetadata_E33 serves protected resource metadata on this
// computer and checks which sign-ins CheckResourceMetadata lets go on: only
// metadata naming another resource stops one (RFC 9728 section 3.3).
func TestCheckResourceMetadata_E33(t *testing.T) {
	const other = "https://other.example/mcp"
	// In docs, "SERVER" stands for the MCP server URL and "ORIGIN" for its origin.
	for _, tc := range []struct {
		name      string
		status    int               // of the answer that started the sign-in
		challenge string            // WWW-Authenticate; "META" is the /meta URL
		docs      map[string]string // path → the resource its metadata names
		refused   string            // part of the refusal; "" when the sign-in goes on
	}{
		{name: "metadata of the challenge for this server goes on", status: 401,
			challenge: `Bearer resource_metadata="META"`, docs: map[string]string{"/meta": "SERVER"}},
		{name: "metadata of the challenge for another resource is refused", status: 401,
			challenge: `Bearer resource_metadata="META"`, docs: map[string]string{"/meta": other}, refused: "another resource"},
		{name: "path-based well-known metadata for this server goes on", status: 401,
			challenge: `Bearer`, docs: map[string]string{"/.well-known/oauth-protected-resource/mcp": "SERVER"}},
		{name: "root well-known metadata for the origin goes on", status: 401,
			challenge: `Bearer`, docs: map[string]string{"/.well-known/oauth-protected-resource": "ORIGIN"}},
		{name: "root well-known metadata naming the server instead of its origin is refused", status: 401,
			challenge: `Bearer`, docs: map[string]string{"/.well-known/oauth-protected-resource": "SERVER"}, refused: "another resource"},
		{name: "wrong metadata in the challenge, right metadata at the well-known URL goes on", status: 401,
			challenge: `Bearer resource_metadata="META"`, docs: map[string]string{"/meta": other, "/.well-known/oauth-protected-resource/mcp": "SERVER"}},
		{name: "no metadata anywhere is left to the SDK", status: 401, challenge: `Bearer`},
		{name: "a 403 that asks for no more scope is not a sign-in", status: 403,
			challenge: `Bearer error="invalid_token", resource_metadata="META"`, docs: map[string]string{"/meta": other}},
		{name: "a 403 for more scope is checked like a 401", status: 403,
			challenge: `Bearer error="insufficient_scope", resource_metadata="META"`, docs: map[string]string{"/meta": other}, refused: "another resource"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var origin string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				resource, ok := tc.docs[r.URL.Path]
				if !ok {
					http.NotFound(w, r)
					return
				}
				resource = strings.NewReplacer("SERVER", origin+"/mcp", "ORIGIN", origin).Replace(resource)
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]string{"resource": resource})
			}))
			defer srv.Close()
			origin = srv.URL
			resp := &http.Response{StatusCode: tc.status, Header: http.Header{}}
			resp.Header.Set("WWW-Authenticate", strings.ReplaceAll(tc.challenge, "META", srv.URL+"/meta"))

			err := CheckResourceMetadata(context.Background(), resp, srv.URL+"/mcp")
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("the sign-in was stopped: %v", err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("got %v, want a refusal saying %q", err, tc.refused)
			}
		})
	}
}
