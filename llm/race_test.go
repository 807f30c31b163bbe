//go:build race

package llm_test

// raceMemory is how many times more memory a process of this test binary
// takes under the race detector, whose shadow memory counts in its
// resident set.
const raceMemory = 3
