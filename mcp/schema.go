package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the name a server's schema is compiled under. Nothing is ever
// loaded from it: compileSchema refuses every external reference.
const schemaURL = "gatehouse:///server-schema.json"

// errExternalRef is returned when a schema refers to a file or URL.
var errExternalRef = errors.New("the schema refers to an external document, which Gatehouse never loads")

// refusingLoader is a jsonschema URL loader that loads nothing, so that a
// server's "$ref": "file:///etc/passwd" or "https://..." is refused, never read.
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%w: %s", errExternalRef, url)
}

// compileSchema compiles a JSON Schema sent by a server, with external
// loading switched off.
func compileSchema(schema any) (*jsonschema.Schema, error) {
	doc, err := toJSONValue(schema)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compiling the schema: %w", err)
	}
	return sch, nil
}

// toJSONValue round-trips v through JSON into the generic form jsonschema
// validates (numbers as json.Number).
func toJSONValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding JSON: %w", err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// CheckStructured validates a tool result's structuredContent against the
// tool's outputSchema. It returns "" when they match (or there is nothing to
// check) and otherwise a sentence for the person reading the result.
func CheckStructured(outputSchema, structured any) string {
	if outputSchema == nil {
		return ""
	}
	if structured == nil {
		return "The tool declares an output schema but returned no structured content."
	}
	sch, err := compileSchema(outputSchema)
	if err != nil {
		return "The tool's output schema cannot be used: " + err.Error()
	}
	v, err := toJSONValue(structured)
	if err != nil {
		return "The structured content is not valid JSON: " + err.Error()
	}
	if err := sch.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return "The structured content does not match the tool's output schema: " + describeValidation(ve)
		}
		return "The structured content does not match the tool's output schema: " + err.Error()
	}
	return ""
}

// describeValidation flattens a validation error tree into "at /path: reason" lines.
func describeValidation(ve *jsonschema.ValidationError) string {
	var parts []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			parts = append(parts, fmt.Sprintf("at %s: %s", loc, e.ErrorKind))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; ")
}

// Field kinds of a form.
const (
	KindText         = "text"
	KindEmail        = "email"
	KindURI          = "uri"
	KindDate         = "date"
	KindDateTime     = "date-time"
	KindNumber       = "number"
	KindInteger      = "integer"
	KindBoolean      = "boolean"
	KindSingleSelect = "single-select"
	KindMultiSelect  = "multi-select"
)

// Form is a JSON Schema object turned into form fields. When Complete is
// false the form cannot express the whole schema and Reason says why; the
// UI then offers a JSON editor instead.
type Form struct {
	Fields   []Field
	Complete bool
	Reason   string
}

// Field is one input of a Form. Every string in it came from a server and
// must be shown as text.
type Field struct {
	Name        string
	Label       string // title, or the name when there is none
	Description string
	Kind        string
	Required    bool
	Default     any
	Minimum     *float64
	Maximum     *float64
	MinLength   *int
	MaxLength   *int
	Pattern     string
	MinItems    *int
	MaxItems    *int
	Options     []Option
	Sensitive   bool
}

// Option is one choice of a select field.
type Option struct {
	Value string
	Label string
}

// ToolForm turns a tool's inputSchema into a form. Properties it cannot
// render (nested objects, free arrays, $ref, ...) make the form incomplete.
func ToolForm(inputSchema any) Form {
	obj, ok := asObject(inputSchema)
	if !ok {
		return Form{Reason: "The tool's input schema is not a JSON object."}
	}
	if t, _ := obj["type"].(string); t != "" && t != "object" {
		return Form{Reason: fmt.Sprintf("The tool's input schema has type %q, not object.", t)}
	}
	for _, k := range []string{"$ref", "allOf", "anyOf", "oneOf", "not", "if", "patternProperties", "dependentSchemas"} {
		if _, has := obj[k]; has {
			return Form{Reason: fmt.Sprintf("The tool's input schema uses %q, which the form cannot show.", k)}
		}
	}
	props, _ := asObject(obj["properties"])
	required := map[string]bool{}
	if list, ok := obj["required"].([]any); ok {
		for _, r := range list {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { // required first, then by name
		if required[names[i]] != required[names[j]] {
			return required[names[i]]
		}
		return names[i] < names[j]
	})
	form := Form{Complete: true}
	for _, name := range names {
		prop, _ := asObject(props[name])
		f, err := fieldFromProperty(name, prop)
		if err != nil {
			return Form{Reason: err.Error()}
		}
		f.Required = required[name]
		form.Fields = append(form.Fields, f)
	}
	return form
}

// fieldFromProperty interprets one property schema.
func fieldFromProperty(name string, p map[string]any) (Field, error) {
	f := Field{Name: name, Label: name, Default: p["default"]}
	if s, _ := p["title"].(string); s != "" {
		f.Label = s
	}
	f.Description, _ = p["description"].(string)
	if opts, ok := enumOptions(p); ok {
		f.Kind = KindSingleSelect
		f.Options = opts
		f.Sensitive = looksSensitive(f)
		return f, nil
	}
	typ, _ := p["type"].(string)
	switch typ {
	case "string":
		f.Kind = KindText
		switch format, _ := p["format"].(string); format {
		case "email":
			f.Kind = KindEmail
		case "uri":
			f.Kind = KindURI
		case "date":
			f.Kind = KindDate
		case "date-time":
			f.Kind = KindDateTime
		}
		f.MinLength, f.MaxLength = intPtr(p["minLength"]), intPtr(p["maxLength"])
		f.Pattern, _ = p["pattern"].(string)
		if f.Pattern != "" {
			if _, err := regexp.Compile(f.Pattern); err != nil {
				return Field{}, fmt.Errorf("property %q has a pattern the form cannot use: %v", name, err)
			}
		}
	case "number", "integer":
		f.Kind = typ
		f.Minimum, f.Maximum = floatPtr(p["minimum"]), floatPtr(p["maximum"])
	case "boolean":
		f.Kind = KindBoolean
	case "array":
		items, _ := asObject(p["items"])
		opts, ok := enumOptions(items)
		if !ok {
			return Field{}, fmt.Errorf("property %q is a list the form cannot show; use the JSON editor", name)
		}
		f.Kind = KindMultiSelect
		f.Options = opts
		f.MinItems, f.MaxItems = intPtr(p["minItems"]), intPtr(p["maxItems"])
	case "":
		return Field{}, fmt.Errorf("property %q has no type; use the JSON editor", name)
	default:
		return Field{}, fmt.Errorf("property %q is of type %s, which the form cannot show; use the JSON editor", name, typ)
	}
	f.Sensitive = looksSensitive(f)
	return f, nil
}

// enumOptions reads the choices of an enum property: plain enum (with legacy
// enumNames as labels), or oneOf/anyOf lists of {const, title}.
func enumOptions(p map[string]any) ([]Option, bool) {
	if p == nil {
		return nil, false
	}
	if values, ok := p["enum"].([]any); ok {
		names, _ := p["enumNames"].([]any)
		opts := make([]Option, 0, len(values))
		for i, v := range values {
			o := Option{Value: fmt.Sprint(v), Label: fmt.Sprint(v)}
			if i < len(names) {
				if s, ok := names[i].(string); ok && s != "" {
					o.Label = s
				}
			}
			opts = append(opts, o)
		}
		return opts, true
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		list, ok := p[key].([]any)
		if !ok {
			continue
		}
		opts := make([]Option, 0, len(list))
		for _, entry := range list {
			e, _ := asObject(entry)
			c, has := e["const"]
			if !has {
				return nil, false
			}
			o := Option{Value: fmt.Sprint(c), Label: fmt.Sprint(c)}
			if s, _ := e["title"].(string); s != "" {
				o.Label = s
			}
			opts = append(opts, o)
		}
		return opts, true
	}
	return nil, false
}

// sensitiveWords flag a field as asking for a secret (E17).
var sensitiveWords = regexp.MustCompile(`(?i)pass(word|phrase|code|wd)|\bpass\b|secret|token|api[\s_-]?key|private[\s_-]?key|credential|card[\s_-]?(number|no)|credit[\s_-]?card|cvv|cvc|iban|account[\s_-]?(number|no)|routing[\s_-]?number|\bpin\b|one[\s_-]?time|\botp\b|2fa|mfa[\s_-]?code|verification[\s_-]?code|ssn|social[\s_-]?security|密码|口令|令牌|密钥|验证码|卡号|账号`)

func looksSensitive(f Field) bool {
	return sensitiveWords.MatchString(f.Name + " " + f.Label + " " + f.Description)
}

func asObject(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok
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

func intPtr(v any) *int {
	if f := floatPtr(v); f != nil && *f == float64(int(*f)) {
		i := int(*f)
		return &i
	}
	return nil
}
