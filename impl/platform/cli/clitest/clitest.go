// Package clitest checks a built command line the way a new user meets it: every help asked for
// exits 0 with a usage, an example and no English of Go's flag package; every mistake exits 2
// naming the nearest right spelling.
package clitest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// FlagEnglish are texts of Go's flag package that must never reach a user.
var FlagEnglish = []string{"Usage of", "(default", "flag provided", "invalid value", "help requested",
	"needs an argument", "bad flag syntax", "parse error", "value out of range", "invalid boolean", "Usage:"}

// Run runs bin with args, with env added to the environment, and returns what it wrote and its
// exit status.
func Run(t *testing.T, bin string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return out.String(), errOut.String(), code
}

// Helps checks that each command line of helps (a space-separated line) prints its help on
// stdout and exits 0: a usage ("Uso"), an example ("Exemplo"), nothing on stderr, no English.
func Helps(t *testing.T, bin string, env []string, helps []string) {
	t.Helper()
	for _, line := range helps {
		out, errOut, code := Run(t, bin, env, strings.Fields(line)...)
		if code != 0 || errOut != "" || !strings.Contains(out, "Uso") || !strings.Contains(out, "Exemplo") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", line, code, errOut, out)
		}
		noEnglish(t, line, out+errOut)
	}
}

// Mistakes checks that each command line exits 2 and says, on stderr, the text given.
func Mistakes(t *testing.T, bin string, env []string, mistakes map[string]string) {
	t.Helper()
	for line, want := range mistakes {
		out, errOut, code := Run(t, bin, env, strings.Fields(line)...)
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q (stdout %q)", line, code, errOut, want, out)
		}
		noEnglish(t, line, out+errOut)
	}
}

func noEnglish(t *testing.T, line, s string) {
	t.Helper()
	for _, e := range FlagEnglish {
		if strings.Contains(s, e) {
			t.Errorf("%q prints %q, English of Go's flag package:\n%s", line, e, s)
		}
	}
}
