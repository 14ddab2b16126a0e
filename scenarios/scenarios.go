// Package scenarios holds locksim's shipped scenario catalogue, embedded so
// that a module outside this repository (locksimtest.Catalogue) reads the
// same files `locksim run scenarios/` runs.
package scenarios

import "embed"

// FS holds every shipped scenario file: the catalogue (*.yaml) at its root
// and the field reports (field/*.yaml, issue 19).
//
//go:embed *.yaml field/*.yaml
var FS embed.FS
