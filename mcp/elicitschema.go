package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Caps on a form-mode request. A request over a cap is refused with a message
// naming the cap, never truncated silently: the person must see exactly what
// the server asked.
const (
	MaxMessageLength     = 8 * 1024 // characters of the request's message
	MaxProperties        = 50       // fields in one form
	MaxEnumOptions       = 500      // choices of one select field
	MaxPatternLength     = 1024     // bytes of one pattern
	MaxTextLength        = 4 * 1024 // characters of one title, description or option label
	maxSchemaDepth       = 6        // JSON nesting of requestedSchema (a flat form needs 5)
	maxSchemaBytes       = 256 * 1024
	maxDefaultTextLength = 64 * 1024
)

// SchemaError says which property of a requestedSchema is outside the subset
// the specification allows (E6–E11), and why. The host answers it with
// JSON-RPC -32602 and shows nothing.
type SchemaError struct {
	Property string // "" for the schema itself
	Problem  string
}

func (e *SchemaError) Error() string {
	if e.Property == "" {
		return "requestedSchema " + e.Problem
	}
	return fmt.Sprintf("requestedSchema property %q %s", e.Property, e.Problem)
}

// FormSchema is a checked requestedSchema: the form to show and the compiled
// schema that validates answers (E15).
type FormSchema struct {
	Form   Form
	schema *jsonschema.Schema
	fields map[string]Field
}

// Draft URIs a requestedSchema may name in "$schema". jsonschema/v6 knows
// them without loading anything; any other value is refused.
var knownDrafts = []string{
	"https://json-schema.org/draft/2020-12/schema",
	"http://json-schema.org/draft-07/schema#",
	"http://json-schema.org/draft-07/schema",
}

// Keys allowed at each level. Everything else is refused by name.
var (
	rootKeys    = []string{"$schema", "type", "properties", "required", "title", "description", "additionalProperties"}
	commonKeys  = []string{"type", "title", "description", "default"}
	stringKeys  = append(slices.Clone(commonKeys), "minLength", "maxLength", "pattern", "format", "enum", "enumNames", "oneOf")
	numberKeys  = append(slices.Clone(commonKeys), "minimum", "maximum")
	booleanKeys = commonKeys
	arrayKeys   = append(slices.Clone(commonKeys), "items", "minItems", "maxItems", "uniqueItems")
	formats     = map[string]string{"email": KindEmail, "uri": KindURI, "date": KindDate, "date-time": KindDateTime}
)

// ParseRequestedSchema checks a form-mode requestedSchema against the
// allowed subset and the caps, and turns it into a form. A nil schema is an
// empty form (a plain confirmation). order lists property names in the order
// the server wrote them (decoding into a map loses it); fields not in order
// follow, by name. When raw is a json.RawMessage the order is read from it.
func ParseRequestedSchema(raw any, order []string) (*FormSchema, error) {
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, &SchemaError{Problem: "is not valid JSON"}
	}
	if len(b) > maxSchemaBytes {
		return nil, &SchemaError{Problem: fmt.Sprintf("is %d bytes, over the limit of %d", len(b), maxSchemaBytes)}
	}
	if d := jsonDepth(b); d > maxSchemaDepth {
		return nil, &SchemaError{Problem: fmt.Sprintf("is nested %d levels deep; a form is a flat object", d)}
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil || (root == nil && string(b) != "null") {
		return nil, &SchemaError{Problem: "must be a JSON object"}
	}
	if root == nil {
		root = map[string]any{"type": "object"}
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

	fs := &FormSchema{Form: Form{Complete: true}, fields: map[string]Field{}}
	for name, v := range props {
		p, ok := v.(map[string]any)
		if !ok {
			return nil, &SchemaError{Property: name, Problem: "is not a schema object"}
		}
		f, err := elicitField(name, p)
		if err != nil {
			return nil, err
		}
		f.Required = required[name]
		fs.Form.Fields = append(fs.Form.Fields, f)
		fs.fields[name] = f
	}
	// Fields keep the order the server wrote them in.
	if rawJSON, ok := raw.(json.RawMessage); ok && order == nil {
		order = PropertyOrder(rawJSON)
	}
	pos := map[string]int{}
	for i, name := range order {
		pos[name] = i + 1
	}
	sort.Slice(fs.Form.Fields, func(i, j int) bool {
		a, b := fs.Form.Fields[i].Name, fs.Form.Fields[j].Name
		pa, pb := pos[a], pos[b]
		switch {
		case pa != 0 && pb != 0:
			return pa < pb
		case pa != 0 || pb != 0:
			return pa != 0
		}
		return a < b
	})

	doc, err := toJSONValue(root)
	if err != nil {
		return nil, &SchemaError{Problem: "cannot be read: " + err.Error()}
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, &SchemaError{Problem: "cannot be read: " + err.Error()}
	}
	if fs.schema, err = c.Compile(schemaURL); err != nil {
		return nil, &SchemaError{Problem: "is not a valid JSON Schema: " + err.Error()}
	}
	for _, f := range fs.Form.Fields {
		if f.Default == nil {
			continue
		}
		if errs := fs.validate(map[string]any{f.Name: f.Default}, true); errs[f.Name] != "" {
			return nil, &SchemaError{Property: f.Name, Problem: "has a default that does not fit its own schema: " + errs[f.Name]}
		}
	}
	return fs, nil
}

// elicitField checks one property of a form-mode schema and describes it.
func elicitField(name string, p map[string]any) (Field, error) {
	bad := func(format string, args ...any) (Field, error) {
		return Field{}, &SchemaError{Property: name, Problem: fmt.Sprintf(format, args...)}
	}
	if name == "" || utf8.RuneCountInString(name) > 200 {
		return bad("has a name that is empty or too long")
	}
	f := Field{Name: name, Label: name, Default: p["default"]}
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
	if s, _ := p["title"].(string); s != "" {
		f.Label = s
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
		f.Kind = typ
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
	f.Sensitive = looksSensitive(f)
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
		kind, ok := formats[fmt.Sprint(v)]
		if !ok {
			return fmt.Errorf("has format %q; allowed are email, uri, date and date-time", fmt.Sprint(v))
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
			if t, ok := entry["title"].(string); ok && t != "" {
				o.Label = t
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

// Validate checks an answer against the schema (E13, E15) and returns the
// content to send and, per field, a sentence for the person. Empty optional
// fields are left out rather than sent as "". Unknown fields are refused.
func (fs *FormSchema) Validate(values map[string]any) (content map[string]any, errs map[string]string) {
	content = map[string]any{}
	errs = map[string]string{}
	for name, v := range values {
		_, known := fs.fields[name]
		if !known {
			errs[name] = "This form has no such field."
			continue
		}
		if v == nil || v == "" || isEmptyList(v) {
			continue // left empty: omitted, and flagged below when required
		}
		content[name] = v
	}
	for _, f := range fs.Form.Fields {
		if _, ok := content[f.Name]; !ok && f.Required && errs[f.Name] == "" {
			errs[f.Name] = "This field is required."
		}
	}
	for k, v := range fs.validate(content, false) {
		if errs[k] == "" {
			errs[k] = v
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return content, nil
}

func isEmptyList(v any) bool {
	l, ok := v.([]any)
	return ok && len(l) == 0
}

// validate runs the compiled schema and maps its errors to fields.
// ignoreRequired is used to check defaults one at a time.
func (fs *FormSchema) validate(content map[string]any, ignoreRequired bool) map[string]string {
	errs := map[string]string{}
	doc, err := toJSONValue(content)
	if err != nil {
		errs[""] = "The answer cannot be encoded."
		return errs
	}
	err = fs.schema.Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return errs
	}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			if !ignoreRequired {
				for _, name := range k.Missing {
					errs[name] = "This field is required."
				}
			}
			return
		case *kind.AdditionalProperties:
			for _, name := range k.Properties {
				errs[name] = "This form has no such field."
			}
			return
		}
		field := ""
		if len(e.InstanceLocation) > 0 {
			field = e.InstanceLocation[0]
		}
		if errs[field] == "" {
			errs[field] = fs.sentence(fs.fields[field], e.ErrorKind)
		}
	}
	walk(ve)
	return errs
}

// sentence explains a validation failure to a person.
func (fs *FormSchema) sentence(f Field, k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		switch f.Kind {
		case KindInteger:
			return "Enter a whole number."
		case KindNumber:
			return "Enter a number."
		case KindBoolean:
			return "Choose yes or no."
		case KindMultiSelect:
			return "Choose from the list."
		}
		return "Enter text."
	case *kind.MinLength:
		return fmt.Sprintf("Use at least %d characters.", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("Use at most %d characters.", k.Want)
	case *kind.Pattern:
		return fmt.Sprintf("This does not have the expected form (pattern %s).", k.Want)
	case *kind.Format:
		switch k.Want {
		case "email":
			return "Enter an email address, like name@example.com."
		case "uri":
			return "Enter a full web address, like https://example.com/page."
		case "date":
			return "Enter a date as YYYY-MM-DD, like 2026-01-31."
		case "date-time":
			return "Enter a date and time with a time zone, like 2026-01-31T14:30:00+01:00."
		}
		return fmt.Sprintf("This is not a valid %s.", k.Want)
	case *kind.Minimum:
		return fmt.Sprintf("Enter %s or more.", ratString(k.Want))
	case *kind.Maximum:
		return fmt.Sprintf("Enter %s or less.", ratString(k.Want))
	case *kind.Enum, *kind.Const:
		return "Choose one of the listed options."
	case *kind.MinItems:
		return fmt.Sprintf("Choose at least %d.", k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("Choose at most %d.", k.Want)
	case *kind.UniqueItems:
		return "Choose each option only once."
	case *kind.AnyOf, *kind.OneOf:
		return "Choose one of the listed options."
	}
	return "This value is not accepted."
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return fmt.Sprint(f)
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
			if !ok || n < 0 || n != float64(int(n)) {
				return fmt.Errorf("has a %s that is not a whole number of zero or more", k)
			}
		}
	}
	return nil
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
// the order they appear in its "properties" object.
func PropertyOrder(b []byte) []string {
	var order []string
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
