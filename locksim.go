// Package locksim builds a locksim binary of your own, with your lock
// algorithms registered beside locksim's: the pattern of k6 extensions and
// Caddy modules. Ten lines of main.go:
//
//	package main
//
//	import (
//		"os"
//
//		"github.com/locksim/locksim"
//		"github.com/locksim/locksim/lock"
//	)
//
//	func main() {
//		os.Exit(locksim.Main(locksim.WithLocker("my-lock", NewMyLock, lock.Traits{SingleNode: true})))
//	}
//
// after which a scenario's `algorithm: my-lock` works like a built-in one,
// and `locksim list` shows it. The lock interface is package lock; package
// locksimtest guards a lock with `go test`.
package locksim

import (
	"fmt"
	"io"
	"os"

	"github.com/locksim/locksim/internal/cli"
	_ "github.com/locksim/locksim/internal/clients" // locksim's own algorithms, registered first
	"github.com/locksim/locksim/lock"
)

// Option configures Main.
type Option func(*config)

type config struct {
	algorithms []lock.Algorithm
	args       []string
	argsSet    bool
	stdout     io.Writer
	stderr     io.Writer
}

// WithLocker registers a lock algorithm under name with its constructor and
// traits (lock.Register), as if it were built in. About defaults to
// "<name> (registered by this binary)".
func WithLocker(name string, newLocker func(lock.Config) (lock.Locker, error), traits lock.Traits) Option {
	return WithAlgorithm(lock.Algorithm{Name: name, New: newLocker, Traits: traits})
}

// WithAlgorithm registers a whole lock.Algorithm (with its own About).
func WithAlgorithm(a lock.Algorithm) Option {
	return func(c *config) {
		if a.About == "" {
			a.About = a.Name + " (registered by this binary)"
		}
		c.algorithms = append(c.algorithms, a)
	}
}

// WithArgs runs Main on args (without the program name) instead of
// os.Args[1:].
func WithArgs(args ...string) Option {
	return func(c *config) { c.args, c.argsSet = args, true }
}

// WithOutput writes the summary to stdout and the logs to stderr instead of
// os.Stdout and os.Stderr.
func WithOutput(stdout, stderr io.Writer) Option {
	return func(c *config) { c.stdout, c.stderr = stdout, stderr }
}

// Main runs the locksim command line (run, check, validate, list, shrink,
// map, explore, merge, serve, version) with the options' algorithms
// registered, and returns the exit code for main to pass to os.Exit: 0
// valid or expectation met (explore: no class broke the lock), 1 invalid
// or not met (explore: regression files written), 2 unknown, 254 bad usage
// or scenario, 255 internal or infrastructure error, 130/143 interrupted.
// An algorithm that cannot be registered (a taken name, contradictory
// traits) is bad usage: 254.
func Main(opts ...Option) int {
	c := config{args: os.Args[1:], stdout: os.Stdout, stderr: os.Stderr}
	if len(os.Args) == 0 {
		c.args = nil
	}
	for _, o := range opts {
		o(&c)
	}
	for _, a := range c.algorithms {
		if err := register(a); err != nil {
			_, _ = io.WriteString(c.stderr, "locksim: "+err.Error()+"\n")
			return 254
		}
	}
	return cli.Main(c.args, c.stdout, c.stderr)
}

// register is lock.Register with its panic turned into an error.
func register(a lock.Algorithm) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	lock.Register(a)
	return nil
}
