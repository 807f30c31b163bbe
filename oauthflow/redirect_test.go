package oauthflow

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRedirect_E33: the redirect listener takes one answer with the
// right state, refuses others, and ends on timeout. It listens only while a
// sign-in waits, and listens again on the same port for the next one.
func TestRedirect_E33(t *testing.T) {
	r, err := NewRedirect()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := r.Listen("good-state")
	if err != nil {
		t.Fatal(err)
	}
	get := func(q string) int {
		resp, err := http.Get(r.URL() + "?" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("code=x&state=wrong"); code != http.StatusBadRequest {
		t.Errorf("wrong state: %d", code)
	}
	if code := get("code=abc&state=good-state&iss=https://as.example"); code != http.StatusOK {
		t.Errorf("good answer: %d", code)
	}
	if code := get("code=again&state=good-state"); code != http.StatusGone {
		t.Errorf("second answer: %d", code)
	}
	res, err := w.Result(context.Background(), time.Second)
	if err != nil || res.Code != "abc" || res.State != "good-state" || res.Iss != "https://as.example" {
		t.Errorf("result = %+v, %v", res, err)
	}
	if _, err := w.Result(context.Background(), 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "did not come back") {
		t.Errorf("timeout: %v", err)
	}

	// Once the sign-in is over the listener closes; the next sign-in listens
	// again on the same port (the one the client registered).
	addr := strings.TrimSuffix(strings.TrimPrefix(r.URL(), "http://"), "/callback")
	w.Close()
	if _, err := http.Get(r.URL() + "?code=late&state=good-state"); err == nil {
		t.Error("the redirect still listens after the sign-in ended")
	}
	w2, err := r.Listen("next-state")
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	if !strings.HasSuffix(r.URL(), addr+"/callback") {
		t.Errorf("the port changed: %s", r.URL())
	}
	if code := get("code=def&state=next-state"); code != http.StatusOK {
		t.Errorf("second sign-in: %d", code)
	}
	if res, err := w2.Result(context.Background(), time.Second); err != nil || res.Code != "def" {
		t.Errorf("second result = %+v, %v", res, err)
	}

	// Only loopback: the listener is not reachable on other addresses.
	if strings.Contains(r.URL(), "0.0.0.0") || !strings.HasPrefix(r.URL(), "http://127.0.0.1:") {
		t.Errorf("redirect URL %s", r.URL())
	}
}
