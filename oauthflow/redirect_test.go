package oauthflow

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
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
	w, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Expect("good-state"); err != nil {
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
	w2, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Expect("next-state"); err != nil {
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

// TestRedirect_StartPage_E33: a sign-in's start page (what the browser
// opens when the person agrees) waits until the sign-in page is known and
// sends the browser there, or says why the sign-in stopped; an unknown key
// gets a page saying so, and a closed wait ends its page.
func TestRedirect_StartPage_E33(t *testing.T) {
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string) (int, string, string) {
		resp, err := noFollow.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(b)
	}
	r, err := NewRedirect()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tc := range []struct {
		name     string
		decide   func(w *Wait)
		code     int
		location string
		page     string
	}{
		{"proceeding sends the browser on to the sign-in page", func(w *Wait) { w.Proceed("https://as.example/authorize?state=s") },
			http.StatusSeeOther, "https://as.example/authorize?state=s", ""},
		{"stopping says why", func(w *Wait) { w.Stop(i18n.Text("the metadata was refused")) },
			http.StatusOK, "", "Signing in did not work: the metadata was refused."},
		{"closing ends the page", func(w *Wait) { w.Close() },
			http.StatusOK, "", "This sign-in has ended"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := r.Begin()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if !strings.HasPrefix(w.StartURL(), "http://127.0.0.1:") {
				t.Fatalf("start URL %s", w.StartURL())
			}
			type answer struct {
				code           int
				location, page string
			}
			got := make(chan answer, 1)
			go func() {
				code, loc, page := get(w.StartURL())
				got <- answer{code, loc, page}
			}()
			select {
			case a := <-got:
				t.Fatalf("the start page answered before the sign-in page was known: %+v", a)
			case <-time.After(200 * time.Millisecond):
			}
			tc.decide(w)
			a := <-got
			if a.code != tc.code || a.location != tc.location || !strings.Contains(a.page, tc.page) {
				t.Errorf("start page: %d %q %q; want %d %q %q", a.code, a.location, a.page, tc.code, tc.location, tc.page)
			}
		})
	}
	w, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if code, _, _ := get(strings.Replace(w.StartURL(), "s=", "s=x", 1)); code != http.StatusBadRequest {
		t.Errorf("unknown start page: %d", code)
	}
}

// TestRedirect_StartPageOutlivesAFailure_E33: a sign-in may fail before the
// browser the person agreed to open has reached the start page; the page
// still says why when it arrives, and only then does the listener close. A
// start page no browser was sent to (the person declined) closes at once.
func TestRedirect_StartPageOutlivesAFailure_E33(t *testing.T) {
	r, err := NewRedirect()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	listening := func() bool {
		resp, err := http.Get(r.URL())
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	}

	declined, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	declined.Stop(i18n.Text("you did not sign in"))
	declined.Close()
	if listening() {
		t.Error("a start page no browser was sent to kept the port open")
	}

	w, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	w.Opened()
	w.Stop(i18n.Text("the registration endpoint redirected elsewhere"))
	w.Close()
	resp, err := http.Get(w.StartURL()) // the browser, arriving late
	if err != nil {
		t.Fatalf("the late browser: %v", err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "Signing in did not work: the registration endpoint redirected elsewhere.") {
		t.Errorf("the late browser's page: %s", page)
	}
	deadline := time.Now().Add(3 * time.Second)
	for listening() {
		if time.Now().After(deadline) {
			t.Fatal("the listener stayed open after the late browser read the page")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An authorization server's refusal reaches the person's window as one
// short line with its hidden characters shown: before, its error and
// error_description went into the server's status whole (up to the size
// of a request line) and as they were.
func TestRedirect_ARefusalIsShortAndVisible_E33(t *testing.T) {
	r, err := NewRedirect()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Expect("s"); err != nil {
		t.Fatal(err)
	}
	desc := "Your licence expired\nre-activate at evil.example \u202etxt.exe" + strings.Repeat(" pad", 20000)
	resp, err := http.Get(r.URL() + "?state=s&error=access_denied&error_description=" + url.QueryEscape(desc))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, err = w.Result(context.Background(), time.Second)
	if err == nil {
		t.Fatal("a refusal was taken for a sign-in")
	}
	msg := err.Error()
	if len(msg) > 400 || strings.ContainsAny(msg, "\n\u202e") || !strings.Contains(msg, "<U+202E>") || !strings.Contains(msg, "access_denied Your licence expired") {
		t.Errorf("the refusal reads (%d bytes): %q", len(msg), msg)
	}
}
