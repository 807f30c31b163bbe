package i18n

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
)

//go:embed locales/*.json
var localeFiles embed.FS

// catalogues reads each language's templates once, when the language is
// first used: a run parses English (every missing key's fallback) and the
// language it speaks, not every catalogue before main starts (issue 15, P4).
// A broken locale file is a build mistake, caught by the package's tests.
var catalogues = map[Language]func() map[string]string{
	English: sync.OnceValue(func() map[string]string { return mustCatalogue(English) }),
	Chinese: sync.OnceValue(func() map[string]string { return mustCatalogue(Chinese) }),
}

// catalogue returns l's templates; nil for a language the catalogue does not have.
func catalogue(l Language) map[string]string {
	if read, ok := catalogues[l]; ok {
		return read()
	}
	return nil
}

func mustCatalogue(l Language) map[string]string {
	b, err := localeFiles.ReadFile("locales/" + string(l) + ".json")
	if err != nil {
		panic(fmt.Sprintf("i18n: no catalogue for %s: %v", l, err))
	}
	var c map[string]string
	if err := json.Unmarshal(b, &c); err != nil {
		panic(fmt.Sprintf("i18n: locales/%s.json is not a flat JSON object of strings: %v", l, err))
	}
	return c
}

// placeholder matches a {name} in a template.
var placeholder = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9_]*)\}`)

// current is the language Message.String renders in.
var current atomic.Value

// SetLanguage sets the language every Message renders in from now on: the
// terminal's for the command line, the person's choice (or the system's)
// for the window.
func SetLanguage(l Language) {
	if _, ok := catalogues[l]; !ok {
		l = English
	}
	current.Store(l)
}

// Current returns the language messages render in now; English until
// SetLanguage is called.
func Current() Language {
	if l, ok := current.Load().(Language); ok {
		return l
	}
	return English
}

// A Message is a sentence for a person: a catalogue key and the values of
// its placeholders. An argument may itself be a Message (a sentence inside a
// sentence) or an error (its own message when it has one). The zero Message
// has no text.
//
// In JSON it is {"key": ..., "args": {...}, "text": "<in the current
// language>"}; args is never null.
type Message struct {
	Key  string         `json:"key"`
	Args map[string]any `json:"args"`
}

// M makes a message from a key and its arguments given as name, value
// pairs: M("forms.error.maxLength", "max", 20). The key must be a string
// literal in the catalogue (checked by a test), as must each argument name.
// An error argument becomes its message when it carries one (see MessageOf),
// otherwise its text.
func M(key string, args ...any) Message {
	m := Message{Key: key, Args: make(map[string]any, len(args)/2)}
	for i := 0; i+1 < len(args); i += 2 {
		v := args[i+1]
		if err, ok := v.(error); ok {
			if msg, ok := MessageOf(err); ok {
				v = msg
			} else {
				v = err.Error()
			}
		}
		m.Args[fmt.Sprint(args[i])] = v
	}
	return m
}

// Text makes a message that is only the given text, to carry text that is
// not Gatehouse's own (an error from the system, a server's sentence) where a
// Message is expected. It is never translated; Text("") is the zero
// Message.
func Text(s string) Message {
	if s == "" {
		return Message{}
	}
	return Message{Key: "", Args: map[string]any{"text": s}}
}

// List makes a message that names its items as a list in the person's
// language: "A", "A and B", "A, B and C"; in Chinese "A、B和C".
func List(items ...Message) Message {
	return Message{Key: "", Args: map[string]any{"items": items}}
}

// Sentences makes a message of several sentences one after another, as the
// language writes them (a space between them in English, none in Chinese).
func Sentences(msgs ...Message) Message {
	return Message{Key: "", Args: map[string]any{"sentences": msgs}}
}

// IsZero reports whether m says nothing: no key and no arguments. A field
// of type Message tagged omitzero is left out of JSON then.
func (m Message) IsZero() bool { return m.Key == "" && len(m.Args) == 0 }

// String renders the message in the current language (see SetLanguage).
func (m Message) String() string { return m.In(Current()) }

// In renders the message in language l. A key missing from l's catalogue
// falls back to English, a key missing from both renders as the key itself,
// and a placeholder without an argument stays as written, so a mistake shows
// instead of vanishing.
func (m Message) In(l Language) string {
	if m.Key == "" {
		if items, ok := m.Args["items"].([]Message); ok {
			return listText(items, l)
		}
		if msgs, ok := m.Args["sentences"].([]Message); ok {
			text := ""
			for i, s := range msgs {
				if i == 0 {
					text = s.In(l)
				} else {
					text = M("list.sentences", "a", text, "b", s).In(l)
				}
			}
			return text
		}
		if s, ok := m.Args["text"].(string); ok {
			return s
		}
		return ""
	}
	tmpl, ok := catalogue(l)[m.Key]
	if !ok {
		if tmpl, ok = catalogue(English)[m.Key]; !ok {
			return m.Key
		}
	}
	return placeholder.ReplaceAllStringFunc(tmpl, func(ph string) string {
		v, ok := m.Args[ph[1:len(ph)-1]]
		if !ok {
			return ph
		}
		return argText(v, l)
	})
}

// listText joins items as language l writes a list.
func listText(items []Message, l Language) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0].In(l)
	}
	head := items[0].In(l)
	for _, it := range items[1 : len(items)-1] {
		head = M("list.more", "a", head, "b", it).In(l)
	}
	return M("list.two", "a", head, "b", items[len(items)-1]).In(l)
}

// argText writes one argument: numbers without a needless ".0", nested
// messages rendered in the same language.
func argText(v any, l Language) string {
	switch v := v.(type) {
	case Message:
		return v.In(l)
	case *Message:
		if v == nil {
			return ""
		}
		return v.In(l)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	}
	return fmt.Sprint(v)
}

// MarshalJSON writes the message with its text in the current language.
func (m Message) MarshalJSON() ([]byte, error) {
	args := m.Args
	if args == nil {
		args = map[string]any{}
	}
	return json.Marshal(struct {
		Key  string         `json:"key"`
		Args map[string]any `json:"args"`
		Text string         `json:"text"`
	}{m.Key, args, m.String()})
}

// An Error is an error whose text is a message for a person, so that the
// window and the command line can show it in the person's language. It may
// wrap the error that caused it, for errors.Is and errors.As.
type Error struct {
	Message Message
	Err     error
}

// Err makes an error from a message key and its arguments, as M does.
func Err(key string, args ...any) error {
	return &Error{Message: M(key, args...)}
}

// Wrap makes an error that says the message and wraps err. The message
// usually names err's own text with a {detail} argument, given as err.
func Wrap(err error, key string, args ...any) error {
	return &Error{Message: M(key, args...), Err: err}
}

// Error renders the message in the current language.
func (e *Error) Error() string { return e.Message.String() }

// Unwrap returns the error that caused this one, if any.
func (e *Error) Unwrap() error { return e.Err }

// MessageOf returns the message an error says, when its whole text is one:
// the error is an *Error, or wraps one without adding words of its own
// (errors.Join and fmt.Errorf("%w") around it alone). An error that adds
// English words around a message has none, so that nothing it says is lost.
func MessageOf(err error) (Message, bool) {
	var e *Error
	if err == nil || !errors.As(err, &e) {
		return Message{}, false
	}
	if err.Error() != e.Error() {
		return Message{}, false
	}
	return e.Message, true
}

// ErrorMessage returns what err says as a message: its own (MessageOf), or
// its text, untranslated.
func ErrorMessage(err error) Message {
	if m, ok := MessageOf(err); ok {
		return m
	}
	if err == nil {
		return Message{}
	}
	return Text(err.Error())
}
