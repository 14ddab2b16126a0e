package scenario

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Flatten lists the leaves of a normalised scenario (Normalize's YAML) as
// path → value: "algorithm" → "safe", "faults[0].duration" → "6s",
// "workload.claim" → "true"; an empty list is "[]". A lesson page's "what
// to change" and the fair-pair test compare two scenarios by it.
func Flatten(normalized []byte) (map[string]string, error) {
	var m map[string]any
	if err := yaml.Unmarshal(normalized, &m); err != nil {
		return nil, fmt.Errorf("flatten scenario: %w", err)
	}
	out := map[string]string{}
	flatten(m, "", out)
	return out, nil
}

func flatten(v any, path string, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(c, p, out)
		}
	case []any:
		if len(x) == 0 {
			out[path] = "[]"
		}
		for i, c := range x {
			flatten(c, fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		out[path] = fmt.Sprint(x)
	}
}
