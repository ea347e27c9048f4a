package cadstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		dir, path string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b", "/a/b/c/d.ofx", true},
		{"/a/b", "/a/bc", false},
		{"/a/b", "/a", false},
		{"/a/b", "/a/b/../c", false},
		{"/a/b", "/x/..b", false},
		{"/a/b", "/a/b/..c", true},
	} {
		if got := within(tt.dir, filepath.Clean(tt.path)); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.dir, tt.path, got, tt.want)
		}
	}
}

// An installation registered before its folder was recorded bounds each connection by its own
// folder: a link to a statement elsewhere is refused.
func TestLinkOutsideWithoutRecordedRoot(t *testing.T) {
	s, dir := setup(t)
	importAll(t, s)
	if _, err := s.db.SQL().ExecContext(ctx, "UPDATE cad_installation SET root_path = NULL"); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx")
	if err := os.Symlink(target, filepath.Join(dir, "ofx", "aurora-marina", "novo.ofx")); err != nil {
		t.Fatal(err)
	}
	o := importAll(t, s)["aurora-marina"]
	if o.Status != StatusFailed || o.Error == nil || *o.Error.File != "novo.ofx" ||
		!strings.Contains(o.Error.Message, "o arquivo é um link simbólico para "+target+", fora da pasta da instalação") {
		t.Fatalf("outcome: %+v %v", o, o.Error)
	}
}
