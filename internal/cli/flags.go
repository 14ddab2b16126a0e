package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/locksim/locksim/internal/scenario"
)

// errUnknownFlag is returned for a flag fs does not define; the message,
// with a "did you mean" when a defined flag is close, is already printed.
var errUnknownFlag = errors.New("flag provided but not defined")

// checkFlags looks through args for a flag fs does not define before fs
// parses them, so that a typo gets a "did you mean" (issue 31: `--sed`
// was answered with the whole usage and no hint). The standard flag
// package prints "flag provided but not defined" and the usage, with no
// suggestion, and offers no hook between the two; this says it in one
// line instead, naming the command's -h for the rest. A value of a known
// non-boolean flag given as the next argument is skipped (`--out -x`);
// "--" ends the flags, as for flag.Parse.
func checkFlags(fs *flag.FlagSet, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "" || name == "h" || name == "help" {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			msg := fmt.Sprintf("locksim %s: unknown flag %s", fs.Name(), a)
			if s := scenario.Suggest(name, names); s != "" {
				msg += fmt.Sprintf(" (did you mean --%s?)", s)
			}
			fmt.Fprintf(fs.Output(), "%s\nlocksim %s -h lists its flags\n", msg, fs.Name())
			return errUnknownFlag
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			i++ // its value
		}
	}
	return nil
}

// parseFlags is fs.Parse after checkFlags, for a command whose flags
// come before its arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := checkFlags(fs, args); err != nil {
		return err
	}
	return fs.Parse(args)
}
