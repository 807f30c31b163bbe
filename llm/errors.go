package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// The kinds of provider errors. Every error a Provider returns, except the
// caller's own context.Canceled or context.DeadlineExceeded, is an *Error
// whose Kind is one of these, so errors.Is(err, ErrContextTooLong) works.
var (
	// ErrKeyRefused: the provider refused the API key (HTTP 401 or 403), or
	// wants one and none is set.
	ErrKeyRefused = errors.New("the API key was refused")
	// ErrUnreachable: nothing answers at the base URL (refused connection,
	// unknown host, time-out).
	ErrUnreachable = errors.New("nothing answers at the provider's address")
	// ErrModelNotFound: the provider has no such model.
	ErrModelNotFound = errors.New("no such model")
	// ErrRateLimited: the provider is limiting requests; Error.RetryAfter
	// says how long to wait when the provider said so.
	ErrRateLimited = errors.New("the provider is limiting requests")
	// ErrContextTooLong: the conversation no longer fits the model's context
	// window. The chat offers a way on (drop old tool results, start a new
	// conversation); retrying unchanged cannot succeed.
	ErrContextTooLong = errors.New("the conversation is too long for the model's context")
	// ErrProvider: any other error the provider reported; Error.Detail holds
	// the provider's own message.
	ErrProvider = errors.New("the provider reported an error")
	// ErrCutOff: the stream ended before the provider said the turn was
	// complete. What arrived before is valid but incomplete.
	ErrCutOff = errors.New("the answer stopped before its end")
	// ErrConfig: the provider settings cannot work (bad base URL, unknown
	// kind or preset, no model).
	ErrConfig = errors.New("invalid provider settings")
)

// An Error is a provider error told as a sentence for a person. It never
// contains the API key.
type Error struct {
	// Kind is one of the Err* kinds above; errors.Is matches it.
	Kind error
	// Message is the sentence, as a catalogue message (Error renders it in
	// English).
	Message i18n.Message
	// StatusCode is the HTTP status of the answer, 0 if there was none.
	StatusCode int
	// RetryAfter is how long the provider asked to wait (ErrRateLimited),
	// 0 if it did not say.
	RetryAfter time.Duration
	// Detail is the provider's own error message, if any, with the API key
	// removed. It may be in the provider's language.
	Detail string
}

// Error returns the sentence in English.
func (e *Error) Error() string { return e.Message.String() }

// Unwrap returns the error's Kind, for errors.Is.
func (e *Error) Unwrap() error { return e.Kind }

// maxErrorBody bounds how much of an error answer is read: vendors' error
// bodies are small, and a wrong base URL may answer with a large page.
const maxErrorBody = 64 << 10

// maxDetail bounds the provider's message kept in an Error, in runes.
const maxDetail = 500

// httpError is an HTTP answer that is not a stream: a status of 400 or more,
// or a web page where the API should be. The transport middleware returns it
// in place of the response, so that both SDKs hand it back unchanged and one
// function turns it into a sentence.
type httpError struct {
	status int
	header http.Header
	body   []byte
	url    string
	page   bool // a 2xx answer with an HTML page
}

// Error says which answer it was, for logs; describe makes the sentence.
func (e *httpError) Error() string { return fmt.Sprintf("HTTP %d from %s", e.status, e.url) }

// vendorError is what a provider's error body says, in whichever of the
// vendors' shapes it came (see parseErrorBody).
type vendorError struct {
	message, typ, code string
}

// describer turns raw failures into *Error for one provider; it knows the
// names to put in sentences and the key to keep out of them.
type describer struct {
	provider string // how sentences name the provider: a preset's name or the host
	software string // the local server software to suggest starting, if known
	address  string // host:port of the base URL
	apiKey   string
}

func (d describer) fail(kind error, msg i18n.Message) *Error {
	return &Error{Kind: kind, Message: msg}
}

// describe returns err as an *Error, or as the context's own error when the
// caller cancelled. It is the one place that decides what a failure means.
func (d describer) describe(ctx context.Context, err error, model string) error {
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var already *Error
	if errors.As(err, &already) {
		return already
	}
	if e := d.readFailure(err); e != nil {
		return e
	}
	var he *httpError
	if errors.As(err, &he) {
		return d.fromHTTP(he, model)
	}
	return d.fromNetwork(err)
}

// fromNetwork explains an error that happened before any answer came.
func (d describer) fromNetwork(err error) *Error {
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		if d.software != "" {
			return d.fail(ErrUnreachable, i18n.M("llm.error.unreachableSoftware", "address", d.address, "software", d.software))
		}
		return d.fail(ErrUnreachable, i18n.M("llm.error.unreachable", "address", d.address))
	case errors.As(err, &dnsErr):
		return d.fail(ErrUnreachable, i18n.M("llm.error.unknownHost", "host", dnsErr.Name))
	case errors.As(err, &netErr) && netErr.Timeout():
		return d.fail(ErrUnreachable, i18n.M("llm.error.timeout", "address", d.address))
	}
	// The innermost error: url.Error repeats the URL, which says nothing new.
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return d.fail(ErrUnreachable, i18n.M("llm.error.connect", "address", d.address, "detail", d.redact(err.Error())))
}

// fromHTTP explains an HTTP error answer.
func (d describer) fromHTTP(he *httpError, model string) *Error {
	if he.page {
		return &Error{Kind: ErrProvider, StatusCode: he.status, Message: i18n.M("llm.error.webPage", "url", he.url)}
	}
	v := parseErrorBody(he.body)
	detail := d.redact(v.message)
	e := &Error{StatusCode: he.status, Detail: detail}
	switch {
	case he.status == http.StatusUnauthorized && d.apiKey == "":
		e.Kind, e.Message = ErrKeyRefused, i18n.M("llm.error.keyMissing", "provider", d.provider)
	case he.status == http.StatusUnauthorized || he.status == http.StatusForbidden:
		e.Kind, e.Message = ErrKeyRefused, i18n.M("llm.error.keyRefused", "provider", d.provider)
	case isContextTooLong(he.status, v):
		e.Kind, e.Message = ErrContextTooLong, d.contextTooLong(model)
	case model != "" && isModelNotFound(he.status, v):
		e.Kind, e.Message = ErrModelNotFound, i18n.M("llm.error.modelNotFound", "provider", d.provider, "model", model)
	case he.status == http.StatusTooManyRequests && !isQuotaExhausted(v):
		e.Kind, e.RetryAfter = ErrRateLimited, retryAfter(he.header, time.Now())
		e.Message = d.rateLimited(e.RetryAfter)
	case he.status == http.StatusNotFound:
		e.Kind, e.Message = ErrProvider, i18n.M("llm.error.notFound", "url", he.url)
	case detail == "":
		e.Kind, e.Message = ErrProvider, i18n.M("llm.error.providerStatus", "provider", d.provider, "status", he.status)
	default:
		e.Kind, e.Message = ErrProvider, i18n.M("llm.error.provider", "provider", d.provider, "status", he.status, "detail", detail)
	}
	return e
}

// fromStreamError explains an error event inside a stream (HTTP status 200):
// the raw JSON of the event's data.
func (d describer) fromStreamError(data []byte, model string) *Error {
	v := parseErrorBody(data)
	detail := d.redact(v.message)
	e := &Error{Detail: detail}
	switch {
	case isContextTooLong(0, v):
		e.Kind, e.Message = ErrContextTooLong, d.contextTooLong(model)
	case isModelNotFound(0, v):
		e.Kind, e.Message = ErrModelNotFound, i18n.M("llm.error.modelNotFound", "provider", d.provider, "model", model)
	case v.typ == "rate_limit_error" || v.code == "rate_limit_exceeded" || v.code == "429":
		e.Kind, e.Message = ErrRateLimited, d.rateLimited(0)
	case detail == "":
		e.Kind, e.Message = ErrProvider, i18n.M("llm.error.streamErrorBare", "provider", d.provider)
	default:
		e.Kind, e.Message = ErrProvider, i18n.M("llm.error.streamError", "provider", d.provider, "detail", detail)
	}
	return e
}

// cutOff is the error for a stream that ended before its end. cause, if not
// nil, is the read error, kept out of the sentence but in Detail.
func (d describer) cutOff(cause error) *Error {
	e := d.fail(ErrCutOff, i18n.M("llm.error.cutOff", "provider", d.provider))
	if cause != nil {
		e.Detail = d.redact(cause.Error())
	}
	return e
}

// answerTooLarge is the error for an answer that grew past MaxAnswerSize.
func (d describer) answerTooLarge() *Error {
	return d.fail(ErrProvider, i18n.M("llm.error.answerTooLarge", "provider", d.provider, "size", i18n.M("units.mb", "n", MaxAnswerSize>>20)))
}

// tooLarge is the error for an answer with a message over MaxMessageSize.
func (d describer) tooLarge() *Error {
	return d.fail(ErrProvider, i18n.M("llm.error.tooLarge", "provider", d.provider, "size", i18n.M("units.mb", "n", MaxMessageSize>>20)))
}

// readFailure is the sentence for a read of a provider's answer that
// boundedBody failed, or nil when err is not one of its errors.
func (d describer) readFailure(err error) *Error {
	switch {
	case errors.Is(err, errTooLarge):
		return d.tooLarge()
	case errors.Is(err, errSilent):
		return d.fail(ErrCutOff, i18n.M("llm.error.silent", "provider", d.provider, "duration", i18n.Duration(silenceLimit)))
	}
	return nil
}

// badStream is the error for a stream the SDK could not make sense of.
func (d describer) badStream(detail string) *Error {
	e := d.fail(ErrProvider, i18n.M("llm.error.badStream", "provider", d.provider))
	e.Detail = d.redact(detail)
	return e
}

func (d describer) contextTooLong(model string) i18n.Message {
	return i18n.M("llm.error.contextTooLong", "model", model)
}

func (d describer) rateLimited(wait time.Duration) i18n.Message {
	if wait <= 0 {
		return i18n.M("llm.error.rateLimited", "provider", d.provider)
	}
	wait = (wait + time.Second - 1).Truncate(time.Second) // a whole second, not less than asked
	return i18n.M("llm.error.rateLimitedWait", "provider", d.provider, "duration", i18n.Duration(wait))
}

// redact removes the API key from text that came from elsewhere (a
// provider may echo the key it refused) and bounds its length.
func (d describer) redact(text string) string {
	if len(d.apiKey) >= 4 {
		text = strings.ReplaceAll(text, d.apiKey, "[API key]")
	}
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) > maxDetail {
		r := []rune(text)
		text = string(r[:maxDetail]) + "…"
	}
	return text
}

// parseErrorBody reads the error out of a body in any of the vendors'
// shapes: {"error": {"message", "type", "code"}} (OpenAI and most
// compatible servers, Anthropic with "type": "error" around it),
// {"error": "text"} (Ollama's native API), a top-level {"message", "type",
// "code"} (vLLM before 0.6, DashScope, SiliconFlow), or plain text. An HTML
// page yields nothing: its markup is no message.
func parseErrorBody(body []byte) vendorError {
	body = bytes.TrimSpace(body)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		if len(body) == 0 || body[0] == '<' || body[0] == '{' || !utf8.Valid(body) {
			return vendorError{}
		}
		return vendorError{message: string(body)}
	}
	fields := top
	if raw, ok := top["error"]; ok {
		var inner map[string]json.RawMessage
		if json.Unmarshal(raw, &inner) == nil {
			fields = inner
		} else {
			var text string
			if json.Unmarshal(raw, &text) == nil {
				return vendorError{message: text}
			}
		}
	}
	v := vendorError{
		message: jsonText(fields["message"]),
		typ:     jsonText(fields["type"]),
		code:    jsonText(fields["code"]),
	}
	if v.message == "" {
		v.message = jsonText(fields["msg"])
	}
	return v
}

// jsonText returns a JSON string's text, or a number's digits; "" otherwise.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// contextTooLongCodes are the error codes and types vendors use for a
// prompt that does not fit: OpenAI and compatible servers, llama.cpp's
// server, Anthropic's request_too_large (413), Zhipu's 1261.
var contextTooLongCodes = []string{
	"context_length_exceeded", "exceed_context_size_error", "request_too_large",
	"string_above_max_length", "1261",
}

// contextTooLongPhrases are the words of vendors' messages for the same,
// lower case: OpenAI, DeepSeek and vLLM ("This model's maximum context
// length is ..."), Anthropic ("prompt is too long"), llama.cpp ("exceeds the
// available context size"), Moonshot ("exceeded model token limit"),
// DashScope ("Range of input length should be ..."), Ollama, LM Studio.
var contextTooLongPhrases = []string{
	"maximum context length", "context length", "context_length", "context window",
	"context size", "prompt is too long", "prompt too long", "input is too long",
	"too many tokens", "token limit", "range of input length",
	"reduce the length of the messages", "超出最大长度", "超过最大长度", "上下文长度",
}

// isContextTooLong says whether an error means the conversation does not fit
// the model's context. Status 0 is an error event inside a stream.
func isContextTooLong(status int, v vendorError) bool {
	if status != 0 && status != http.StatusBadRequest && status != http.StatusRequestEntityTooLarge &&
		status != http.StatusUnprocessableEntity && status != http.StatusInternalServerError {
		return false
	}
	for _, c := range contextTooLongCodes {
		if v.code == c || v.typ == c {
			return true
		}
	}
	msg := strings.ToLower(v.message)
	// "max_tokens is too large" is about the answer's bound, not the
	// conversation, though it mentions tokens and limits too.
	if strings.Contains(msg, "max_tokens") || strings.Contains(msg, "max_completion_tokens") {
		return strings.Contains(msg, "maximum context length")
	}
	for _, p := range contextTooLongPhrases {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// modelNotFoundCodes are vendors' codes for an unknown model: OpenAI and
// compatible servers, Zhipu (1211), SiliconFlow (20012).
var modelNotFoundCodes = []string{"model_not_found", "1211", "20012"}

// modelMissingPhrases follow the word "model" in vendors' messages for an
// unknown model, lower case ("model \"x\" not found, try pulling it first",
// "Model Not Exist", "The model `x` does not exist").
var modelMissingPhrases = []string{"not found", "not exist", "no such", "unknown model", "invalid model", "is not available"}

// isModelNotFound says whether an error means the model does not exist.
func isModelNotFound(status int, v vendorError) bool {
	if status >= 500 {
		return false
	}
	for _, c := range modelNotFoundCodes {
		if v.code == c || v.typ == c {
			return true
		}
	}
	msg := strings.ToLower(v.message)
	if strings.Contains(msg, "模型不存在") {
		return true
	}
	if !strings.Contains(msg, "model") {
		return false
	}
	if status == http.StatusNotFound || v.typ == "not_found_error" {
		return true // Anthropic: {"type": "not_found_error", "message": "model: x"}
	}
	for _, p := range modelMissingPhrases {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// isQuotaExhausted tells an account without credit (retrying does not help)
// from a rate limit (waiting does).
func isQuotaExhausted(v vendorError) bool {
	return v.code == "insufficient_quota" || v.typ == "insufficient_quota"
}

// retryAfter reads how long a provider asks to wait: OpenAI's retry-after-ms,
// or Retry-After in seconds or as an HTTP date. 0 if neither is there.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 && ms < 1e9 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || s > 1e6 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
