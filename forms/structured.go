package forms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// CheckStructured validates a tool result's structuredContent against the
// outputSchema of the tool named tool (E31). It returns nil when they match
// or there is nothing to check, and otherwise what is wrong, for the person
// reading the result. Nothing the schema refers to is loaded. The check is
// bounded as budget.go says, and ends with ctx: a check given up or stopped
// says so, naming the tool.
func CheckStructured(ctx context.Context, tool string, outputSchema, structured any) *i18n.Message {
	warn := func(m i18n.Message) *i18n.Message { return &m }
	givenUp := func(why i18n.Message) *i18n.Message {
		return warn(i18n.M("forms.budget.output", "tool", tool, "why", why))
	}
	if outputSchema == nil {
		return nil
	}
	if structured == nil {
		return warn(i18n.M("forms.structured.missing"))
	}
	raw, err := json.Marshal(outputSchema)
	if err != nil {
		return warn(i18n.M("forms.structured.badSchema", "detail", err.Error()))
	}
	if len(raw) > maxToolSchemaBytes {
		return givenUp(i18n.M("forms.budget.schemaSize", "size", len(raw), "limit", maxToolSchemaBytes))
	}
	if jsonDepth(raw) > maxToolSchemaDepth {
		return givenUp(i18n.M("forms.budget.schemaDepth", "limit", maxToolSchemaDepth))
	}
	sch, err := compile(json.RawMessage(raw), compileOptions{lenientPatterns: true})
	if why, ok := whyNot(err); ok {
		return givenUp(why)
	}
	if errors.Is(err, errTooManyNodes) {
		return givenUp(i18n.M("forms.budget.tooMany", "limit", maxSchemaNodes))
	}
	if err != nil {
		return warn(i18n.M("forms.structured.badSchema", "detail", err.Error()))
	}
	if ctx.Err() != nil {
		return givenUp(i18n.M("forms.budget.stopped"))
	}
	v, err := toJSONValue(structured)
	if err != nil {
		return warn(i18n.M("forms.structured.notJSON", "detail", err.Error()))
	}
	err = sch.validate(ctx, v)
	if why, ok := whyNot(err); ok {
		return givenUp(why)
	}
	if err != nil && ctx.Err() != nil {
		return givenUp(i18n.M("forms.budget.stopped"))
	}
	if err != nil {
		detail, more := err.Error(), 0
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			detail, more = describeValidation(ve)
		}
		if more > 0 {
			return warn(i18n.M("forms.structured.mismatchMore", "detail", detail, "more", more))
		}
		return warn(i18n.M("forms.structured.mismatch", "detail", detail))
	}
	return nil
}

// maxDescribed bounds the problems a mismatch names: a large result can fail
// in every one of its rows, and a warning is read, not searched.
const maxDescribed = 10

// describeValidation flattens a validation error tree into "at /path:
// reason" lines, the first maxDescribed of them, and counts the others.
func describeValidation(ve *jsonschema.ValidationError) (detail string, more int) {
	var parts []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if len(parts) == maxDescribed {
				more++
				return
			}
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			parts = append(parts, fmt.Sprintf("at %s: %s", loc, e.ErrorKind.LocalizedString(english)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; "), more
}
