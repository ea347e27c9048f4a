package longtest

import "testing"

func TestOnFollowsTheVariable(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "no": false, "1": !testing.Short(), "true": !testing.Short()} {
		t.Setenv(Env, v)
		if On() != want || Short() == want {
			t.Errorf("%s=%q: On() = %v, Short() = %v; want On() %v", Env, v, On(), Short(), want)
		}
	}
}
