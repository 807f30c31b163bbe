package forms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"unicode/utf8"
)

// Caps on an elicitation's requestedSchema. A schema over a cap is refused
// with a message naming the cap, never truncated silently: the person must
// see exactly what the server asked.
const (
	MaxProperties        = 50       // fields in one form
	MaxEnumOptions       = 500      // choices of one select field
	MaxPatternLength     = 1024     // bytes of one pattern
	MaxTextLength        = 4 * 1024 // characters of one title, description or option label
	maxNameLength        = 200      // characters of a property name
	maxSchemaDepth       = 6        // JSON nesting of requestedSchema (a flat form needs 5)
	maxSchemaBytes       = 256 * 1024
	maxDefaultTextLength = 64 * 1024
)

// SchemaError says which property of a requestedSchema is outside the subset
// the specification allows (E6–E11), and why. The host answers it with
// JSON-RPC -32602 and shows nothing. Its sentences go to the server, so
// they are English, not catalogue messages.
type SchemaError struct {
	Property string // "" for the schema itself
	Problem  string
}

// Error says what is wrong, for the server: "requestedSchema property "x" ...".
func (e *SchemaError) Error() string {
	if e.Property == "" {
		return "requestedSchema " + e.Problem
	}
	return fmt.Sprintf("requestedSchema property %q %s", e.Property, e.Problem)
}

// Draft URIs a requestedSchema may name in "$schema". jsonschema/v6 knows
// them without loading anything; any other value is refused.
var knownDrafts = []string{
	"https://json-schema.org/draft/2020-12/schema",
	"http://json-schema.org/draft-07/schema#",
	"http://json-schema.org/draft-07/schema",
}

// Keys allowed at each level of a requestedSchema. Everything else is
// refused by name.
var (
	rootKeys    = []string{"$schema", "type", "properties", "required", "title", "description", "additionalProperties"}
	commonKeys  = []string{"type", "title", "description", "default"}
	stringKeys  = append(slices.Clone(commonKeys), "minLength", "maxLength", "pattern", "format", "enum", "enumNames", "oneOf")
	numberKeys  = append(slices.Clone(commonKeys), "minimum", "maximum")
	booleanKeys = commonKeys
	arrayKeys   = append(slices.Clone(commonKeys), "items", "minItems", "maxItems", "uniqueItems")
)

// ParseElicitation checks an elicitation's requestedSchema against the
// subset form mode allows and the caps above, and turns it into a form
// whose fields keep the order the server wrote them in. A missing schema
// is refused: form mode must say what it asks for (E6). Every refusal is a
// *SchemaError.
func ParseElicitation(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, &SchemaError{Problem: "is missing; form mode needs an object schema that lists what it asks for"}
	}
	if len(raw) > maxSchemaBytes {
		return nil, &SchemaError{Problem: fmt.Sprintf("is %d bytes, over the limit of %d", len(raw), maxSchemaBytes)}
	}
	if d := jsonDepth(raw); d > maxSchemaDepth {
		return nil, &SchemaError{Problem: fmt.Sprintf("is nested %d levels deep; a form is a flat object", d)}
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil || root == nil {
		return nil, &SchemaError{Problem: "must be a JSON object"}
	}
	if k := unknownKey(root, rootKeys); k != "" {
		return nil, &SchemaError{Problem: fmt.Sprintf("uses %q, which form mode does not allow", k)}
	}
	if s, has := root["$schema"]; has && !slices.Contains(knownDrafts, fmt.Sprint(s)) {
		return nil, &SchemaError{Problem: fmt.Sprintf("names the meta-schema %q; only the standard JSON Schema drafts are accepted and nothing is loaded", fmt.Sprint(s))}
	}
	if t, has := root["type"]; has && t != "object" {
		return nil, &SchemaError{Problem: "must have type \"object\""}
	}
	if ap, has := root["additionalProperties"]; has {
		if _, ok := ap.(bool); !ok {
			return nil, &SchemaError{Problem: "may set additionalProperties only to true or false"}
		}
	}
	props := map[string]any{}
	if p, has := root["properties"]; has {
		var ok bool
		if props, ok = p.(map[string]any); !ok {
			return nil, &SchemaError{Problem: "has properties that are not an object"}
		}
	}
	if len(props) > MaxProperties {
		return nil, &SchemaError{Problem: fmt.Sprintf("has %d properties, over the limit of %d", len(props), MaxProperties)}
	}
	required := map[string]bool{}
	if r, has := root["required"]; has {
		list, ok := r.([]any)
		if !ok {
			return nil, &SchemaError{Problem: "has a required list that is not an array"}
		}
		for _, x := range list {
			name, ok := x.(string)
			if !ok {
				return nil, &SchemaError{Problem: "has a non-string entry in required"}
			}
			if _, defined := props[name]; !defined {
				return nil, &SchemaError{Property: name, Problem: "is required but not defined"}
			}
			required[name] = true
		}
	}

	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sortByOrder(names, PropertyOrder(raw))
	s := &Schema{Form: newForm()}
	s.Form.Complete = true
	for _, name := range names {
		p, ok := props[name].(map[string]any)
		if !ok {
			return nil, &SchemaError{Property: name, Problem: "is not a schema object"}
		}
		f, err := elicitationField(name, p)
		if err != nil {
			return nil, err
		}
		f.Required = required[name]
		s.Form.Fields = append(s.Form.Fields, f)
	}

	var err error
	if s.compiled, err = compile(root, compileOptions{assertFormat: true}); err != nil {
		return nil, &SchemaError{Problem: "is not a valid JSON Schema: " + err.Error()}
	}
	s.index()
	for _, f := range s.Form.Fields {
		if f.Default == nil {
			continue
		}
		if errs, _ := s.check(context.Background(), map[string]any{f.Name: f.Default}, true); errs[f.Name].Key != "" {
			return nil, &SchemaError{Property: f.Name, Problem: "has a default that does not fit its own schema: " + errs[f.Name].String()}
		}
	}
	return s, nil
}

// elicitationField checks one property of a requestedSchema and describes it.
func elicitationField(name string, p map[string]any) (Field, error) {
	bad := func(format string, args ...any) (Field, error) {
		return Field{}, &SchemaError{Property: name, Problem: fmt.Sprintf(format, args...)}
	}
	if name == "" || utf8.RuneCountInString(name) > maxNameLength {
		return bad("has a name that is empty or too long")
	}
	f := newField(name)
	f.Default = p["default"]
	for _, key := range []string{"title", "description"} {
		if v, has := p[key]; has {
			s, ok := v.(string)
			if !ok {
				return bad("has a %s that is not text", key)
			}
			if utf8.RuneCountInString(s) > MaxTextLength {
				return bad("has a %s over %d characters", key, MaxTextLength)
			}
		}
	}
	title, _ := p["title"].(string)
	if title != "" {
		f.Label = title
	}
	f.Description, _ = p["description"].(string)

	typ, hasType := p["type"].(string)
	if _, present := p["type"]; present && !hasType {
		return bad("has a type that is not a single name (type lists are not allowed)")
	}
	_, isEnum := p["enum"]
	_, isOneOf := p["oneOf"]
	if !hasType && (isEnum || isOneOf) {
		typ = "string" // an untyped enum is a string enum
	}
	var allowed []string
	switch typ {
	case "string":
		allowed = stringKeys
	case "number", "integer":
		allowed = numberKeys
	case "boolean":
		allowed = booleanKeys
	case "array":
		allowed = arrayKeys
	case "object":
		return bad("is a nested object; form mode allows only flat, primitive fields")
	case "":
		return bad("has no type")
	default:
		return bad("has type %q; form mode allows string, number, integer, boolean and enum lists", typ)
	}
	if k := unknownKey(p, allowed); k != "" {
		return bad("uses %q, which form mode does not allow for a %s", k, typ)
	}

	var err error
	switch typ {
	case "string":
		err = stringField(&f, p)
	case "number", "integer":
		f.Kind = Kind(typ)
		f.Minimum, f.Maximum = floatPtr(p["minimum"]), floatPtr(p["maximum"])
		if err = numberKey(p, "minimum", "maximum"); err == nil && f.Minimum != nil && f.Maximum != nil && *f.Minimum > *f.Maximum {
			err = errors.New("has a minimum above its maximum")
		}
		if err == nil && f.Default != nil {
			if _, ok := f.Default.(float64); !ok {
				err = errors.New("has a default that is not a number")
			}
		}
	case "boolean":
		f.Kind = KindBoolean
		if _, ok := f.Default.(bool); f.Default != nil && !ok {
			err = errors.New("has a default that is not true or false")
		}
	case "array":
		err = arrayField(&f, p)
	}
	if err != nil {
		return bad("%s", err.Error())
	}
	format, _ := p["format"].(string)
	f.Sensitive = looksSecret(f.Name, title, f.Description, format, len(f.Options) > 0, string(f.Kind))
	f.Hints = fieldHints(&f)
	return f, nil
}

func stringField(f *Field, p map[string]any) error {
	f.Kind = KindText
	if opts, isEnum, err := choices(p); err != nil {
		return err
	} else if isEnum {
		f.Kind, f.Options = KindSingleSelect, opts
		for _, k := range []string{"minLength", "maxLength", "pattern", "format"} {
			if _, has := p[k]; has {
				return fmt.Errorf("mixes %q with a list of choices", k)
			}
		}
		return stringDefault(f)
	}
	if _, has := p["enumNames"]; has {
		return errors.New("has enumNames without enum")
	}
	if v, has := p["format"]; has {
		format, _ := v.(string)
		kind, ok := stringKind(format)
		if !ok || format == "" || !kinds[kind].elicitation {
			return fmt.Errorf("has format %q; allowed are %s", fmt.Sprint(v), elicitationFormats())
		}
		f.Kind = kind
	}
	if err := countKey(p, "minLength", "maxLength"); err != nil {
		return err
	}
	f.MinLength, f.MaxLength = intPtr(p["minLength"]), intPtr(p["maxLength"])
	if f.MinLength != nil && f.MaxLength != nil && *f.MinLength > *f.MaxLength {
		return errors.New("has a minLength above its maxLength")
	}
	if v, has := p["pattern"]; has {
		s, ok := v.(string)
		if !ok {
			return errors.New("has a pattern that is not text")
		}
		if len(s) > MaxPatternLength {
			return fmt.Errorf("has a pattern of %d bytes, over the limit of %d", len(s), MaxPatternLength)
		}
		if _, err := regexp.Compile(s); err != nil {
			return fmt.Errorf("has a pattern that cannot be used: %v", err)
		}
		f.Pattern = s
	}
	return stringDefault(f)
}

func stringDefault(f *Field) error {
	if f.Default == nil {
		return nil
	}
	s, ok := f.Default.(string)
	if !ok {
		return errors.New("has a default that is not text")
	}
	if len(s) > maxDefaultTextLength {
		return errors.New("has a default that is too long")
	}
	return nil
}

func arrayField(f *Field, p map[string]any) error {
	f.Kind = KindMultiSelect
	items, ok := p["items"].(map[string]any)
	if !ok {
		return errors.New("is a list without an items schema of choices")
	}
	if k := unknownKey(items, []string{"type", "enum", "anyOf", "oneOf"}); k != "" {
		return fmt.Errorf("has items using %q; a list must be a choice among enum values", k)
	}
	if t, has := items["type"]; has && t != "string" {
		return errors.New("has items that are not strings; a list must be a choice among text values")
	}
	opts, isEnum, err := choices(items)
	if err != nil {
		return err
	}
	if !isEnum {
		return errors.New("is a list without choices (items.enum or items.anyOf)")
	}
	f.Options = opts
	if u, has := p["uniqueItems"]; has {
		if _, ok := u.(bool); !ok {
			return errors.New("has uniqueItems that is not true or false")
		}
	}
	if err := countKey(p, "minItems", "maxItems"); err != nil {
		return err
	}
	f.MinItems, f.MaxItems = intPtr(p["minItems"]), intPtr(p["maxItems"])
	if f.MinItems != nil && f.MaxItems != nil && *f.MinItems > *f.MaxItems {
		return errors.New("has a minItems above its maxItems")
	}
	if f.Default != nil {
		list, ok := f.Default.([]any)
		if !ok {
			return errors.New("has a default that is not a list")
		}
		for _, v := range list {
			if _, ok := v.(string); !ok {
				return errors.New("has a default list with a non-text entry")
			}
		}
	}
	return nil
}

// choices reads enum (with legacy enumNames, E10), oneOf or anyOf
// [{const, title}] (E10, E11). isEnum is false when there are none.
func choices(p map[string]any) (opts []Option, isEnum bool, err error) {
	if v, has := p["enum"]; has {
		values, ok := v.([]any)
		if !ok || len(values) == 0 {
			return nil, true, errors.New("has an enum that is not a non-empty list")
		}
		if len(values) > MaxEnumOptions {
			return nil, true, fmt.Errorf("has %d choices, over the limit of %d", len(values), MaxEnumOptions)
		}
		var names []any
		if n, has := p["enumNames"]; has {
			if names, ok = n.([]any); !ok || len(names) != len(values) {
				return nil, true, errors.New("has enumNames that do not match its enum one for one")
			}
		}
		opts = make([]Option, 0, len(values))
		for i, v := range values {
			s, ok := v.(string)
			if !ok {
				return nil, true, errors.New("has a non-text enum value")
			}
			o := Option{Value: s, Label: s}
			if names != nil {
				label, ok := names[i].(string)
				if !ok {
					return nil, true, errors.New("has a non-text entry in enumNames")
				}
				o.Label = label
			}
			opts = append(opts, o)
		}
		return opts, true, checkOptions(opts)
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		v, has := p[key]
		if !has {
			continue
		}
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return nil, true, fmt.Errorf("has a %s that is not a non-empty list", key)
		}
		if len(list) > MaxEnumOptions {
			return nil, true, fmt.Errorf("has %d choices, over the limit of %d", len(list), MaxEnumOptions)
		}
		opts = make([]Option, 0, len(list))
		for _, e := range list {
			entry, ok := e.(map[string]any)
			if !ok {
				return nil, true, fmt.Errorf("has a %s entry that is not an object", key)
			}
			if k := unknownKey(entry, []string{"const", "title"}); k != "" {
				return nil, true, fmt.Errorf("has a %s entry using %q; entries are {const, title}", key, k)
			}
			c, ok := entry["const"].(string)
			if !ok {
				return nil, true, fmt.Errorf("has a %s entry without a text const", key)
			}
			o := Option{Value: c, Label: c}
			if t, has := entry["title"]; has {
				title, ok := t.(string)
				if !ok {
					return nil, true, fmt.Errorf("has a %s entry whose title is not text", key)
				}
				if title != "" {
					o.Label = title
				}
			}
			opts = append(opts, o)
		}
		return opts, true, checkOptions(opts)
	}
	return nil, false, nil
}

func checkOptions(opts []Option) error {
	seen := map[string]bool{}
	for _, o := range opts {
		if o.Value == "" {
			return errors.New("lists an empty choice, which a form cannot tell from no choice")
		}
		if seen[o.Value] {
			return fmt.Errorf("lists the choice %q twice", o.Value)
		}
		seen[o.Value] = true
		if utf8.RuneCountInString(o.Label) > MaxTextLength {
			return fmt.Errorf("has a choice label over %d characters", MaxTextLength)
		}
	}
	return nil
}

// numberKey checks that the named keys, when present, are numbers.
func numberKey(p map[string]any, keys ...string) error {
	for _, k := range keys {
		if v, has := p[k]; has {
			if _, ok := v.(float64); !ok {
				return fmt.Errorf("has a %s that is not a number", k)
			}
		}
	}
	return nil
}

// countKey checks that the named keys, when present, are whole numbers ≥ 0.
func countKey(p map[string]any, keys ...string) error {
	for _, k := range keys {
		if v, has := p[k]; has {
			n, ok := v.(float64)
			if !ok || n < 0 || n > maxCount || n != float64(int(n)) {
				return fmt.Errorf("has a %s that is not a whole number of zero or more", k)
			}
		}
	}
	return nil
}
