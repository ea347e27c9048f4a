package workspace

import (
	"sort"
	"strconv"
	"strings"
)

// Error is one problem in the workspace files, told to the operator: File is the path in the
// workspace's file system, Line counts from 1 (0 when unknown), Field names the YAML field
// (tables[0].columns[2].type) or the CSV column, and Message says, in Portuguese, what to fix.
type Error struct {
	File    string
	Line    int
	Field   string
	Message string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Errors is every problem found while loading a workspace, in file order and by line within a
// file. Load returns it (never empty) as its error.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// collector gathers errors, keeping files in the order they were first reported and each
// file's errors ordered by line.
type collector struct {
	errs  Errors
	files map[string]int
}

func (c *collector) add(errs ...*Error) {
	if c.files == nil {
		c.files = map[string]int{}
	}
	for _, e := range errs {
		if _, ok := c.files[e.File]; !ok {
			c.files[e.File] = len(c.files)
		}
	}
	c.errs = append(c.errs, errs...)
	sort.SliceStable(c.errs, func(i, j int) bool {
		a, b := c.errs[i], c.errs[j]
		if fa, fb := c.files[a.File], c.files[b.File]; fa != fb {
			return fa < fb
		}
		return a.Line < b.Line
	})
}

func (c *collector) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}
