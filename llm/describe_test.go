package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func TestDescribe_NetworkFailures(t *testing.T) {
	d := describer{provider: "Ollama", software: "Ollama", address: "127.0.0.1:11434"}
	wrap := func(err error) error {
		return &url.Error{Op: "Post", URL: "http://127.0.0.1:11434/v1/chat/completions", Err: err}
	}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"a refused connection", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}),
			"Nothing answers at 127.0.0.1:11434 — is Ollama running?"},
		{"an unknown host", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.deepseek.example", IsNotFound: true}}),
			"Cannot find api.deepseek.example. Is the address right, and is this computer online?"},
		{"a time-out", wrap(&net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}),
			"127.0.0.1:11434 did not answer in time."},
		{"anything else says what happened", wrap(errors.New("tls: failed to verify certificate: x509: certificate signed by unknown authority")),
			"Cannot connect to 127.0.0.1:11434: tls: failed to verify certificate: x509: certificate signed by unknown authority"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := d.describe(context.Background(), tc.err, "m")
			if !errors.Is(err, ErrUnreachable) || err.Error() != tc.want {
				t.Errorf("describe = %q (%v), want ErrUnreachable %q", err, errors.Unwrap(err), tc.want)
			}
		})
	}
	t.Run("the caller's cancel stays a cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := d.describe(ctx, wrap(context.Canceled), "m"); err != context.Canceled {
			t.Errorf("describe = %v, want context.Canceled itself", err)
		}
	})
}

func TestRetryAfter_ReadsEveryForm(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{"an HTTP date", http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second},
		{"milliseconds win", http.Header{"Retry-After": {"7"}, "Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
		{"a date in the past", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"nonsense", http.Header{"Retry-After": {"soon"}}, 0},
		{"a negative wait", http.Header{"Retry-After": {"-3"}}, 0},
		{"none", http.Header{}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := retryAfter(tc.header, now); got != tc.want {
				t.Errorf("retryAfter = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPresetForURL_NamesServersAddedByHand(t *testing.T) {
	cases := []struct {
		url, want string
	}{
		{"http://127.0.0.1:11434/v1", "ollama"},
		{"http://localhost:11434/v1", "ollama"},
		{"http://[::1]:1234/v1", "lmstudio"},
		{"https://api.deepseek.com/v1", "deepseek"},
		{"http://192.168.1.20:11434/v1", ""}, // another machine: who knows what runs there
		{"http://127.0.0.1:9999/v1", ""},
	}
	for _, tc := range cases {
		u, _ := url.Parse(tc.url)
		p, _ := presetForURL(u)
		if p.ID != tc.want {
			t.Errorf("%s: preset %q, want %q", tc.url, p.ID, tc.want)
		}
	}
}

// FuzzDescribeHTTPError feeds any status and body to the describer, as a
// provider (or whatever answers at a wrong address) might send: the result
// is always a sentence of one line, of a known kind, without the key.
func FuzzDescribeHTTPError(f *testing.F) {
	const key = "sk-fuzz-secret-1234"
	seeds := []struct {
		status int
		body   string
	}{
		{400, `{"error":{"message":"This model's maximum context length is 8192 tokens","code":"context_length_exceeded"}}`},
		{401, `{"error":{"message":"bad key sk-fuzz-secret-1234"}}`},
		{404, `{"error":{"message":"model \"x\" not found"}}`},
		{400, `{"code":20012,"message":"Model does not exist.","data":null}`},
		{429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`},
		{500, "<html><body>oops</body></html>"},
		{503, "服务器繁忙 sk-fuzz-secret-1234\n\t再试"},
		{400, `{"error":"plain string"}`},
		{400, `{"error":{"code":1261,"message":"Prompt 超长"}}`},
		{418, "\xff\xfe"},
	}
	for _, s := range seeds {
		f.Add(s.status, []byte(s.body), "")
	}
	f.Fuzz(func(t *testing.T, status int, body []byte, retry string) {
		if status < 400 || status > 599 {
			status = 400 + (status%200+200)%200
		}
		d := describer{provider: "Stand-in", address: "127.0.0.1:1", apiKey: key}
		he := &httpError{status: status, header: http.Header{"Retry-After": {retry}}, body: body, url: "http://127.0.0.1:1/v1/chat/completions"}
		err := d.describe(context.Background(), fmt.Errorf("wrapped: %w", he), "model-x")
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("not an *Error: %T %v", err, err)
		}
		known := false
		for _, k := range []error{ErrKeyRefused, ErrModelNotFound, ErrRateLimited, ErrContextTooLong, ErrProvider} {
			known = known || e.Kind == k
		}
		if !known {
			t.Errorf("unknown kind %v", e.Kind)
		}
		text := e.Error()
		if text == "" || strings.ContainsAny(text, "\n\r") || !utf8.ValidString(text) {
			t.Errorf("not a one-line sentence: %q", text)
		}
		if strings.Contains(text, key) || strings.Contains(e.Detail, key) {
			t.Errorf("the key shows: %q / %q", text, e.Detail)
		}
		if utf8.RuneCountInString(e.Detail) > maxDetail+1 {
			t.Errorf("detail of %d runes", utf8.RuneCountInString(e.Detail))
		}
		if e.RetryAfter < 0 {
			t.Errorf("negative RetryAfter %v", e.RetryAfter)
		}
	})
}
