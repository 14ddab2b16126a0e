// Package e2e holds end-to-end benchmarks that drive the locksim binary as a
// user would: build it, run a shipped scenario, read its results. It has no
// library code.
package e2e
