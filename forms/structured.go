package forms

import (
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// CheckStructured validates a tool result's structuredContent against the
// tool's outputSchema (E31). It returns nil when they match or there is
// nothing to check, and otherwise what is wrong, for the person reading the
// result. Nothing the schema refers to is loaded.
func CheckStructured(outputSchema, structured any) *i18n.Message {
	warn := func(m i18n.Message) *i18n.Message { return &m }
	if outputSchema == nil {
		return nil
	}
	if structured == nil {
		return warn(i18n.M("forms.structured.missing"))
	}
	sch, err := compile(outputSchema, compileOptions{lenientPatterns: true})
	if err != nil {
		return warn(i18n.M("forms.structured.badSchema", "detail", err.Error()))
	}
	v, err := toJSONValue(structured)
	if err != nil {
		return warn(i18n.M("forms.structured.notJSON", "detail", err.Error()))
	}
	if err := sch.Validate(v); err != nil {
		detail := err.Error()
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			detail = describeValidation(ve)
		}
		return warn(i18n.M("forms.structured.mismatch", "detail", detail))
	}
	return nil
}

// describeValidation flattens a validation error tree into "at /path: reason" lines.
func describeValidation(ve *jsonschema.ValidationError) string {
	var parts []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			parts = append(parts, fmt.Sprintf("at %s: %s", loc, e.ErrorKind.LocalizedString(english)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; ")
}
