package connectapp

import (
	"strings"
	"testing"
)

// A long line is cut around the change; a cut that falls inside a secret,
// or between a secret's name and its value, shows no part of it.
func TestShow_CutsLongLinesWithoutShowingPartOfASecret(t *testing.T) {
	const secret = "s3cr3tV4lue0123456789abcdef"
	pad := strings.Repeat("y", 500)
	cases := []struct {
		name string
		line string
		// at: the change is at the first index of this text in line.
		at string
	}{
		{"the left cut inside the value", `{"p":"` + pad + `","TOKEN":"` + secret + strings.Repeat("z", 60) + `","q":1,"CHANGE":2,"r":"` + pad + `"}`, `"CHANGE"`},
		{"the left cut inside the name", `{"p":"` + pad + `","MY_API_KEY":"` + secret + `","q":1,"CHANGE":2,"r":"` + pad + `"}`, `"CHANGE"`},
		{"the right cut inside the value", `{"p":"` + pad + `","CHANGE":2,` + strings.Repeat(`"k":1,`, 10) + `"TOKEN":"` + strings.Repeat("z", 10) + secret + `","r":"` + pad + `"}`, `"CHANGE"`},
		{"a key of a well-known kind in a cut string", `{"p":"` + pad + `","note":"x sk-live-` + secret + strings.Repeat(" w", 30) + `","CHANGE":2,"r":"` + pad + `"}`, `"CHANGE"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			from := strings.Index(tc.line, tc.at)
			got := show(tc.line, blockStates([]string{tc.line})[0], from, from+len(tc.at))
			if !strings.Contains(got, tc.at) || len(got) > maxShownLine {
				t.Errorf("shows %q", got)
			}
			for i := 0; i+6 <= len(secret); i++ {
				if strings.Contains(got, secret[i:i+6]) {
					t.Fatalf("shows part of the secret: %q", got)
				}
			}
		})
	}
}
