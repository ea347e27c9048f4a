// Package impl holds the two products' wings and the platform both stand on.
package impl
