package workspace

import "github.com/lumo-caderninho/mcp/impl/platform/yamldoc"

// Error is one problem in a workspace file: File is the path in the workspace's file system,
// Line counts from 1 (0 when unknown), Field names the YAML field (tables[0].columns[2].type) or
// the CSV column, and Message says, in Portuguese, what to fix.
type Error = yamldoc.Error

// Errors is every problem found while loading a workspace, in file order and by line within a
// file. Load returns it (never empty) as its error.
type Errors = yamldoc.Errors

// collector gathers errors, keeping files in the order they were first reported and each
// file's errors ordered by line.
type collector struct{ errs Errors }

func (c *collector) add(errs ...*Error) {
	c.errs = append(c.errs, errs...)
	c.errs.Sort()
}

func (c *collector) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}
