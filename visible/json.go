package visible

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// Kinds of Node.
const (
	KindObject  = "object"
	KindArray   = "array"
	KindString  = "string"
	KindNumber  = "number"
	KindBoolean = "boolean"
	KindNull    = "null"
	// KindText is JSON that is not shown as a tree: text that does not
	// parse, or a value nested deeper than MaxDepth. Its Segments are the
	// text as written.
	KindText = "text"
)

// Bounds of the tree. A value a server or model wrote must not make the
// window draw without end: a value nested deeper than MaxDepth, or of more
// than MaxNodes values, is shown as its JSON text (a tree of 100,000 rows
// took 0.5 s to build and 17 MB to send to the window, for a view no one
// reads node by node), and a tree of more than OpenNodes nodes opens only
// its first OpenDepth levels (the person opens the rest).
const (
	MaxDepth  = 64
	MaxNodes  = 10_000
	OpenNodes = 500
	OpenDepth = 3
)

// A Node is one JSON value as the window shows it: what the person approves
// is what the server receives, so nothing in it is re-read by JavaScript.
// Numbers keep the text they were written with (9007199254740993 and 1e400
// stay so), strings and keys are Segments with hidden characters marked,
// and an object lists each key once, as the value is sent: when a key is
// repeated the last value counts (as Go's encoding/json reads it), and the
// member says so (Repeated).
type Node struct {
	// Kind is KindObject, KindArray, KindString, KindNumber, KindBoolean,
	// KindNull or KindText.
	Kind string `json:"kind"`
	// Key is the member's name in its object, escaped as in JSON (nil for
	// "", and for the root and the items of an array).
	Key []Segment `json:"key,omitempty"`
	// Text is a number's, a boolean's or null's literal as written.
	Text string `json:"text,omitempty"`
	// Segments are a string's value, escaped as in JSON (Escaped), for the
	// window to put in quotes; or a KindText node's text as written.
	Segments []Segment `json:"segments,omitempty"`
	// Children are an object's members or an array's items, in order.
	Children []Node `json:"children,omitempty"`
	// Open is true for an object or array the window shows open: every
	// one of a tree of at most OpenNodes nodes, else the first OpenDepth
	// levels.
	Open bool `json:"open,omitempty"`
	// Repeated is true for a member whose key the object holds more than
	// once: the value shown is the last one, the one that counts.
	Repeated bool `json:"repeated,omitempty"`
}

// JSON builds the tree of the JSON text raw. Text that is not one JSON
// value, or a value beyond the tree's bounds (MaxDepth, MaxNodes), is shown
// as text (a KindText node); empty raw is null.
func JSON(raw []byte) Node {
	if len(bytes.TrimSpace(raw)) == 0 {
		return Node{Kind: KindNull, Text: "null"}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	b := builder{dec: dec}
	n, err := b.value(0)
	if err == nil {
		if _, extra := dec.Token(); !errors.Is(extra, io.EOF) {
			err = errors.New("more than one value")
		}
	}
	if err != nil {
		return Node{Kind: KindText, Segments: Segments(string(raw))}
	}
	open(&n, 0, b.count <= OpenNodes)
	return n
}

// Value builds the tree of a Go value as encoding/json writes it (for
// values that were decoded already; their numbers are what Go read).
func Value(v any) Node {
	raw, err := json.Marshal(v)
	if err != nil {
		return Node{Kind: KindText, Segments: Segments(err.Error())}
	}
	return JSON(raw)
}

// Escaped is Segments for a JSON string shown between quotes: a quote, a
// backslash, a newline and a tab are written as JSON writes them (\", \\,
// \n, \t), so that no string can look like the end of itself and the start
// of another member, or like a line of the tree; other hidden characters
// are codes.
func Escaped(s string) []Segment {
	if !strings.ContainsAny(s, "\"\\\n\t") {
		return Segments(s)
	}
	var out []Segment
	for _, seg := range Segments(s) {
		if seg.Code == "" {
			seg.Text = jsonEscapes.Replace(seg.Text)
		}
		out = append(out, seg)
	}
	return out
}

var jsonEscapes = strings.NewReplacer(`"`, `\"`, `\`, `\\`, "\n", `\n`, "\t", `\t`)

// errTooDeep stops a tree nested deeper than MaxDepth; errTooMany one of
// more than MaxNodes values.
var (
	errTooDeep = errors.New("nested too deep")
	errTooMany = errors.New("too many values")
)

// builder reads tokens into Nodes, counting them.
type builder struct {
	dec   *json.Decoder
	count int
}

// value reads the next value at depth.
func (b *builder) value(depth int) (Node, error) {
	tok, err := b.dec.Token()
	if err != nil {
		return Node{}, err
	}
	if b.count++; b.count > MaxNodes {
		return Node{}, errTooMany
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= MaxDepth {
			return Node{}, errTooDeep
		}
		if t == '[' {
			return b.array(depth)
		}
		if t == '{' {
			return b.object(depth)
		}
		return Node{}, errors.New("unexpected " + t.String())
	case string:
		return Node{Kind: KindString, Segments: Escaped(t)}, nil
	case json.Number:
		return Node{Kind: KindNumber, Text: t.String()}, nil
	case bool:
		if t {
			return Node{Kind: KindBoolean, Text: "true"}, nil
		}
		return Node{Kind: KindBoolean, Text: "false"}, nil
	case nil:
		return Node{Kind: KindNull, Text: "null"}, nil
	}
	return Node{}, errors.New("unexpected token")
}

func (b *builder) array(depth int) (Node, error) {
	n := Node{Kind: KindArray, Children: []Node{}}
	for b.dec.More() {
		c, err := b.value(depth + 1)
		if err != nil {
			return Node{}, err
		}
		n.Children = append(n.Children, c)
	}
	_, err := b.dec.Token() // ']'
	return n, err
}

func (b *builder) object(depth int) (Node, error) {
	n := Node{Kind: KindObject, Children: []Node{}}
	at := map[string]int{} // a key's member in Children
	for b.dec.More() {
		tok, err := b.dec.Token()
		if err != nil {
			return Node{}, err
		}
		key, ok := tok.(string)
		if !ok {
			return Node{}, errors.New("a key that is not a string")
		}
		c, err := b.value(depth + 1)
		if err != nil {
			return Node{}, err
		}
		c.Key = Escaped(key) // nil for "": every member of an object has a key
		if i, seen := at[key]; seen {
			c.Repeated = true
			n.Children[i] = c
			continue
		}
		at[key] = len(n.Children)
		n.Children = append(n.Children, c)
	}
	_, err := b.dec.Token() // '}'
	return n, err
}

// open marks the objects and arrays the window shows open.
func open(n *Node, depth int, all bool) {
	if n.Kind != KindObject && n.Kind != KindArray {
		return
	}
	n.Open = all || depth < OpenDepth
	for i := range n.Children {
		open(&n.Children[i], depth+1, all)
	}
}
