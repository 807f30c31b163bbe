package forms

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Schema is a parsed schema: the form to show, and the compiled validator
// that checks what comes back. It is not changed after parsing, so
// requests that ask the same may share one.
type Schema struct {
	Form Form

	// compiled is nil when a tool's schema could not be compiled: then
	// arguments go to the server unchecked (Form.Reason says so).
	compiled *checker
	// refused is set when a tool's schema is over the limits of budget.go:
	// then nothing passes, and this says why (Form.Reason says it too).
	refused *i18n.Message
	// tool names the tool whose input schema this is ("" for an
	// elicitation), for the sentences that say a check was given up.
	tool   string
	fields map[string]*Field
	// open is true when the schema welcomes properties beyond the fields.
	open bool
}

// index maps field names to fields; call it once Form.Fields is final.
func (s *Schema) index() {
	s.fields = make(map[string]*Field, len(s.Form.Fields))
	for i := range s.Form.Fields {
		f := &s.Form.Fields[i]
		s.fields[f.Name] = f
		if f.Sensitive {
			s.Form.SecretFields = append(s.Form.SecretFields, f.Name)
		}
	}
}

// Validate checks a form's values (E13, E15) and returns the content to
// send, or, per field, why it cannot be sent. Values are what the form's
// controls hold, typed by kind: a field left empty ("", an empty list, or
// null) is left out rather than sent empty, a JSON field's text is parsed,
// unknown fields are refused and required ones enforced. When errs is not
// empty, content is nil: nothing may be sent. The key "" holds a problem of
// the whole answer.
func (s *Schema) Validate(values map[string]any) (content map[string]any, errs map[string]i18n.Message) {
	content, errs, _ = s.ValidateContext(context.Background(), values)
	return content, errs
}

// ValidateContext is Validate under ctx: when ctx ends before the values
// are checked, it returns the cause of ctx, and no content.
func (s *Schema) ValidateContext(ctx context.Context, values map[string]any) (content map[string]any, errs map[string]i18n.Message, err error) {
	content, errs = s.collect(values, false)
	for i := range s.Form.Fields {
		f := &s.Form.Fields[i]
		if _, given := content[f.Name]; !given && f.Required {
			if _, has := errs[f.Name]; !has {
				errs[f.Name] = requiredMessage(f)
			}
		}
	}
	checked, err := s.check(ctx, content, false)
	if err != nil {
		return nil, errs, err
	}
	for k, m := range checked {
		if _, has := errs[k]; !has {
			errs[k] = m
		}
	}
	if len(errs) > 0 {
		return nil, errs, nil
	}
	return content, errs, nil
}

// Draft returns the arguments a form's values make, without judging them:
// empty fields left out, JSON fields parsed (their text kept when it is not
// JSON). The tools pane starts its JSON editor from it; what is sent is
// always checked first.
func (s *Schema) Draft(values map[string]any) map[string]any {
	content, _ := s.collect(values, true)
	return content
}

// Check judges finished arguments (a tool call written as JSON) as they
// are: nothing is left out or converted. It returns, per argument, why the
// arguments cannot be sent; empty means they can.
func (s *Schema) Check(args map[string]any) map[string]i18n.Message {
	errs, _ := s.CheckContext(context.Background(), args)
	return errs
}

// CheckContext is Check under ctx: when ctx ends before the arguments are
// checked, it returns the cause of ctx.
func (s *Schema) CheckContext(ctx context.Context, args map[string]any) (map[string]i18n.Message, error) {
	errs := map[string]i18n.Message{}
	if !s.open {
		for name := range args {
			if _, known := s.fields[name]; !known {
				errs[name] = i18n.M("forms.error.unknownField")
			}
		}
	}
	checked, err := s.check(ctx, args, false)
	if err != nil {
		return errs, err
	}
	for k, m := range checked {
		if _, has := errs[k]; !has {
			errs[k] = m
		}
	}
	return errs, nil
}

// collect turns form values into content: empty fields left out, values
// converted by kind. With keepBad, a value that does not convert is kept
// as entered instead of reported.
func (s *Schema) collect(values map[string]any, keepBad bool) (map[string]any, map[string]i18n.Message) {
	content := map[string]any{}
	errs := map[string]i18n.Message{}
	for name, v := range values {
		f, known := s.fields[name]
		if !known && !s.open {
			errs[name] = i18n.M("forms.error.unknownField")
			continue
		}
		if isEmpty(v) {
			continue // left empty: omitted, and flagged when required
		}
		if known {
			if convert := kinds[f.Kind].fromInput; convert != nil {
				converted, problem := convert(v)
				switch {
				case problem == nil:
					v = converted
				case !keepBad:
					errs[name] = *problem
					continue
				}
			}
			// A JSON field whose text is an empty value ("" or []) is as
			// empty as a blank one: left out, like every empty field. The
			// JSON tab sends such a value when it is meant (Check).
			if isEmpty(v) {
				continue
			}
		}
		content[name] = v
	}
	return content, errs
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(v) == ""
	case []any:
		return len(v) == 0
	}
	return false
}

// check runs the compiled schema and says, per field, what is wrong; a
// check given up for its work is a problem of the whole answer (key "").
// It returns an error only when ctx ended first. ignoreRequired is used to
// check defaults one at a time.
func (s *Schema) check(ctx context.Context, content map[string]any, ignoreRequired bool) (map[string]i18n.Message, error) {
	errs := map[string]i18n.Message{}
	if s.refused != nil {
		errs[""] = *s.refused
		return errs, nil
	}
	if s.compiled == nil {
		return errs, nil
	}
	doc, err := toJSONValue(content)
	if err != nil {
		errs[""] = i18n.M("forms.error.notAccepted", "detail", err.Error())
		return errs, nil
	}
	err = s.compiled.validate(ctx, doc)
	if why, ok := whyNot(err); ok {
		errs[""] = s.givenUp(why)
		return errs, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		if err != nil && ctx.Err() != nil {
			return errs, err
		}
		return errs, nil
	}
	set := func(field string, m i18n.Message) {
		if _, has := errs[field]; !has {
			errs[field] = m
		}
	}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
			// None of the alternatives fit: that is the problem to
			// report, not why each alternative failed.
		default:
			if len(e.Causes) > 0 {
				for _, c := range e.Causes {
					walk(c)
				}
				return
			}
		}
		loc := e.InstanceLocation
		if len(loc) == 0 {
			switch k := e.ErrorKind.(type) {
			case *kind.Required:
				if !ignoreRequired {
					for _, name := range k.Missing {
						set(name, requiredMessage(s.fields[name]))
					}
				}
			case *kind.AdditionalProperties:
				for _, name := range k.Properties {
					set(name, i18n.M("forms.error.unknownField"))
				}
			default:
				set("", sentence(nil, e.ErrorKind))
			}
			return
		}
		name := loc[0]
		f, known := s.fields[name]
		switch {
		case !known && !s.open:
			set(name, i18n.M("forms.error.unknownField"))
		case known && f.Kind != KindJSON:
			set(name, sentence(f, e.ErrorKind)) // a list's entries are the field's
		case len(loc) > 1:
			// Inside a value written as JSON: say where.
			set(name, i18n.M("forms.error.nested", "path", "/"+strings.Join(loc[1:], "/"), "problem", sentence(nil, e.ErrorKind)))
		default:
			set(name, sentence(nil, e.ErrorKind))
		}
	}
	walk(ve)
	return errs, nil
}

// givenUp says that a check of this schema was given up, and why.
func (s *Schema) givenUp(why i18n.Message) i18n.Message {
	if s.tool == "" {
		return why
	}
	return i18n.M("forms.budget.input", "tool", s.tool, "why", why)
}

// sentence explains a validation failure to a person. f is the field the
// value belongs to, or nil inside a JSON value or beyond the fields.
func sentence(f *Field, k jsonschema.ErrorKind) i18n.Message {
	switch k := k.(type) {
	case *kind.Type:
		if f != nil {
			if m := kinds[f.Kind].wrongType; m.Key != "" {
				return m
			}
		}
		return i18n.M("forms.error.type", "want", strings.Join(k.Want, " or "))
	case *kind.Required:
		return i18n.M("forms.error.missing", "names", strings.Join(k.Missing, ", "))
	case *kind.AdditionalProperties:
		return i18n.M("forms.error.extra", "names", strings.Join(k.Properties, ", "))
	case *kind.MinLength:
		if k.Want == 1 {
			return i18n.M("forms.error.length.minOne")
		}
		return i18n.M("forms.error.length.min", "min", k.Want)
	case *kind.MaxLength:
		if k.Want == 1 {
			return i18n.M("forms.error.length.maxOne")
		}
		return i18n.M("forms.error.length.max", "max", k.Want)
	case *kind.Pattern:
		return i18n.M("forms.error.pattern", "pattern", k.Want)
	case *kind.Format:
		return formatMessage(k.Want)
	case *kind.Minimum:
		return i18n.M("forms.error.min", "min", ratString(k.Want))
	case *kind.Maximum:
		return i18n.M("forms.error.max", "max", ratString(k.Want))
	case *kind.ExclusiveMinimum:
		return i18n.M("forms.error.exclusiveMin", "min", ratString(k.Want))
	case *kind.ExclusiveMaximum:
		return i18n.M("forms.error.exclusiveMax", "max", ratString(k.Want))
	case *kind.MultipleOf:
		return i18n.M("forms.error.multipleOf", "n", ratString(k.Want))
	case *kind.Enum, *kind.Const:
		return i18n.M("forms.error.choice")
	case *kind.AnyOf, *kind.OneOf:
		if f != nil {
			return i18n.M("forms.error.choice") // a choice among {const, title}
		}
		return i18n.M("forms.error.alternatives")
	case *kind.MinItems:
		return i18n.M("forms.error.items.min", "min", k.Want)
	case *kind.MaxItems:
		return i18n.M("forms.error.items.max", "max", k.Want)
	case *kind.UniqueItems:
		return i18n.M("forms.error.unique")
	}
	return i18n.M("forms.error.notAccepted", "detail", k.LocalizedString(english))
}

// english prints the validator's own wording, for failures Gatehouse has
// no sentence of its own for.
var english = message.NewPrinter(language.English)

// ratString writes a schema's number as people write it.
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return fmt.Sprint(f)
}
