package forms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Checking a value against a server's schema is work the server chooses:
// a 1.3 KB schema whose $defs each refer twice to the next unfolds into 2^32
// checks (issue 22, item 3). jsonschema/v6 has no limit of its own, so every
// check goes through a checker, which bounds it twice over:
//
//   - Before a schema is used, its compiled graph is measured (measure): how
//     many checks it unfolds into when every reference is followed, and how
//     many references it chains at one place of a value. A schema over
//     either limit is refused outright; a value never gets to it.
//   - While a value is checked, every subschema the validator enters is
//     charged to a meter (see install): the step budget grows with the size
//     of the value, and there is a time limit and the caller's context. Once
//     the meter stops, the check is abandoned on the spot (see run): nothing
//     goes on running in the background, and Stop, Ctrl+C and SIGTERM end a
//     check.
//
// The first limit catches a fan-out at one place, which costs the same for
// any value; the second catches one that repeats at each level of a nested
// value (a recursive schema), which only the value unrolls, and anything
// the count above misjudges.
const (
	// maxExpansion bounds the checks a schema unfolds into, each subschema
	// weighed by its own keywords (weight): a check of a small value that
	// enters every subschema once stays within baseSteps. Real tool schemas
	// unfold into a few hundred.
	maxExpansion = baseSteps
	// maxRefChain bounds the references and combinators ($ref, allOf, ...)
	// the validator follows one after another at one place of a value. It
	// also bounds the validator's recursion (with maxValueDepth), whose
	// stack would otherwise grow with the schema.
	maxRefChain = 64
	// maxValueDepth bounds the nesting of a value that is checked.
	maxValueDepth = 256
	// baseSteps is the step budget of any check (about a quarter of a
	// second), and stepsPerValueNode what each object, array, string,
	// number, boolean or null of the value adds: an honest schema spends a
	// few steps on each, a few dozen on a number.
	baseSteps         = 1 << 19
	stepsPerValueNode = 128
	// maxCheckTime bounds a check that stays within its steps but is slow:
	// a very large result on a busy computer.
	maxCheckTime = 10 * time.Second
	// lookEvery is how many steps pass between looks at the clock and the
	// context.
	lookEvery = 1 << 12
	// numberSteps is what comparing or dividing a number costs: jsonschema/v6
	// reads it into a big.Rat each time (5–35 µs, where entering a subschema
	// takes about 0.5 µs).
	numberSteps = 32
	// textBytesPerStep is how many bytes of text one step of matching or
	// measuring covers, per instruction of the pattern's program.
	textBytesPerStep = 16
)

// workError says why Gatehouse will not check, or stopped checking: Why is
// a sentence for the person.
type workError struct{ why i18n.Message }

func (e *workError) Error() string { return e.why.In(i18n.English) }

// tooMuchWork makes a workError.
func tooMuchWork(why i18n.Message) error { return &workError{why} }

// whyNot returns the sentence of a workError in err's chain.
func whyNot(err error) (i18n.Message, bool) {
	var we *workError
	if errors.As(err, &we) {
		return we.why, true
	}
	return i18n.Message{}, false
}

// checker is a compiled server schema that can be checked against only
// within the limits above.
type checker struct {
	sch *jsonschema.Schema
	// turn lets one check at a time use the meters installed in sch; a
	// Schema may be shared by requests that ask the same.
	turn chan struct{}
	// meter is the meter of the check that holds turn.
	meter *meter
}

// newChecker measures a compiled schema and installs its meters. roots are
// the schema and every subschema the validator may enter without a reference
// to it (see compile); roots[0] is the schema. It refuses a schema over the
// limits with a workError, and one that leads outside the document (to a
// meta-schema jsonschema/v6 knows by heart) with errExternalRef: that part
// could not be metered.
func newChecker(roots []*jsonschema.Schema) (*checker, error) {
	sch := roots[0]
	g := graphOf(roots)
	if g.foreign != "" {
		return nil, fmt.Errorf("%w: %s", errExternalRef, g.foreign)
	}
	if err := g.measure(); err != nil {
		return nil, err
	}
	c := &checker{sch: sch, turn: make(chan struct{}, 1)}
	for _, s := range g.nodes {
		c.install(s)
	}
	return c, nil
}

// install makes the validator charge the meter on entering s. jsonschema/v6
// calls a subschema's format check on entering it, after only the cheap
// checks of type, const and enum (whose cost weight counts), so the meter
// wraps the format check, keeping the original one, if any, behind it. The
// Format value itself may be shared between compilers: it is replaced, not
// changed.
func (c *checker) install(s *jsonschema.Schema) {
	orig := s.Format
	w := weight(s)
	// Per byte of text: matching a pattern costs up to its program's size
	// (Go's matcher is linear in both); a format or a length, one.
	var textCost int64
	if orig != nil || s.Pattern != nil || s.MinLength != nil || s.MaxLength != nil {
		textCost = 1 + patternCost(s.Pattern)
	}
	var nameCost int64 // per byte of a property name, for patternProperties
	for re := range s.PatternProperties {
		nameCost += patternCost(re)
	}
	numeric := s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil ||
		s.MultipleOf != nil || (s.Types != nil && slices.Contains(s.Types.ToStrings(), "integer"))
	name := ""
	if orig != nil {
		name = orig.Name
	}
	s.Format = &jsonschema.Format{Name: name, Validate: func(v any) error {
		n := w
		switch v := v.(type) {
		case map[string]any:
			n += int64(len(v)) * int64(1+len(s.PatternProperties))
			if nameCost > 0 {
				var nameBytes int64
				for k := range v {
					nameBytes += int64(len(k))
				}
				n += nameBytes * nameCost / textBytesPerStep
			}
		case []any:
			n += int64(len(v))
			if s.UniqueItems {
				n += valueSize(v, baseSteps)
			}
		case string:
			n += int64(len(v)) * textCost / textBytesPerStep
		case json.Number:
			if numeric {
				n += numberSteps
			}
		}
		if c.meter.charge(n) != nil {
			panic(stopCheck{})
		}
		if orig != nil {
			return orig.Validate(v)
		}
		return nil
	}}
}

// validate checks v, a value as jsonschema.UnmarshalJSON reads it. It
// returns nil, a *jsonschema.ValidationError, a workError when the check
// was given up, or the cause of ctx when ctx ended first.
func (c *checker) validate(ctx context.Context, v any) error {
	_, err := c.measured(ctx, v)
	return err
}

// measured is validate, also returning the steps the check spent.
func (c *checker) measured(ctx context.Context, v any) (steps int64, err error) {
	nodes, deep := valueShape(v)
	if deep {
		return 0, tooMuchWork(i18n.M("forms.budget.depth", "limit", maxValueDepth))
	}
	select {
	case c.turn <- struct{}{}:
	case <-ctx.Done():
		return 0, context.Cause(ctx)
	}
	defer func() { <-c.turn }()
	m := &meter{ctx: ctx, limit: baseSteps + nodes*stepsPerValueNode, deadline: time.Now().Add(maxCheckTime)}
	c.meter = m
	err = c.run(v)
	c.meter = nil
	if m.err != nil {
		return m.spent, m.err
	}
	return m.spent, err
}

// stopCheck is what a meter panics with to abandon a check.
type stopCheck struct{}

// run validates v, and returns nil when the meter abandoned the check.
// Returning an error from the format check would not be enough: the
// validator would go on through every remaining item and property of the
// value, failing each at once, which for a large value takes seconds. So the
// meter panics out of it instead. jsonschema/v6's validator holds no lock,
// defers nothing and keeps no state beyond the call, so nothing is left
// half done; any other panic goes on.
func (c *checker) run(v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopCheck); !ok {
				panic(r)
			}
			err = nil
		}
	}()
	return c.sch.Validate(v)
}

// meter counts the steps of one check.
type meter struct {
	ctx      context.Context
	limit    int64
	spent    int64
	nextLook int64
	deadline time.Time
	// err is why the check was given up; once set, every step fails.
	err error
}

// charge spends n steps, and says whether the check must stop.
func (m *meter) charge(n int64) error {
	if m.err != nil {
		return m.err
	}
	m.spent += n
	switch {
	case m.spent > m.limit:
		m.err = tooMuchWork(i18n.M("forms.budget.steps", "steps", m.limit))
	case m.spent >= m.nextLook:
		m.nextLook = m.spent + lookEvery
		if m.ctx.Err() != nil {
			m.err = context.Cause(m.ctx)
		} else if time.Now().After(m.deadline) {
			m.err = tooMuchWork(i18n.M("forms.budget.time", "duration", i18n.Duration(maxCheckTime)))
		}
	}
	return m.err
}

// weight is what entering s costs, apart from the value's size: one step,
// one per subschema it may enter (each may fail at once, before its own
// meter), and one per name, choice or constant it compares.
func weight(s *jsonschema.Schema) int64 {
	w := int64(1 + len(s.Required) + len(s.Properties) + len(s.PatternProperties) + len(s.DependentRequired))
	eachSubschema(s, func(*jsonschema.Schema, bool) { w++ })
	if s.Const != nil {
		w += valueSize(*s.Const, maxExpansion)
	}
	if s.Enum != nil {
		for _, v := range s.Enum.Values {
			w += valueSize(v, maxExpansion)
		}
	}
	return w
}

// valueSize counts the steps of comparing or hashing a value, up to limit:
// one a node, numberSteps a number.
func valueSize(v any, limit int64) int64 {
	n := int64(0)
	var walk func(v any)
	walk = func(v any) {
		n++
		switch v := v.(type) {
		case json.Number, float64:
			n += numberSteps - 1
		case map[string]any:
			for _, e := range v {
				if n > limit {
					return
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				if n > limit {
					return
				}
				walk(e)
			}
		}
	}
	walk(v)
	return n
}

// patternCost is the size of a pattern's program: the most work Go's
// matcher does for each byte of text.
func patternCost(re jsonschema.Regexp) int64 {
	if p, ok := re.(*pattern); ok {
		return p.cost
	}
	if re == nil {
		return 0
	}
	return 1
}

// pattern is a compiled pattern with its cost (patternCost).
type pattern struct {
	*regexp.Regexp
	cost int64
}

// newPattern compiles a pattern with Go's regexp (RE2: linear time, no
// backtracking) and measures its program.
func newPattern(s string) (*pattern, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, err
	}
	cost := int64(1)
	if parsed, err := syntax.Parse(s, syntax.Perl); err == nil {
		if prog, err := syntax.Compile(parsed.Simplify()); err == nil {
			cost = int64(len(prog.Inst))
		}
	}
	return &pattern{Regexp: re, cost: cost}, nil
}

// valueShape counts the nodes of a value and reports whether it is nested
// deeper than maxValueDepth.
func valueShape(v any) (nodes int64, deep bool) {
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		nodes++
		if depth > maxValueDepth {
			deep = true
			return
		}
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				if walk(e, depth+1); deep {
					return
				}
			}
		case []any:
			for _, e := range v {
				if walk(e, depth+1); deep {
					return
				}
			}
		}
	}
	walk(v, 0)
	return nodes, deep
}

// eachSubschema calls f with each subschema s may make the validator enter,
// and whether the validator enters it at the same place of the value
// (inPlace: $ref, allOf, not, ...) or at a property or item.
func eachSubschema(s *jsonschema.Schema, f func(sub *jsonschema.Schema, inPlace bool)) {
	one := func(sub *jsonschema.Schema, inPlace bool) {
		if sub != nil {
			f(sub, inPlace)
		}
	}
	anySchema := func(v any, inPlace bool) {
		switch v := v.(type) {
		case *jsonschema.Schema:
			one(v, inPlace)
		case []*jsonschema.Schema:
			for _, sub := range v {
				one(sub, inPlace)
			}
		}
	}
	// At the same place.
	one(s.Ref, true)
	one(s.RecursiveRef, true)
	if s.DynamicRef != nil {
		one(s.DynamicRef.Ref, true)
	}
	one(s.Not, true)
	one(s.If, true)
	one(s.Then, true)
	one(s.Else, true)
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range list {
			one(sub, true)
		}
	}
	for _, sub := range s.DependentSchemas {
		one(sub, true)
	}
	for _, dep := range s.Dependencies {
		anySchema(dep, true)
	}
	// At a property or an item.
	for _, sub := range s.Properties {
		one(sub, false)
	}
	for _, sub := range s.PatternProperties {
		one(sub, false)
	}
	anySchema(s.AdditionalProperties, false)
	one(s.PropertyNames, false)
	one(s.UnevaluatedProperties, false)
	anySchema(s.Items, false)
	anySchema(s.AdditionalItems, false)
	for _, sub := range s.PrefixItems {
		one(sub, false)
	}
	one(s.Items2020, false)
	one(s.Contains, false)
	one(s.UnevaluatedItems, false)
	one(s.ContentSchema, false)
}

// graph is the subschemas a compiled schema can make the validator enter.
type graph struct {
	roots []*jsonschema.Schema
	nodes []*jsonschema.Schema
	// foreign is the location of a subschema from another document, if any.
	foreign string
	// dynamic lists, by anchor name, the subschemas a $dynamicRef or
	// $recursiveRef may resolve to at run time (the validator picks among
	// them by the path it took): the measure follows all of them.
	dynamic   map[string][]*jsonschema.Schema
	recursive []*jsonschema.Schema
}

// graphOf collects the subschemas reachable from roots.
func graphOf(roots []*jsonschema.Schema) *graph {
	g := &graph{roots: roots, dynamic: map[string][]*jsonschema.Schema{}}
	seen := map[*jsonschema.Schema]bool{}
	var stack []*jsonschema.Schema
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			stack = append(stack, r)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		g.nodes = append(g.nodes, s)
		if g.foreign == "" && s.Location != schemaURL && !strings.HasPrefix(s.Location, schemaURL+"#") {
			g.foreign = s.Location
		}
		if s.DynamicAnchor != "" {
			g.dynamic[s.DynamicAnchor] = append(g.dynamic[s.DynamicAnchor], s)
		}
		if s.RecursiveAnchor {
			g.recursive = append(g.recursive, s)
		}
		eachSubschema(s, func(sub *jsonschema.Schema, _ bool) {
			if !seen[sub] {
				seen[sub] = true
				stack = append(stack, sub)
			}
		})
	}
	return g
}

// edges calls f with the subschemas the validator may enter from s,
// including every target a dynamic reference may resolve to.
func (g *graph) edges(s *jsonschema.Schema, f func(sub *jsonschema.Schema, inPlace bool)) {
	eachSubschema(s, f)
	if s.DynamicRef != nil && s.DynamicRef.Anchor != "" {
		for _, t := range g.dynamic[s.DynamicRef.Anchor] {
			f(t, true)
		}
	}
	if s.RecursiveRef != nil {
		for _, t := range g.recursive {
			f(t, true)
		}
	}
}

// measure refuses a schema that unfolds into more than maxExpansion checks,
// chains more than maxRefChain references at one place, or has references
// at one place that lead back to themselves (which jsonschema/v6 stops at
// run time, but only after unfolding everything on the way).
//
// The unfolded size of a subschema is its weight plus that of everything it
// may enter, counted again for each way in (memoised, and saturating at the
// limit); a way back to a subschema being unfolded is recursion, which a
// value unrolls one level at a time, and is counted once here and metered
// while checking. The chain of a subschema is the longest run of same-place
// entries from it.
func (g *graph) measure() error {
	const (
		unseen = iota
		open
		done
	)
	state := map[*jsonschema.Schema]int{}
	size := map[*jsonschema.Schema]int64{}
	var unfold func(s *jsonschema.Schema) int64
	unfold = func(s *jsonschema.Schema) int64 {
		switch state[s] {
		case open:
			return 1
		case done:
			return size[s]
		}
		state[s] = open
		n := weight(s)
		g.edges(s, func(sub *jsonschema.Schema, _ bool) {
			if n <= maxExpansion {
				n += unfold(sub)
			}
		})
		n = min(n, maxExpansion+1)
		state[s], size[s] = done, n
		return n
	}
	var total int64
	for _, r := range g.roots {
		if total += unfold(r); total > maxExpansion {
			return tooMuchWork(i18n.M("forms.budget.expansion", "limit", maxExpansion))
		}
	}

	clear(state)
	chain := map[*jsonschema.Schema]int{}
	var loop bool
	var follow func(s *jsonschema.Schema) int
	follow = func(s *jsonschema.Schema) int {
		switch state[s] {
		case open:
			loop = true
			return 0
		case done:
			return chain[s]
		}
		state[s] = open
		longest := 0
		g.edges(s, func(sub *jsonschema.Schema, inPlace bool) {
			if inPlace && !loop && longest <= maxRefChain {
				longest = max(longest, 1+follow(sub))
			}
		})
		state[s], chain[s] = done, longest
		return longest
	}
	for _, s := range g.nodes {
		if follow(s) > maxRefChain {
			return tooMuchWork(i18n.M("forms.budget.chain", "limit", maxRefChain))
		}
		if loop {
			return tooMuchWork(i18n.M("forms.budget.loop"))
		}
	}
	return nil
}
