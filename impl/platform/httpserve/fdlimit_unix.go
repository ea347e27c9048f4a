//go:build unix

package httpserve

import "syscall"

// openFileLimit is the process's soft limit of open files (Go raises it to the hard limit at
// start), or 0 when unknown.
func openFileLimit() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur > 1<<30 {
		return 0
	}
	return int(r.Cur)
}
