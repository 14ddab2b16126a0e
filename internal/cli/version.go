package cli

import "runtime/debug"

// baseVersion is the release this tree is; the VCS revision is appended
// when the binary was built from a git checkout.
const baseVersion = "0.1.0"

func version() string {
	v := baseVersion
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return v
}
