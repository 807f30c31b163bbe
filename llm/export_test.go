package llm

import "time"

// SetSilenceLimit sets how long a provider's answer may send nothing, for
// one test, and returns what puts it back.
func SetSilenceLimit(d time.Duration) (restore func()) {
	old := silenceLimit
	silenceLimit = d
	return func() { silenceLimit = old }
}
