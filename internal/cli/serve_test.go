package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestServeRefusesWhatItCannotServeBeforeListening(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"every interface, named by no address", []string{"--addr", ":7420"}, "every interface"},
		{"a port with no host", []string{"--addr", "7420"}, "host:port"},
		{"a catalogue that is not there", []string{"--scenarios", "no-such-dir"}, "not a directory"},
		{"a directory of one's own that is not there", []string{"--dir", "no-such-dir"}, "not a directory"},
		{"no run at all allowed", []string{"--max-runs", "0"}, "--max-runs"},
		{"an unknown backend", []string{"--backend", "cloud"}, "--backend"},
		{"a positional argument", []string{"scenarios"}, "unexpected argument"},
		{"a language the pages do not speak", []string{"--lang", "fr"}, "en or vi"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := realMain(append([]string{"serve", "--scenarios", "../../scenarios"}, c.args...), &stdout, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), c.want) || stdout.Len() > 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q, nothing served", code, stdout.String(), stderr.String(), exitUsage, c.want)
			}
		})
	}
}
