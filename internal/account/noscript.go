package account

import (
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// NoScript reports whether node command j, an EVALSHA, was answered
// NOSCRIPT and ran nothing: no command of its script was recorded (no Lua
// record of its sender on its node before that sender's next command
// there), and nothing before it on its node loaded the script (no EVAL of
// the same script, recorded as "sha1:<sha>", and no SCRIPT command). A run
// starts with the nodes' scripts flushed (cluster reset), so an EVALSHA
// of a script never loaded in it finds none (reader 15: "the node ran
// it" of w1's release EVALSHA, which removed nothing: its key stood
// until its TTL).
func (a *Account) NoScript(j int) bool {
	ops := a.H.Ops
	o := ops[j]
	if o.F != history.NodeCmd || o.Value.Lua || len(o.Value.Cmd) < 2 || !strings.EqualFold(o.Value.Cmd[0], "evalsha") || !a.Observed[o.Value.Node] {
		return false
	}
	sha := strings.ToLower(o.Value.Cmd[1])
	next := int64(-1) // its sender's next command on the node
	for i, p := range ops {
		if i == j || p.F != history.NodeCmd || p.Value.Node != o.Value.Node || len(p.Value.Cmd) == 0 || p.Value.Lua || p.Client != o.Client || p.Invoke < o.Invoke {
			continue
		}
		if next < 0 || p.Invoke < next {
			next = p.Invoke
		}
	}
	for i, p := range ops {
		if i == j || p.F != history.NodeCmd || p.Value.Node != o.Value.Node || len(p.Value.Cmd) == 0 {
			continue
		}
		if p.Value.Lua && p.Client == o.Client && p.Invoke >= o.Invoke && (next < 0 || p.Invoke < next) {
			return false // its script ran a command
		}
		if p.Invoke > o.Invoke {
			continue
		}
		switch c := strings.ToLower(p.Value.Cmd[0]); {
		case c == "script":
			return false // a script may have been loaded
		case c == "eval" && len(p.Value.Cmd) > 1 && strings.TrimPrefix(strings.ToLower(p.Value.Cmd[1]), "sha1:") == sha:
			return false // this script, loaded by its EVAL
		}
	}
	return true
}
