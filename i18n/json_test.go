package i18n

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMessage_JSONRoundTripRendersInTheReadersLanguage(t *testing.T) {
	defer SetLanguage(Current())
	cases := []struct {
		name string
		msg  Message
	}{
		{"plain arguments", M("cli.servers.added", "name", "Files", "where", "npx some-server")},
		{"a message inside a message", M("cli.servers.noSuch", "name", Text(`"Nope"`))},
		{"a list of messages", List(Text("a"), Text("b"), Text("c"))},
		{"sentences", Sentences(M("cli.servers.none"), Text("x"))},
		{"numbers keep their form", M("cli.providers.models", "name", "Local", "n", 20)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			SetLanguage(English) // the writer's language
			b, err := json.Marshal(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			var got Message
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			for _, l := range []Language{English, Chinese} {
				if got.In(l) != tc.msg.In(l) {
					t.Errorf("in %s: got %q, want %q (from %s)", l, got.In(l), tc.msg.In(l), b)
				}
			}
		})
	}
}

// TestMessage_AStringReadsAsItsText: a sentence stored before its field was
// a message (a history entry's detail) reads back as that text, untranslated.
func TestMessage_AStringReadsAsItsText(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       Message
	}{
		{"a sentence", `"declined automatically by the server's policy"`, Text("declined automatically by the server's policy")},
		{"an empty string is no message", `""`, Message{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got Message
			if err := json.Unmarshal([]byte(tc.json), &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}
