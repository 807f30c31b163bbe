// Package i18n is Gatehouse's message catalogue: every sentence a person
// reads is a Message, a key into the catalogue with named arguments, so that
// it can be shown in the person's language.
//
// The catalogue is one flat JSON file per language under locales/ (key →
// template, with {name} placeholders filled from the message's arguments).
// English (locales/en.json) is the source: Go renders it (Message.String) and
// sends every message with its English text, so that a UI that does not
// translate yet can show it. The same files can be rendered in the frontend.
//
// Keys are written where the message is made, as string literals in calls
// to M; a test checks that each exists in en.json and that its arguments
// match the template's placeholders.
package i18n

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

//go:embed locales/en.json
var englishJSON []byte

// english is the English catalogue, read once at start-up. A broken
// en.json is a build mistake, caught by the package's tests.
var english = mustCatalogue(englishJSON)

func mustCatalogue(b []byte) map[string]string {
	var c map[string]string
	if err := json.Unmarshal(b, &c); err != nil {
		panic(fmt.Sprintf("i18n: locales/en.json is not a flat JSON object of strings: %v", err))
	}
	return c
}

// placeholder matches a {name} in a template.
var placeholder = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9_]*)\}`)

// A Message is a sentence for a person: a catalogue key and the values of
// its placeholders. An argument may itself be a Message (a sentence inside a
// sentence). The zero Message has no text.
//
// In JSON it is {"key": ..., "args": {...}, "text": "<English>"}; args is
// never null.
type Message struct {
	Key  string         `json:"key"`
	Args map[string]any `json:"args"`
}

// M makes a message from a key and its arguments given as name, value
// pairs: M("forms.error.maxLength", "max", 20). The key must be a string
// literal in en.json (checked by a test), as must each argument name.
func M(key string, args ...any) Message {
	m := Message{Key: key, Args: make(map[string]any, len(args)/2)}
	for i := 0; i+1 < len(args); i += 2 {
		m.Args[fmt.Sprint(args[i])] = args[i+1]
	}
	return m
}

// String renders the message in English. A key missing from the catalogue
// renders as the key itself, and a placeholder without an argument stays as
// written, so a mistake shows instead of vanishing.
func (m Message) String() string {
	if m.Key == "" {
		return ""
	}
	tmpl, ok := english[m.Key]
	if !ok {
		return m.Key
	}
	return placeholder.ReplaceAllStringFunc(tmpl, func(ph string) string {
		v, ok := m.Args[ph[1:len(ph)-1]]
		if !ok {
			return ph
		}
		return argText(v)
	})
}

// argText writes one argument: numbers without a needless ".0", nested
// messages rendered.
func argText(v any) string {
	switch v := v.(type) {
	case Message:
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	}
	return fmt.Sprint(v)
}

// MarshalJSON writes the message with its English text.
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
