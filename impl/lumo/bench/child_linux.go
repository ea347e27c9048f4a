//go:build linux

package bench

import (
	"os/exec"
	"syscall"
)

// dieWithBench has the kernel kill cmd when the bench process dies, even by SIGKILL, so a killed
// run never leaves a server holding its port and its scratch database.
func dieWithBench(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
