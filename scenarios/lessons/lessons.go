// Package lessons holds the course lessons' own words, one YAML file per
// lesson (42.yaml … 51.yaml): each lesson's goal, which of lesson 42's
// five requirements it bears on, a "predict before you look" question per
// broken/fixed pair, takeaways and caveats, in English and Vietnamese.
// Package internal/lesson parses them; a suite's lesson pages render them.
// The files are embedded in the binary, so a lesson page says the same
// wherever locksim runs; `locksim validate scenarios/lessons/` checks an
// edited file.
package lessons

import "embed"

// FS holds the lesson files, *.yaml at its root.
//
//go:embed *.yaml
var FS embed.FS
