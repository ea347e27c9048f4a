// Package longtest says whether a test runs its long cases: stress, property and randomised runs
// over large generated data, which CI runs in full and the README's quick test command leaves to
// CI. LUMO_LONG_TESTS=1 (set by .ci/run) runs them; without it a test runs a small representative
// case, or skips saying which variable runs it.
package longtest

import (
	"os"
	"testing"
)

// Env names the environment variable that turns the long cases on.
const Env = "LUMO_LONG_TESTS"

// On reports whether the long cases run: LUMO_LONG_TESTS is set to 1 (or true) and go test has no
// -short.
func On() bool {
	v := os.Getenv(Env)
	return (v == "1" || v == "true") && !testing.Short()
}

// Short reports whether a test should take its small case: without LUMO_LONG_TESTS=1, or with
// -short.
func Short() bool { return !On() }

// Skip skips t unless the long cases run, saying what it leaves out and how to run it.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !On() {
		t.Skipf("long case (%s): runs with %s=1, as .ci/run sets", what, Env)
	}
}
