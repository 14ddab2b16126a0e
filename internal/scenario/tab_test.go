package scenario

import (
	"strings"
	"testing"
)

// Issue 31: yaml.v3 says "found character that cannot start any token" or
// "found a tab character that violates indentation" for a tab in the
// indentation, naming the line or the one before it; the error names the
// tab's own line and column and says what to do.
func TestATabInTheIndentationIsSaidToBeATab(t *testing.T) {
	const head = "clients: 2\nalgorithm: safe\nttl: 30s\nworkload:\n"
	tests := []struct {
		name, data, want string
	}{
		{"a tab alone indenting a field names its line", head + "\tkind: payment\n", "x.yaml:5:1: invalid YAML: a tab indents this line"},
		{"a tab after a line indented with spaces names its own line", head + "  kind: payment\n\tjob: 5s\n", "x.yaml:6:1: invalid YAML: a tab indents this line"},
		{"a tab after spaces names its column", head + "  kind: payment\n  \tjob: 5s\n", "x.yaml:6:3: invalid YAML: a tab indents this line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "spaces only") {
				t.Errorf("Parse = %v, want an error containing %q and saying YAML indents with spaces only", err, tt.want)
			}
		})
	}
	t.Run("another syntax error keeps yaml's own words", func(t *testing.T) {
		_, err := Parse("x.yaml", []byte(head+"  kind: [payment\n"))
		if err == nil || strings.Contains(err.Error(), "tab") || !strings.Contains(err.Error(), "invalid YAML") {
			t.Errorf("Parse = %v, want yaml's own syntax error, no word of tabs", err)
		}
	})
}
