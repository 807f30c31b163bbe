package llm_test

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

	"github.com/gatehouse-app/gatehouse/llm"
)

// TestProvider_KeyStaysOnItsOrigin (issue 22, same class as item 9): a base
// URL that answers with a redirect to another origin does not get the API
// key sent there, in either wire format (Bearer, which Go strips itself,
// and Anthropic's x-api-key header, which it does not); the request fails
// with a sentence saying so.
func TestProvider_KeyStaysOnItsOrigin(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no second loopback address for another origin: %v", err)
	}
	var mu sync.Mutex
	var seen []string
	spy := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s %s authorization=%q x-api-key=%q", r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")))
		mu.Unlock()
		http.NotFound(w, r)
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = spy.Serve(l) }()
	t.Cleanup(func() { spy.Close() })
	other := "http://" + l.Addr().String()

	base, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	redirecting := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+r.URL.Path, http.StatusTemporaryRedirect)
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = redirecting.Serve(base) }()
	t.Cleanup(func() { redirecting.Close() })

	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			p := provider(t, llm.Config{Kind: kind, BaseURL: "http://" + base.Addr().String() + "/v1", APIKey: "sk-secret-key"})
			_, err := p.Models(context.Background())
			if err == nil || !strings.Contains(err.Error(), "another origin") || !errors.Is(err, llm.ErrUnreachable) {
				t.Errorf("Models = %v; want a refusal saying another origin", err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, s := range seen {
				if strings.Contains(s, "sk-secret-key") {
					t.Errorf("the other origin received the key: %s", s)
				}
			}
		})
	}
}
