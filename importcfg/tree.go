package importcfg

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// object is a JSON object or TOML table with its keys in the file's order
// (TOML tables: sorted, as the TOML library does not keep the order). Its
// values are string, number (as its text), bool, nil, []any or *object.
type object struct {
	keys []string
	vals map[string]any
}

// get returns the value of key and whether the key is there.
func (o *object) get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// child returns the object under key, or nil.
func (o *object) child(key string) *object {
	v, _ := o.get(key)
	c, _ := v.(*object)
	return c
}

// number is a JSON or TOML number, kept as it is written.
type number string

// huJSONPosition reads the line and column out of a hujson error, which says
// them only in its text ("hujson: line 3, column 5: ...").
var huJSONPosition = regexp.MustCompile(`line (\d+), column (\d+): (.*)$`)

// parseJSON parses JSON with comments and trailing commas (JSONC, as VS Code,
// Zed and Gemini CLI allow; plain JSON is the same without them).
func parseJSON(path string, data []byte) (any, error) {
	if tooDeep(data) {
		return nil, i18n.Wrap(ErrSyntax, "import.error.tooDeep", "file", path, "n", MaxNesting)
	}
	v, err := hujson.Parse(data)
	if err != nil {
		if m := huJSONPosition.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			return nil, i18n.Wrap(ErrSyntax, "import.error.syntax", "file", path, "line", line, "column", col, "detail", m[3])
		}
		return nil, i18n.Wrap(ErrSyntax, "import.error.syntaxNoLine", "file", path, "detail", err)
	}
	return fromHuJSON(v.Value), nil
}

// MaxNesting is the deepest nesting of arrays and objects a JSON file may
// have: far more than any app's file of servers has. The JSON parser
// recurses once a level, so a file of 16 MB of "[" would overflow the
// goroutine stack, which ends the whole program, not only the read.
const MaxNesting = 1000

// tooDeep reports whether data nests arrays and objects more than
// MaxNesting levels deep, counting the brackets outside strings and
// comments as JSON with comments has them.
func tooDeep(data []byte) bool {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return false // unclosed: the parser says where
			}
			i += end + 3
		case c == '[' || c == '{':
			if depth++; depth > MaxNesting {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// fromHuJSON converts a parsed JSON value into the tree.
func fromHuJSON(v hujson.ValueTrimmed) any {
	switch v := v.(type) {
	case *hujson.Object:
		o := &object{vals: map[string]any{}}
		for _, m := range v.Members {
			name := m.Name.Value.(hujson.Literal).String()
			if _, dup := o.vals[name]; !dup {
				o.keys = append(o.keys, name)
			}
			o.vals[name] = fromHuJSON(m.Value.Value) // the last one wins, as in JavaScript
		}
		return o
	case *hujson.Array:
		out := make([]any, 0, len(v.Elements))
		for _, e := range v.Elements {
			out = append(out, fromHuJSON(e.Value))
		}
		return out
	case hujson.Literal:
		switch v.Kind() {
		case '"':
			return v.String()
		case 't', 'f':
			return v.Bool()
		case 'n':
			return nil
		}
		return number(v)
	}
	return nil
}

// parseTOML parses TOML (Codex CLI's config.toml).
func parseTOML(path string, data []byte) (*object, error) {
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, i18n.Wrap(ErrSyntax, "import.error.syntax", "file", path, "line", line, "column", col, "detail", de.Error())
		}
		return nil, i18n.Wrap(ErrSyntax, "import.error.syntaxNoLine", "file", path, "detail", err)
	}
	return fromTOML(m).(*object), nil
}

// fromTOML converts a decoded TOML value into the tree.
func fromTOML(v any) any {
	switch v := v.(type) {
	case map[string]any:
		o := &object{vals: map[string]any{}}
		for k, x := range v {
			o.keys = append(o.keys, k)
			o.vals[k] = fromTOML(x)
		}
		slices.Sort(o.keys)
		return o
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = fromTOML(x)
		}
		return out
	case string, bool, nil:
		return v
	}
	return number(fmt.Sprint(v)) // numbers and dates
}
