//go:build !linux

package bench

import "os/exec"

// dieWithBench is a no-op where the kernel has no parent-death signal.
func dieWithBench(*exec.Cmd) {}
