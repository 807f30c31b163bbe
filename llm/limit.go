package llm

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// MaxMessageSize is the most Gatehouse reads of one message from a
// provider: one event of a stream (its lines together), or one answer that
// is not a stream (the models list). A provider, or whatever answers at its
// address, that sends more fails the call with a sentence saying so
// (issue 22, item 2): before, a stream's event and the models list were
// read whole, however large. It is the MCP go-sdk's bound for a message,
// and far above what any provider's event or list needs.
const MaxMessageSize = 16 << 20

// MaxAnswerSize is the most text, reasoning and tool-call arguments one
// answer of a model may have together: a provider that keeps sending well
// formed events past it has its answer stopped with a sentence saying so
// (each event alone is within MaxMessageSize, but the answer grew as long
// as the provider sent). Far above what any model writes in one answer.
const MaxAnswerSize = 8 << 20

// answerSize counts what an answer has grown to (MaxAnswerSize).
type answerSize int

// grow adds parts to the answer.
func (a *answerSize) grow(parts ...string) *answerSize {
	for _, p := range parts {
		*a += answerSize(len(p))
	}
	return a
}

// over reports whether the answer has grown past MaxAnswerSize.
func (a *answerSize) over() bool { return *a > MaxAnswerSize }

// MaxModels is the most models a provider's list gives (the rest are left
// out), and maxModelName the longest name or ID one may have: a list that
// says it has more page after page is read no further than twice
// MaxModels entries, and a name no real model has is left out.
const (
	MaxModels    = 1000
	maxModelName = 200
)

// keepModel appends m to models when its ID and name are of a length a
// real model's are.
func keepModel(models []Model, m Model) []Model {
	if m.ID == "" || len(m.ID) > maxModelName || len(m.DisplayName) > maxModelName {
		return models
	}
	return append(models, m)
}

// errTooLarge is the read error of a body over MaxMessageSize, and
// errSilent of a provider that sent nothing for silenceLimit; readFailure
// turns them into sentences.
var (
	errTooLarge = errors.New("the provider sent a message larger than 16 MiB")
	errSilent   = errors.New("the provider sent nothing for too long")
)

// silenceLimit is how long a provider's answer may send nothing once it
// began (its headers came; responseHeaderTimeout bounds the wait for them):
// then the answer is stopped with a sentence saying so. Before, a provider
// that went quiet kept a chat turn waiting until the person pressed Stop,
// and a server's sampling request, which has no Stop, until the server gave
// up. It is as long as the wait for the headers: a model on a slow machine
// may take minutes over a long prompt before its first word, and sends
// nothing meanwhile. A variable only for tests.
var silenceLimit = responseHeaderTimeout

// boundBody bounds a provider's successful answer: an event stream event by
// event, anything else as one message, and the time it may send nothing
// (silenceLimit). It holds nothing itself: it counts what passes and fails
// the read that goes over.
func boundBody(res *http.Response) {
	stream := strings.HasPrefix(strings.ToLower(res.Header.Get("Content-Type")), "text/event-stream")
	b := &boundedBody{body: res.Body, stream: stream}
	// Closing the body ends the read waiting on it (Read then says why).
	b.quiet = time.AfterFunc(silenceLimit, func() {
		b.silent.Store(true)
		_ = b.body.Close()
	})
	res.Body = b
}

// boundedBody is a response body that fails with errTooLarge once one
// message read from it goes over MaxMessageSize: the whole body, or with
// stream, the bytes since the last blank line (the end of an event); and
// with errSilent once nothing came for silenceLimit.
type boundedBody struct {
	body   io.ReadCloser
	stream bool
	n      int  // bytes of the message so far
	atLine bool // the last byte read ended a line
	over   bool
	quiet  *time.Timer // closes body after silenceLimit without a byte
	silent atomic.Bool // quiet fired
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.over {
		return 0, errTooLarge
	}
	n, err := b.body.Read(p)
	if b.silent.Load() {
		return 0, errSilent
	}
	if n > 0 {
		b.quiet.Reset(silenceLimit)
	}
	for _, c := range p[:n] {
		switch {
		case !b.stream:
		case c == '\n' && b.atLine:
			b.n = 0 // a blank line ends the event
			continue
		case c == '\n':
			b.atLine = true
		case c != '\r':
			b.atLine = false
		}
		if b.n++; b.n > MaxMessageSize {
			b.over = true
			return 0, errTooLarge
		}
	}
	return n, err
}

func (b *boundedBody) Close() error {
	b.quiet.Stop()
	return b.body.Close()
}
