package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the name a server's schema is compiled under. Nothing is ever
// loaded from it: refusingLoader refuses every external reference.
const schemaURL = "gatehouse:///server-schema.json"

// errExternalRef is returned when a schema refers to a file or URL.
var errExternalRef = errors.New("the schema refers to an external document, which Gatehouse never loads")

// maxSchemaNodes bounds the objects and booleans of a schema document, each
// of which may become a subschema. jsonschema/v6 compiles n subschemas in
// time that grows as n² (its compile queue is searched from the start for
// each one): 4,096 take about 0.2 s, the 50,000 a 1 MB schema can hold
// half a minute, and a compile cannot be stopped. Real tool schemas have a
// few dozen.
const maxSchemaNodes = 4096

// errTooManyNodes is returned for a schema over maxSchemaNodes.
var errTooManyNodes = fmt.Errorf("the schema has more than %d subschemas", maxSchemaNodes)

// refusingLoader is a jsonschema URL loader that loads nothing, so that a
// server's "$ref": "file:///etc/passwd" or "https://..." is refused, never read.
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%w: %s", errExternalRef, url)
}

// compileOptions says how strictly a schema is compiled.
type compileOptions struct {
	// assertFormat makes "format" a check (email, uri, date, ...), not
	// only an annotation.
	assertFormat bool
	// lenientPatterns accepts patterns Go's regexp cannot read: they are
	// left for the server to check instead of making the schema unusable.
	lenientPatterns bool
}

// compile compiles a JSON Schema sent by a server, with external loading
// switched off, into a checker that bounds the work of every check (see
// budget.go). A schema over those bounds is refused with a workError.
func compile(schema any, opts compileOptions) (*checker, error) {
	doc, err := toJSONValue(schema)
	if err != nil {
		return nil, err
	}
	if schemaNodes(doc, maxSchemaNodes) > maxSchemaNodes {
		return nil, errTooManyNodes
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	if opts.assertFormat {
		c.AssertFormat()
	}
	if opts.lenientPatterns {
		c.UseRegexpEngine(lenientRegexp)
	} else {
		c.UseRegexpEngine(strictRegexp)
	}
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compiling the schema: %w", err)
	}
	// A subschema with a $dynamicAnchor can be entered through the dynamic
	// scope alone, by no reference the compiled graph shows: the checker
	// must see it too. jsonschema/v6 has compiled it already and hands out
	// the same one.
	roots := []*jsonschema.Schema{sch}
	for _, ptr := range dynamicAnchors(doc) {
		anchored, err := c.Compile(schemaURL + "#" + ptr)
		if err != nil {
			return nil, fmt.Errorf("compiling the schema: %w", err)
		}
		roots = append(roots, anchored)
	}
	return newChecker(roots)
}

// dynamicAnchors returns the JSON pointers (as URL fragments) of the objects
// in doc, other than doc itself, that have a $dynamicAnchor.
func dynamicAnchors(doc any) []string {
	var out []string
	var path []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, has := v["$dynamicAnchor"]; has && len(path) > 0 {
				ptr := ""
				for _, tok := range path {
					ptr += "/" + url.PathEscape(pointerEscaper.Replace(tok))
				}
				out = append(out, ptr)
			}
			for k, e := range v {
				path = append(path, k)
				walk(e)
				path = path[:len(path)-1]
			}
		case []any:
			for i, e := range v {
				path = append(path, strconv.Itoa(i))
				walk(e)
				path = path[:len(path)-1]
			}
		}
	}
	walk(doc)
	return out
}

// pointerEscaper escapes a JSON pointer's token (RFC 6901).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// strictRegexp is Go's regexp, with the cost of matching each pattern known
// to the meter (budget.go).
func strictRegexp(s string) (jsonschema.Regexp, error) {
	p, err := newPattern(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// schemaNodes counts the objects and booleans in a JSON value, up to just
// over limit.
func schemaNodes(v any, limit int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch v := v.(type) {
		case bool:
			n++
		case map[string]any:
			n++
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return n
}

// lenientRegexp is strictRegexp, except that a pattern Go cannot read (a
// lookahead, say) matches everything.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	if p, err := newPattern(s); err == nil {
		return p, nil
	}
	return anything(s), nil
}

// anything is a pattern Gatehouse cannot check: it accepts every string.
type anything string

func (a anything) String() string          { return string(a) }
func (anything) MatchString(s string) bool { return true }

// toJSONValue round-trips v through JSON into the generic form jsonschema
// validates (numbers as json.Number).
func toJSONValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding JSON: %w", err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// jsonDepth measures the deepest nesting of objects and arrays in b.
func jsonDepth(b []byte) int {
	depth, maxDepth, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			maxDepth = max(maxDepth, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return maxDepth
}

// PropertyOrder returns the top-level property names of a raw JSON Schema in
// the order they appear in its "properties" object. Decoding into a map
// loses that order, and people expect a form to read as the server wrote it.
func PropertyOrder(b []byte) []string {
	order := []string{}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return order
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return order
		}
		if key != "properties" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return order
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return order
		}
		for dec.More() {
			name, err := dec.Token()
			if err != nil {
				return order
			}
			order = append(order, fmt.Sprint(name))
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return order
			}
		}
		return order
	}
	return order
}

// sortByOrder sorts names by their place in order; names not in order
// follow, by name. A name listed twice (a duplicate key) takes its last place.
func sortByOrder(names []string, order []string) {
	pos := map[string]int{}
	for i, name := range order {
		pos[name] = i + 1
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := names[i], names[j]
		pa, pb := pos[a], pos[b]
		switch {
		case pa != 0 && pb != 0:
			return pa < pb
		case pa != 0 || pb != 0:
			return pa != 0
		}
		return a < b
	})
}

// unknownKey returns the first key of m (sorted) that is not in allowed.
func unknownKey(m map[string]any, allowed []string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			return k
		}
	}
	return ""
}

func floatPtr(v any) *float64 {
	switch n := v.(type) {
	case float64:
		return &n
	case json.Number:
		if f, err := n.Float64(); err == nil {
			return &f
		}
	}
	return nil
}

// intPtr reads a whole number of zero or more that fits an int.
func intPtr(v any) *int {
	f := floatPtr(v)
	if f == nil || *f < 0 || *f > maxCount || *f != float64(int(*f)) {
		return nil
	}
	i := int(*f)
	return &i
}

// maxCount bounds the lengths and counts a field reports: beyond it a
// limit means nothing to a person, and float64 to int stays exact.
const maxCount = 1 << 31
