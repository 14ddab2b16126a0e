package report

import (
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// ranAt is the node and instant of the command of operation i, as the
// nodes recorded it (the account's OpOf), that read or wrote its key: the
// first that is not a script call (EVALSHA, EVAL: a script's own GET or
// DEL is recorded after it, and an EVALSHA the node refused, NOSCRIPT,
// read nothing; a sixth reader, A11), else the first; false when none is
// recorded. A connection's own commands (CLIENT SETNAME, HELLO, SELECT,
// PING…: a client reconnecting to a restarted node sends them first) touch
// no key and never count (reader 12: a lookup dated by its CLIENT
// SETNAME).
func (m *model) ranAt(i int) (node string, at int64, ok bool) {
	if m.a == nil {
		return "", 0, false
	}
	end := opEnd(m.h.Ops[i], m.end)
	for j := i + 1; j < len(m.h.Ops); j++ {
		e := m.h.Ops[j]
		if e.Process != history.NodeProcess || e.F != history.NodeCmd || e.Invoke > end || connCmd(e.Value.Cmd) || m.a.OpOf(j) != i {
			continue
		}
		if !ok {
			node, at, ok = e.Value.Node, e.Invoke, true
		}
		if !account.IsScript(e.Value.Cmd) {
			return e.Value.Node, e.Invoke, true
		}
	}
	return node, at, ok
}

// connCmd reports whether a node command only sets up or probes the
// connection (CLIENT, HELLO, AUTH, SELECT, PING, INFO, QUIT, RESET,
// READONLY) and touches no key.
func connCmd(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	switch strings.ToLower(cmd[0]) {
	case "client", "hello", "auth", "select", "ping", "info", "quit", "reset", "readonly", "readwrite", "echo":
		return true
	}
	return false
}
