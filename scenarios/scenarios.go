// Package scenarios holds locksim's shipped scenario catalogue, embedded so
// that a module outside this repository (locksimtest.Catalogue) reads the
// same files `locksim run scenarios/` runs.
package scenarios

import "embed"

// FS holds every shipped scenario file (*.yaml) at its root.
//
//go:embed *.yaml
var FS embed.FS
