package llm

import (
	"encoding/json"
	"testing"
)

// FuzzToolArguments feeds any argument text to the check the chat relies
// on: either Arguments is a JSON object (never null, never an array), or it
// is nil and MalformedArguments is the text exactly as the model sent it.
func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"city":"北京"}`, `{"a":`, `null`, `[1]`, `"{\"a\":1}"`, `"null"`, " {\"a\":[1,{}]} ", `{"a":1}{"b":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		args, malformed := toolArguments(text)
		if args == nil {
			if malformed != text {
				t.Errorf("malformed = %q, want the text as sent %q", malformed, text)
			}
			return
		}
		if malformed != "" {
			t.Errorf("both arguments %s and malformed %q", args, malformed)
		}
		var obj map[string]any
		if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
			t.Errorf("arguments %q from %q are not a JSON object: %v", args, text, err)
		}
	})
}
