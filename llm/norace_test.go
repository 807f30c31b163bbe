//go:build !race

package llm_test

// raceMemory is 1 without the race detector (see race_test.go).
const raceMemory = 1
