// Package forms turns the JSON Schemas servers send into forms, and checks
// what people enter against them before anything is sent. It judges
// schemas and values only: package mcp decides when a form is asked
// (an elicitation, E6–E15) and sends the answer, package app shows a tool's
// form in the tools pane, and the window and the command line render a
// [Form].
//
// Two kinds of schema become forms. An elicitation's requestedSchema is
// parsed strictly ([ParseElicitation]): it must stay inside the flat subset
// the specification allows (E6–E11) and within the caps ([MaxProperties],
// ...), and anything else is refused with a [SchemaError] the server
// receives. A tool's inputSchema is parsed leniently ([ParseTool]): it
// never fails; what a form cannot express becomes a field of [KindJSON],
// edited as JSON, or, when the schema's root itself cannot be a form, an
// incomplete form whose Reason says why. [CheckStructured] checks a tool
// result's structuredContent against the tool's outputSchema (E31).
//
// Either way the result is a [Schema]: the [Form] the UI renders (each
// [Field] in the order the server wrote them, of a [Kind], marked Sensitive
// when it seems to ask for a secret, E17) and one compiled
// validator that checks a form's values ([Schema.Validate]) and finished
// arguments ([Schema.Check]). Every sentence for a person is an
// i18n.Message; a SchemaError's, which goes to the server, is English.
//
// # Rules
//
// A schema comes from a server, so nothing it names is trusted:
//
//   - Nothing is ever loaded from a schema's references: a $ref to a file
//     or a URL is refused, never read.
//   - Checking a value is bounded (budget.go): a schema that would unfold
//     into too many checks is refused before any value reaches it, and
//     every check has a step budget, a time limit and the caller's context.
//     A check given up lets nothing pass, and says why.
//
// # Concurrency
//
// A Schema is not changed after parsing, so requests that ask the same may
// share one, from any goroutine: the checks of one Schema take turns, and
// one waiting for its turn ends with its context ([Schema.CheckContext],
// [Schema.ValidateContext]). A check runs on the caller's goroutine and
// starts none. forms imports only package i18n of Gatehouse's packages.
package forms
