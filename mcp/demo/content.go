package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The demo's resources and prompts, to try reading, templates, completion
// and subscriptions: the read-me (text), a logo (a PNG image), a note of the
// last message echo sent back (subscribe to see it change), a forecast
// template (JSON) and the weekend_plan prompt.

const (
	logoURI          = "gatehouse-demo://logo.png"
	noteURI          = "gatehouse-demo://note"
	forecastTemplate = "gatehouse-demo://forecast/{city}"
)

// demoCities are the cities the forecast template and the prompt suggest.
var demoCities = []string{"Amsterdam", "Beijing", "Berlin", "Lisbon", "Oslo", "Paris", "Rome", "Shanghai", "Tokyo"}

// note is the note resource's text, shared by every session of the server:
// the last message echo sent back.
type note struct {
	mu   sync.Mutex
	text string
}

func (n *note) get() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.text
}

func (n *note) set(text string) {
	n.mu.Lock()
	n.text = text
	n.mu.Unlock()
}

// serverOptions are the demo server's options: completion and
// subscriptions are offered.
func serverOptions() *sdk.ServerOptions {
	return &sdk.ServerOptions{
		CompletionHandler:  complete,
		SubscribeHandler:   func(context.Context, *sdk.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *sdk.UnsubscribeRequest) error { return nil },
	}
}

// addContent registers the resources, the template, the prompt and the
// note the echo tool keeps.
func addContent(s *sdk.Server, n *note) {
	s.AddResource(&sdk.Resource{URI: readmeURI, Name: "readme", Title: "Demo server read-me", MIMEType: "text/markdown"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: readmeURI, MIMEType: "text/markdown", Text: readme}}}, nil
		})
	logo := logoPNG()
	size := int64(len(logo))
	s.AddResource(&sdk.Resource{URI: logoURI, Name: "logo", Title: "Demo logo", MIMEType: "image/png", Size: size},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: logoURI, MIMEType: "image/png", Blob: logo}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: noteURI, Name: "note", Title: "The last message echoed", MIMEType: "text/plain",
		Description: "Subscribe to it, then call echo: the host hears that it changed."},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: noteURI, MIMEType: "text/plain", Text: n.get()}}}, nil
		})

	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: forecastTemplate, Name: "forecast", Title: "Forecast of a city (made up)",
		Description: "An invented three-day forecast as JSON.", MIMEType: "application/json"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			city := strings.TrimPrefix(req.Params.URI, strings.TrimSuffix(forecastTemplate, "{city}"))
			if city == "" || strings.ContainsAny(city, "/?#") {
				return nil, sdk.ResourceNotFoundError(req.Params.URI)
			}
			b, err := json.Marshal(forecast(ForecastArgs{City: city, Days: 3}))
			if err != nil {
				return nil, err
			}
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
		})

	s.AddPrompt(&sdk.Prompt{Name: "weekend_plan", Title: "Plan a weekend",
		Description: "Asks the model to plan a weekend in a city, with the city's forecast attached.",
		Arguments: []*sdk.PromptArgument{
			{Name: "city", Title: "City", Description: "Where to spend the weekend", Required: true},
			{Name: "pace", Title: "Pace", Description: "relaxed or busy (default relaxed)"},
		}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			city, pace := req.Params.Arguments["city"], req.Params.Arguments["pace"]
			if city == "" {
				return nil, fmt.Errorf("the city is required")
			}
			if pace == "" {
				pace = "relaxed"
			}
			b, _ := json.Marshal(forecast(ForecastArgs{City: city, Days: 3}))
			uri := strings.TrimSuffix(forecastTemplate, "{city}") + city
			return &sdk.GetPromptResult{Description: "A " + pace + " weekend in " + city, Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: fmt.Sprintf("Plan a %s weekend in %s for me. Here is the forecast:", pace, city)}},
				{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}},
			}}, nil
		})
}

// complete suggests cities for the template and the prompt, and a pace.
func complete(_ context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	p := req.Params
	var options []string
	switch {
	case p.Ref.Type == "ref/resource" && p.Ref.URI == forecastTemplate && p.Argument.Name == "city",
		p.Ref.Type == "ref/prompt" && p.Ref.Name == "weekend_plan" && p.Argument.Name == "city":
		options = demoCities
	case p.Ref.Type == "ref/prompt" && p.Ref.Name == "weekend_plan" && p.Argument.Name == "pace":
		options = []string{"relaxed", "busy"}
	}
	values := []string{}
	for _, o := range options {
		if strings.HasPrefix(strings.ToLower(o), strings.ToLower(p.Argument.Value)) {
			values = append(values, o)
		}
	}
	return &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}

// forecast invents a forecast: the same city always gets the same one.
func forecast(in ForecastArgs) Forecast {
	days := in.Days
	if days <= 0 {
		days = 3
	}
	conditions := []string{"sunny", "cloudy", "light rain", "windy", "snow"}
	f := Forecast{City: in.City}
	seed := len(in.City)
	for d := 1; d <= days; d++ {
		low := (seed*7+d*3)%15 - 2
		f.Days = append(f.Days, ForecastDay{Day: d, Conditions: conditions[(seed+d)%len(conditions)], LowCelsius: low, HighCelsius: low + 4 + d%4})
	}
	return f
}

// logoPNG draws the demo's logo: a small gate in the app's blue.
func logoPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	blue := color.RGBA{R: 0x25, G: 0x63, B: 0xeb, A: 0xff}
	for y := range 32 {
		for x := range 32 {
			gate := (x < 6 || x > 25 || y < 6) && !slices.Contains([]int{0, 31}, y)
			if gate {
				img.Set(x, y, blue)
			}
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img) // writing to memory does not fail
	return b.Bytes()
}
