// Package genfs is a read-only file system whose large files are generated line by line while
// they are read, so benchmarks can import millions of rows in constant memory.
package genfs

import (
	"bufio"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing/fstest"
	"time"
)

// Lines yields a file's lines one by one (without the newline); ok is false after the last.
type Lines func() (line []byte, ok bool)

// FS serves Files, and generates the files named in Generated (a fresh generator per Open).
type FS struct {
	Files     fstest.MapFS
	Generated map[string]func() Lines
}

func (g FS) Open(name string) (fs.File, error) {
	if gen, ok := g.Generated[name]; ok {
		return &file{name: name, next: gen()}, nil
	}
	return g.Files.Open(name)
}

// WriteDir writes every file of g, the generated ones too, under dir.
func (g FS) WriteDir(dir string) error {
	if err := os.CopyFS(dir, g.Files); err != nil {
		return err
	}
	for name := range g.Generated {
		if err := g.writeFile(dir, name); err != nil {
			return err
		}
	}
	return nil
}

func (g FS) writeFile(dir, name string) error {
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	next := g.Generated[name]()
	for line, ok := next(); ok; line, ok = next() {
		w.Write(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

type file struct {
	name string
	next Lines
	buf  []byte
	done bool
}

func (f *file) Read(p []byte) (int, error) {
	for len(f.buf) < len(p) && !f.done {
		line, ok := f.next()
		if !ok {
			f.done = true
			break
		}
		f.buf = append(f.buf, line...)
		f.buf = append(f.buf, '\n')
	}
	if len(f.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

func (f *file) Stat() (fs.FileInfo, error) { return info(f.name), nil }
func (f *file) Close() error               { return nil }

type info string

func (i info) Name() string       { return string(i) }
func (i info) Size() int64        { return 0 }
func (i info) Mode() fs.FileMode  { return 0o444 }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return false }
func (i info) Sys() any           { return nil }
