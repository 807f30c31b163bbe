package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// headerSpy is a listener on another origin (127.0.0.2) that notes every
// request it receives and the configured header it carried, if any.
type headerSpy struct {
	URL  string
	mu   sync.Mutex
	seen []string
}

func startHeaderSpy(t *testing.T) *headerSpy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no second loopback address for another origin: %v", err)
	}
	s := &headerSpy{URL: "http://" + l.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, fmt.Sprintf("%s %s X-Api-Key=%q", r.Method, r.URL.Path, r.Header.Get("X-Api-Key")))
		s.mu.Unlock()
		http.Error(w, "no", http.StatusNotFound)
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return s
}

func (s *headerSpy) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// startOriginPeer serves handler on 127.0.0.1 and returns its base URL.
func startOriginPeer(t *testing.T, handler func(base string) http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String()
	srv := &http.Server{Handler: handler(base), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return base
}

// TestHTTP_HeadersStayOnTheirOrigin (issue 22, item 9): the headers the
// person configured (an API key) go only to the server's own origin. A
// redirect to another origin and a legacy SSE endpoint on another origin
// are refused with a sentence, and that origin receives nothing; a redirect
// within the origin is followed, headers and all.
func TestHTTP_HeadersStayOnTheirOrigin(t *testing.T) {
	mcpServer := sdk.NewServer(&sdk.Implementation{Name: "keyed", Version: "1"}, nil)
	sdk.AddTool(mcpServer, &sdk.Tool{Name: "echo"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	})
	streamable := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpServer }, nil)
	keyed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "secret-key" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		streamable.ServeHTTP(w, r)
	})
	for _, tc := range []struct {
		name    string
		handler func(base, other string) http.Handler
		path    string
		// want is in the status message of a refused connection; "" when it connects.
		want string
	}{
		{"a 307 to another origin is refused and the key is not sent there", func(_, other string) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other+"/mcp", http.StatusTemporaryRedirect)
			})
		}, "/mcp", "redirected to another origin"},
		{"a legacy SSE endpoint on another origin is refused and the key is not sent there", func(_, other string) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet {
					http.Error(w, "SSE only", http.StatusMethodNotAllowed)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "event: endpoint\ndata: %s/messages?session=1\n\n", other)
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			})
		}, "/sse", "another origin"},
		{"a 307 within the origin is followed with the key", func(string, string) http.Handler {
			mux := http.NewServeMux()
			mux.Handle("/mcp", keyed)
			mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
			})
			return mux
		}, "/old", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spy := startHeaderSpy(t)
			base := startOriginPeer(t, func(base string) http.Handler { return tc.handler(base, spy.URL) })
			m, _ := newTestManager(t)
			srv := store.Server{ID: "web", Name: "Web", Enabled: true, Transport: store.TransportHTTP,
				HTTP: &store.HTTPConfig{URL: base + tc.path, Headers: map[string]string{"X-Api-Key": "secret-key"}}}
			m.Set(srv)
			if tc.want == "" {
				connected(t, m, srv.ID)
			} else {
				waitFor(t, "an error, or a request on the other origin", 15*time.Second, func() bool {
					st, _ := m.Status(srv.ID)
					return st.State == StateError || len(spy.requests()) > 0
				})
				time.Sleep(200 * time.Millisecond)
				st, _ := m.Status(srv.ID)
				if st.State != StateError || !strings.Contains(st.Message.String(), tc.want) {
					t.Errorf("status %s %q; want an error saying %q", st.State, st.Message, tc.want)
				}
				if !errors.Is(st.Err(), ErrOtherOrigin) {
					t.Errorf("the error %v is not ErrOtherOrigin", st.Err())
				}
			}
			if got := spy.requests(); len(got) > 0 {
				t.Errorf("the other origin received %q", got)
			}
		})
	}
}

// TestValidateConfig_PlainHTTPOnlyToThisComputer (issue 22, item 9): a
// remote server's URL is https, or plain http only to this computer, where
// nothing crosses a network.
func TestValidateConfig_PlainHTTPOnlyToThisComputer(t *testing.T) {
	for _, tc := range []struct {
		name, url string
		want      string // the sentence; "" when accepted
	}{
		{"https anywhere", "https://mcp.example.com/mcp", ""},
		{"http to 127.0.0.1", "http://127.0.0.1:8080/mcp", ""},
		{"http to another loopback address", "http://127.0.0.5:8080/mcp", ""},
		{"http to localhost", "http://localhost:8080/mcp", ""},
		{"http to ::1", "http://[::1]:8080/mcp", ""},
		{"http to a name", "http://example.com/mcp", "Plain http:// is only for servers on this computer; use https:// for example.com."},
		{"http to a private address", "http://10.0.0.5/mcp", "use https:// for 10.0.0.5"},
		{"http to a name that only starts like loopback", "http://127.0.0.1.example.com/mcp", "use https:// for 127.0.0.1.example.com"},
		{"http to a name that ends in localhost elsewhere", "http://localhost.example.com/mcp", "use https://"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateConfig(store.Server{Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: tc.url}})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrBadConfig)):
				t.Errorf("got %v; want a configuration error saying %q", err, tc.want)
			}
		})
	}
}
