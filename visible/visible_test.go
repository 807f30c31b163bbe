package visible

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSegments(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Segment
	}{
		{"plain text is one run", "hello", []Segment{{Text: "hello"}}},
		{"empty text has no segment", "", nil},
		{"newline and tab are ordinary text", "a\n\tb", []Segment{{Text: "a\n\tb"}}},
		{"a right-to-left override is a code", "pay\u202Eexe.txt", []Segment{{Text: "pay"}, {Code: "U+202E"}, {Text: "exe.txt"}}},
		{"a zero-width space is a code", "a\u200Bb", []Segment{{Text: "a"}, {Code: "U+200B"}, {Text: "b"}}},
		{"a line separator is a code", "a\u2028b\u2029", []Segment{{Text: "a"}, {Code: "U+2028"}, {Text: "b"}, {Code: "U+2029"}}},
		{"a control character is a code", "\x1b[2Jx", []Segment{{Code: "U+001B"}, {Text: "[2Jx"}}},
		{"a C1 control is a code", "a\u0085", []Segment{{Text: "a"}, {Code: "U+0085"}}},
		{"a byte order mark and a soft hyphen are codes", "\uFEFFa\u00AD", []Segment{{Code: "U+FEFF"}, {Text: "a"}, {Code: "U+00AD"}}},
		{"Chinese and emoji are text", "你好 👋🏽", []Segment{{Text: "你好 👋🏽"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Segments(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Segments(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
		})
	}
}

func TestMark(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"text without hidden characters is unchanged", "plain 文字\n\tok", "plain 文字\n\tok"},
		{"hidden characters become codes", "a\u202Eb\u200Bc\u2028d", "a<U+202E>b<U+200B>c<U+2028>d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Mark(tt.in); got != tt.want {
				t.Errorf("Mark(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// leaf is how a test reads a leaf: its literal, or its segments joined with
// codes in angle brackets.
func leaf(n Node) string {
	if n.Kind == KindString || n.Kind == KindText {
		var b strings.Builder
		for _, s := range n.Segments {
			if s.Code != "" {
				b.WriteString("<" + s.Code + ">")
			} else {
				b.WriteString(s.Text)
			}
		}
		return b.String()
	}
	return n.Text
}

func key(n Node) string { return leaf(Node{Kind: KindString, Segments: n.Key}) }

func TestJSON(t *testing.T) {
	tests := []struct {
		name  string
		raw   string
		check func(t *testing.T, n Node)
	}{
		{"numbers keep the text they were written with", `{"big":9007199254740993,"huge":1e400,"neg":-0,"f":1.50}`, func(t *testing.T, n Node) {
			var got []string
			for _, c := range n.Children {
				got = append(got, key(c)+"="+c.Text)
			}
			want := []string{"big=9007199254740993", "huge=1e400", "neg=-0", "f=1.50"}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("numbers = %q, want %q", got, want)
			}
		}},
		{"strings and keys show hidden characters as codes, escaped or not", `{"n\u202Eote":"pay\u202Eexe\u200B` + "\u2028" + `x"}`, func(t *testing.T, n Node) {
			c := n.Children[0]
			if key(c) != "n<U+202E>ote" || leaf(c) != "pay<U+202E>exe<U+200B><U+2028>x" {
				t.Errorf("member = %q: %q", key(c), leaf(c))
			}
		}},
		{"a string that looks like another member stays one string", `{"a":"x\", \"admin\": true\n\tz\\"}`, func(t *testing.T, n Node) {
			if len(n.Children) != 1 || leaf(n.Children[0]) != `x\", \"admin\": true\n\tz\\` {
				t.Errorf("members = %+v", n.Children)
			}
		}},
		{"a key cannot fake a line of the tree", `{"a\nb: 1\"":2}`, func(t *testing.T, n Node) {
			if key(n.Children[0]) != `a\nb: 1\"` {
				t.Errorf("key = %q", key(n.Children[0]))
			}
		}},
		{"a small tree is open to its last level", `{"a":{"b":{"c":{"d":{"e":[1]}}}}}`, func(t *testing.T, n Node) {
			depth := 0
			for c := &n; c.Kind == KindObject || c.Kind == KindArray; c = &c.Children[0] {
				if !c.Open {
					t.Fatalf("level %d is closed", depth)
				}
				depth++
			}
			if depth != 6 {
				t.Errorf("walked %d levels, want 6", depth)
			}
		}},
		{"a large tree opens its first levels only", `{"a":{"b":{"c":{"d":` + "[" + strings.Repeat("1,", OpenNodes) + "1]" + `}}}}`, func(t *testing.T, n Node) {
			c := n.Children[0].Children[0].Children[0]
			if !n.Open || !n.Children[0].Open || !n.Children[0].Children[0].Open || c.Open {
				t.Errorf("open: %v %v %v %v, want true true true false", n.Open, n.Children[0].Open, n.Children[0].Children[0].Open, c.Open)
			}
		}},
		{"a repeated key shows once, with the last value, marked", `{"path":"/tmp/a","x":1,"path":"/etc/passwd"}`, func(t *testing.T, n Node) {
			if len(n.Children) != 2 || key(n.Children[0]) != "path" || leaf(n.Children[0]) != "/etc/passwd" || !n.Children[0].Repeated || n.Children[1].Repeated {
				t.Errorf("members = %+v", n.Children)
			}
		}},
		{"the empty key and the empty string are kept", `{"":""}`, func(t *testing.T, n Node) {
			if len(n.Children) != 1 || n.Children[0].Kind != KindString || n.Children[0].Key != nil || n.Children[0].Segments != nil {
				t.Errorf("members = %+v", n.Children)
			}
		}},
		{"arrays keep their order and empty containers are empty", `[true,false,null,[],{}]`, func(t *testing.T, n Node) {
			var got []string
			for _, c := range n.Children {
				got = append(got, c.Kind+":"+c.Text+":"+strings.Repeat("+", len(c.Children)))
			}
			want := []string{"boolean:true:", "boolean:false:", "null:null:", "array::", "object::"}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("items = %q, want %q", got, want)
			}
		}},
		{"text that is not JSON is shown as text", "{\"a\":1\u202E", func(t *testing.T, n Node) {
			if n.Kind != KindText || leaf(n) != `{"a":1<U+202E>` {
				t.Errorf("node = %+v", n)
			}
		}},
		{"two values are not one", `{} {}`, func(t *testing.T, n Node) {
			if n.Kind != KindText {
				t.Errorf("kind = %q, want text", n.Kind)
			}
		}},
		{"a value nested too deep is shown as its text", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), func(t *testing.T, n Node) {
			if n.Kind != KindText || len(leaf(n)) != 2*(MaxDepth+1) {
				t.Errorf("node = %s %q", n.Kind, leaf(n))
			}
		}},
		{"a value of more values than a tree holds is shown as its text", "[" + strings.Repeat("1,", MaxNodes) + "1]", func(t *testing.T, n Node) {
			if n.Kind != KindText || leaf(n) != "["+strings.Repeat("1,", MaxNodes)+"1]" {
				t.Errorf("node = %s with %d children", n.Kind, len(n.Children))
			}
		}},
		{"a tree of exactly MaxNodes values is a tree", "[" + strings.Repeat("1,", MaxNodes-2) + "1]", func(t *testing.T, n Node) {
			if n.Kind != KindArray || len(n.Children) != MaxNodes-1 {
				t.Errorf("node = %s with %d children", n.Kind, len(n.Children))
			}
		}},
		{"nothing is null", "", func(t *testing.T, n Node) {
			if n.Kind != KindNull {
				t.Errorf("kind = %q", n.Kind)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, JSON([]byte(tt.raw)))
		})
	}
}

func TestNodeJSONIsCompact(t *testing.T) {
	b, err := json.Marshal(JSON([]byte(`{"a":[1,"x"]}`)))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"object","children":[{"kind":"array","key":[{"text":"a"}],"children":[{"kind":"number","text":"1"},{"kind":"string","segments":[{"text":"x"}]}],"open":true}],"open":true}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
}

func TestValueReadsGoValues(t *testing.T) {
	n := Value(map[string]any{"b": 2, "a": "x\u202E"})
	if len(n.Children) != 2 || key(n.Children[0]) != "a" || leaf(n.Children[0]) != "x<U+202E>" || n.Children[1].Text != "2" {
		t.Errorf("node = %+v", n)
	}
}

// depthOf is how deeply v's arrays and objects nest (0 for a scalar).
func depthOf(v any) int {
	d := 0
	switch v := v.(type) {
	case []any:
		for _, c := range v {
			d = max(d, depthOf(c))
		}
		return d + 1
	case map[string]any:
		for _, c := range v {
			d = max(d, depthOf(c))
		}
		return d + 1
	}
	return 0
}

// FuzzJSON looks for JSON that the tree cannot show: valid JSON that is not
// nested too deep is always a tree, and anything else never panics.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"x\u202e"`, `1e400`, `{"a":1,"a":2}`, `[`, ` 7 `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n := JSON([]byte(raw))
		var v any
		if json.Unmarshal([]byte(raw), &v) == nil && depthOf(v) <= MaxDepth && n.Kind == KindText {
			t.Errorf("valid JSON %q shown as text", raw)
		}
	})
}

// hostileArguments are tool-call arguments built to mislead: a name turned
// around by U+202E, a zero-width space, a line separator, numbers that
// JavaScript cannot keep, and a leaf five levels down.
const hostileArguments = `{"note":"pay\u202Eexe.txt\u200B and\u2028more","big":9007199254740993,"huge":1e400,"deep":{"l1":{"l2":{"l3":{"l4":"bottom"}}}}}`

var update = flag.Bool("update", false, "rewrite testdata/hostile.json")

// TestJSON_HostileGolden keeps testdata/hostile.json, the tree Go sends the
// window for hostileArguments: the frontend's JsonTree test draws this very
// file, so the two sides are tested on the same model.
func TestJSON_HostileGolden(t *testing.T) {
	got, err := json.MarshalIndent(JSON([]byte(hostileArguments)), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "hostile.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./visible -run Golden -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("the tree differs from %s (run with -update if the change is meant):\n%s", path, got)
	}
	for _, want := range []string{`"text": "9007199254740993"`, `"text": "1e400"`, `"code": "U+202E"`, `"code": "U+200B"`, `"code": "U+2028"`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the tree lacks %s", want)
		}
	}
}
