package forms

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// A Kind is how a field is entered and what its value is. The Go side of
// each kind is its row in kinds below; the UI side is its branch in
// frontend/src/components/consent/FormField.svelte. Adding a kind touches those two.
type Kind string

// The field kinds.
const (
	KindText         Kind = "text"
	KindEmail        Kind = "email"
	KindURI          Kind = "uri"
	KindDate         Kind = "date"
	KindDateTime     Kind = "date-time"
	KindNumber       Kind = "number"
	KindInteger      Kind = "integer"
	KindBoolean      Kind = "boolean"
	KindSingleSelect Kind = "single-select"
	KindMultiSelect  Kind = "multi-select"
	// KindJSON is a value a form cannot express (a nested object, a free
	// list, ...), entered as JSON text. Only tool forms have it.
	KindJSON Kind = "json"
)

// kindSpec is what Go knows about one kind.
type kindSpec struct {
	// format selects a string kind by the schema's "format" ("" for none).
	format string
	// elicitation is true for kinds an elicitation may ask for (E7–E11).
	elicitation bool
	// hint is written under every field of the kind; the zero Message for none.
	hint i18n.Message
	// wrongType answers a value of another JSON type; the zero Message
	// means the generic sentence naming the wanted type.
	wrongType i18n.Message
	// badFormat answers a string that does not have the kind's format.
	badFormat i18n.Message
	// unanswered answers a required field left without a value; the zero
	// Message means the generic "This field is required.". A switch has its
	// own: one nobody touched shows "not answered" and sends nothing, and
	// "required" alone would not say that it wants on or off.
	unanswered i18n.Message
	// fromInput turns what the control holds into the value to send, or
	// says why it cannot; nil sends the value as it is.
	fromInput func(v any) (any, *i18n.Message)
}

var kinds = map[Kind]kindSpec{
	KindText: {elicitation: true, wrongType: i18n.M("forms.error.text")},
	KindEmail: {format: "email", elicitation: true, wrongType: i18n.M("forms.error.text"),
		hint: i18n.M("forms.hint.email"), badFormat: i18n.M("forms.error.email")},
	KindURI: {format: "uri", elicitation: true, wrongType: i18n.M("forms.error.text"),
		hint: i18n.M("forms.hint.uri"), badFormat: i18n.M("forms.error.uri")},
	KindDate: {format: "date", elicitation: true, wrongType: i18n.M("forms.error.text"),
		hint: i18n.M("forms.hint.date"), badFormat: i18n.M("forms.error.date")},
	KindDateTime: {format: "date-time", elicitation: true, wrongType: i18n.M("forms.error.text"),
		hint: i18n.M("forms.hint.dateTime"), badFormat: i18n.M("forms.error.dateTime")},
	KindNumber:       {elicitation: true, wrongType: i18n.M("forms.error.number")},
	KindInteger:      {elicitation: true, wrongType: i18n.M("forms.error.integer"), hint: i18n.M("forms.hint.integer")},
	KindBoolean:      {elicitation: true, wrongType: i18n.M("forms.error.boolean"), unanswered: i18n.M("forms.error.required.boolean")},
	KindSingleSelect: {elicitation: true, wrongType: i18n.M("forms.error.choice")},
	KindMultiSelect:  {elicitation: true, wrongType: i18n.M("forms.error.choices")},
	KindJSON:         {hint: i18n.M("forms.hint.json"), fromInput: parseJSONText},
}

// stringKind returns the kind of a string property with the given format:
// a kind of its own when one has that format, text otherwise. ok is false
// when the format has no kind.
func stringKind(format string) (k Kind, ok bool) {
	if format == "" {
		return KindText, true
	}
	for k, spec := range kinds {
		if spec.format == format {
			return k, true
		}
	}
	return KindText, false
}

// elicitationFormats lists, in words, the formats an elicitation may use.
func elicitationFormats() string {
	var list []string
	for _, spec := range kinds {
		if spec.format != "" && spec.elicitation {
			list = append(list, spec.format)
		}
	}
	slices.Sort(list)
	if len(list) < 2 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}

// formatMessage answers a string without the named format.
func formatMessage(format string) i18n.Message {
	for _, spec := range kinds {
		if spec.format == format && spec.badFormat.Key != "" {
			return spec.badFormat
		}
	}
	return i18n.M("forms.error.format", "format", format)
}

// requiredMessage answers a required field left without a value.
func requiredMessage(f *Field) i18n.Message {
	if f != nil {
		if m := kinds[f.Kind].unanswered; m.Key != "" {
			return m
		}
	}
	return i18n.M("forms.error.required")
}

// parseJSONText reads a JSON field: the text a person wrote, as JSON.
func parseJSONText(v any) (any, *i18n.Message) {
	text, ok := v.(string)
	if !ok {
		return v, nil // already a value (a default, or arguments built elsewhere)
	}
	var out any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		m := i18n.M("forms.error.json", "detail", err.Error())
		return nil, &m
	}
	return out, nil
}

// fieldHints says a field's kind and limits in words.
func fieldHints(f *Field) []i18n.Message {
	hints := []i18n.Message{}
	if h := kinds[f.Kind].hint; h.Key != "" {
		hints = append(hints, h)
	}
	minLen, maxLen := f.MinLength, f.MaxLength
	if minLen != nil && *minLen == 0 {
		minLen = nil // "at least 0 characters" says nothing
	}
	switch {
	case minLen != nil && maxLen != nil && *minLen == *maxLen && *minLen == 1:
		hints = append(hints, i18n.M("forms.hint.length.exactlyOne"))
	case minLen != nil && maxLen != nil && *minLen == *maxLen:
		hints = append(hints, i18n.M("forms.hint.length.exactly", "n", *minLen))
	case minLen != nil && maxLen != nil:
		hints = append(hints, i18n.M("forms.hint.length.range", "min", *minLen, "max", *maxLen))
	case minLen != nil && *minLen == 1:
		hints = append(hints, i18n.M("forms.hint.length.minOne"))
	case minLen != nil:
		hints = append(hints, i18n.M("forms.hint.length.min", "min", *minLen))
	case maxLen != nil && *maxLen == 1:
		hints = append(hints, i18n.M("forms.hint.length.maxOne"))
	case maxLen != nil:
		hints = append(hints, i18n.M("forms.hint.length.max", "max", *maxLen))
	}
	if f.Pattern != "" {
		hints = append(hints, i18n.M("forms.hint.pattern", "pattern", f.Pattern))
	}
	switch {
	case f.Minimum != nil && f.Maximum != nil:
		hints = append(hints, i18n.M("forms.hint.range", "min", *f.Minimum, "max", *f.Maximum))
	case f.Minimum != nil:
		hints = append(hints, i18n.M("forms.hint.min", "min", *f.Minimum))
	case f.Maximum != nil:
		hints = append(hints, i18n.M("forms.hint.max", "max", *f.Maximum))
	}
	minItems, maxItems := f.MinItems, f.MaxItems
	if minItems != nil && *minItems == 0 {
		minItems = nil
	}
	switch {
	case minItems != nil && maxItems != nil && *minItems == *maxItems:
		hints = append(hints, i18n.M("forms.hint.items.exactly", "n", *minItems))
	case minItems != nil && maxItems != nil:
		hints = append(hints, i18n.M("forms.hint.items.range", "min", *minItems, "max", *maxItems))
	case minItems != nil:
		hints = append(hints, i18n.M("forms.hint.items.min", "min", *minItems))
	case maxItems != nil:
		hints = append(hints, i18n.M("forms.hint.items.max", "max", *maxItems))
	}
	return hints
}
