package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Caps on a tool's inputSchema. Over them the tools pane offers only the
// JSON editor and Gatehouse leaves the checking to the server: compiling a
// schema is work a server must not be able to make endless.
const (
	maxToolSchemaBytes = 1 << 20
	maxToolSchemaDepth = 64
)

// rootKeywords make a schema's root something a list of fields cannot show.
var rootKeywords = []string{"$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if", "dependentSchemas", "dependencies"}

// ParseTool turns a tool's inputSchema into a form. It never fails: a
// property a form cannot express (a nested object, a free list, ...) is a
// field of KindJSON, edited as JSON text; when the root itself cannot be a
// form the form is incomplete and Reason says why, and the tools pane offers
// the JSON editor alone.
//
// Required fields come first, then the rest, each group in the order the
// server wrote them: the person sees first what they must fill in. When
// Gatehouse cannot check arguments against the schema at all (it is too
// large, or invalid), Check and Validate pass arguments through and the
// server judges them; Reason says so. When checking against the schema
// would take more work than Gatehouse allows (budget.go), nothing passes:
// arguments Gatehouse cannot check are not sent, and Reason and every
// check say why, naming the tool.
func ParseTool(tool string, raw json.RawMessage) *Schema {
	s := &Schema{Form: newForm(), open: true, tool: tool}
	incomplete := func(m i18n.Message) *Schema {
		s.Form.Reason = &m
		s.index()
		return s
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage(`{"type":"object"}`) // no schema: no arguments
	}
	if len(raw) > maxToolSchemaBytes {
		return incomplete(i18n.M("forms.reason.tooLarge", "size", len(raw)))
	}
	if jsonDepth(raw) > maxToolSchemaDepth {
		return incomplete(i18n.M("forms.reason.tooDeep"))
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil || root == nil {
		return incomplete(i18n.M("forms.reason.notObject"))
	}
	compiled, err := compile(root, compileOptions{assertFormat: true, lenientPatterns: true})
	if why, ok := whyNot(err); ok {
		refused := s.givenUp(why)
		s.refused = &refused
		return incomplete(refused)
	}
	if errors.Is(err, errTooManyNodes) {
		return incomplete(i18n.M("forms.reason.tooMany", "limit", maxSchemaNodes))
	}
	if err != nil {
		return incomplete(i18n.M("forms.reason.invalid", "detail", err.Error()))
	}
	s.compiled = compiled
	if t, has := root["type"]; has && t != "object" {
		return incomplete(i18n.M("forms.reason.type", "type", fmt.Sprint(t)))
	}
	for _, k := range rootKeywords {
		if _, has := root[k]; has {
			return incomplete(i18n.M("forms.reason.keyword", "keyword", k))
		}
	}
	props, _ := root["properties"].(map[string]any)
	required := map[string]bool{}
	if list, ok := root["required"].([]any); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	// Only what the schema says is welcome beyond its properties may be
	// sent beyond the fields: a misspelt argument is refused, not sent. A
	// schema that names no property at all says nothing either way.
	_, patterned := root["patternProperties"]
	_, hasProps := root["properties"]
	ap, hasAP := root["additionalProperties"]
	_, apSchema := ap.(map[string]any)
	s.open = patterned || (hasAP && (ap == true || apSchema)) || (!hasProps && !hasAP)

	names := make([]string, 0, len(props)+len(required))
	for name := range props {
		names = append(names, name)
	}
	for name := range required {
		if _, defined := props[name]; !defined {
			names = append(names, name) // required, but undefined: entered as JSON
		}
	}
	sortByOrder(names, PropertyOrder(raw))
	sort.SliceStable(names, func(i, j int) bool { return required[names[i]] && !required[names[j]] })

	s.Form.Complete = true
	for _, name := range names {
		f := toolField(name, props[name])
		f.Required = required[name]
		s.Form.Fields = append(s.Form.Fields, f)
	}
	s.index()
	return s
}

// toolField interprets one property of a tool's inputSchema; what a form
// control cannot show is a JSON field.
func toolField(name string, prop any) Field {
	f := newField(name)
	p, _ := prop.(map[string]any)
	if p == nil {
		f.Kind = KindJSON
		f.Hints = fieldHints(&f)
		return f
	}
	f.Default = p["default"]
	title, _ := p["title"].(string)
	if title != "" {
		f.Label = title
	}
	f.Description, _ = p["description"].(string)
	p = withoutNull(p)
	format, _ := p["format"].(string)

	f.Kind = KindJSON
	typ, _ := p["type"].(string)
	if opts, ok := textChoices(p); ok && (typ == "" || typ == "string") {
		f.Kind, f.Options = KindSingleSelect, opts
	} else {
		switch typ {
		case "string":
			f.Kind, _ = stringKind(format)
			f.MinLength, f.MaxLength = intPtr(p["minLength"]), intPtr(p["maxLength"])
			f.Pattern, _ = p["pattern"].(string)
		case "number", "integer":
			f.Kind = Kind(typ)
			f.Minimum, f.Maximum = floatPtr(p["minimum"]), floatPtr(p["maximum"])
		case "boolean":
			f.Kind = KindBoolean
		case "array":
			items, _ := p["items"].(map[string]any)
			if it, _ := items["type"].(string); it == "" || it == "string" {
				if opts, ok := textChoices(items); ok {
					f.Kind, f.Options = KindMultiSelect, opts
					f.MinItems, f.MaxItems = intPtr(p["minItems"]), intPtr(p["maxItems"])
				}
			}
		}
	}
	f.Sensitive = looksSecret(f.Name, title, f.Description, format, len(f.Options) > 0, string(f.Kind))
	f.Hints = fieldHints(&f)
	if values, ok := p["enum"].([]any); ok && f.Kind != KindSingleSelect && len(values) > 0 && len(values) <= maxListedValues {
		// Choices that are not text (numbers, say) are entered as such;
		// the hint lists them.
		b, _ := json.Marshal(values)
		f.Hints = append(f.Hints, i18n.M("forms.hint.values", "values", string(b)))
	}
	return f
}

// withoutNull reads an optional value written as "this or null" (a type
// list with "null", or anyOf/oneOf of a schema and {"type": "null"}, as
// Python servers write Optional[str]) as the schema of the value. An empty
// field is left out, which such a schema accepts as well.
func withoutNull(p map[string]any) map[string]any {
	if list, ok := p["type"].([]any); ok && len(list) == 2 {
		for i, t := range list {
			if t == "null" {
				if other, ok := list[1-i].(string); ok {
					q := shallowCopy(p)
					q["type"] = other
					return q
				}
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		list, ok := p[key].([]any)
		if !ok || len(list) != 2 {
			continue
		}
		for i, entry := range list {
			if e, ok := entry.(map[string]any); ok && len(e) == 1 && e["type"] == "null" {
				if other, ok := list[1-i].(map[string]any); ok {
					q := shallowCopy(other)
					for _, k := range []string{"title", "description", "default"} {
						if v, has := p[k]; has {
							if _, own := q[k]; !own {
								q[k] = v
							}
						}
					}
					return q
				}
			}
		}
	}
	return p
}

func shallowCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// textChoices reads the choices of a property whose values are a choice
// among texts: enum (with legacy enumNames as labels), or oneOf/anyOf of
// {const, title}. Choices that are not all text are not a select: their
// values could not be sent back as they are. Nor is a list with the empty
// text among its choices: a form cannot tell it from no choice.
func textChoices(p map[string]any) ([]Option, bool) {
	if p == nil {
		return nil, false
	}
	if values, ok := p["enum"].([]any); ok {
		if len(values) == 0 {
			return nil, false
		}
		names, _ := p["enumNames"].([]any)
		opts := make([]Option, 0, len(values))
		for i, v := range values {
			s, ok := v.(string)
			if !ok || s == "" {
				return nil, false
			}
			o := Option{Value: s, Label: s}
			if len(names) == len(values) {
				if label, ok := names[i].(string); ok && label != "" {
					o.Label = label
				}
			}
			opts = append(opts, o)
		}
		return opts, true
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		list, ok := p[key].([]any)
		if !ok || len(list) == 0 {
			continue
		}
		opts := make([]Option, 0, len(list))
		for _, entry := range list {
			e, _ := entry.(map[string]any)
			c, ok := e["const"].(string)
			if !ok || c == "" {
				return nil, false
			}
			o := Option{Value: c, Label: c}
			if t, _ := e["title"].(string); t != "" {
				o.Label = t
			}
			opts = append(opts, o)
		}
		return opts, true
	}
	return nil, false
}

// maxListedValues bounds the choices a hint lists; a longer list stays in
// the schema, which the tools pane shows.
const maxListedValues = 20
