package forms

import "github.com/gatehouse-app/gatehouse/i18n"

// Form is a JSON Schema object as form fields, ready for the UI. Its slices
// are never nil, so the UI never sees null. Every string in it that came
// from a server must be shown as text, never as HTML (E16).
type Form struct {
	// Fields are the inputs, in the order the form shows them.
	Fields []Field `json:"fields"`
	// Complete is false when the form cannot express the schema at all;
	// then the UI offers only a JSON editor and Reason says why.
	Complete bool          `json:"complete"`
	Reason   *i18n.Message `json:"reason,omitempty"`
	// SecretFields names the fields that seem to ask for a secret (E17),
	// in form order, so that a warning can name them.
	SecretFields []string `json:"secretFields"`
}

// Field is one input of a Form. Limits are set only when the schema gives
// them; Hints says them in words, to be shown under the field before anyone
// types.
type Field struct {
	Name        string `json:"name"`
	Label       string `json:"label"` // the title, or the name when there is none
	Description string `json:"description"`
	Kind        Kind   `json:"kind"`
	Required    bool   `json:"required"`
	// Default is the schema's default (E12), as JSON values: absent when
	// there is none.
	Default   any            `json:"default,omitempty"`
	Minimum   *float64       `json:"minimum,omitempty"`
	Maximum   *float64       `json:"maximum,omitempty"`
	MinLength *int           `json:"minLength,omitempty"`
	MaxLength *int           `json:"maxLength,omitempty"`
	Pattern   string         `json:"pattern,omitempty"`
	MinItems  *int           `json:"minItems,omitempty"`
	MaxItems  *int           `json:"maxItems,omitempty"`
	Options   []Option       `json:"options"`
	Hints     []i18n.Message `json:"hints"`
	// Sensitive is true when the field seems to ask for a secret (E17).
	Sensitive bool `json:"sensitive"`
}

// Option is one choice of a select field: the value sent, and its label.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// newField starts a field with the slices the UI expects.
func newField(name string) Field {
	return Field{Name: name, Label: name, Options: []Option{}, Hints: []i18n.Message{}}
}

// newForm starts an empty form.
func newForm() Form {
	return Form{Fields: []Field{}, SecretFields: []string{}}
}
