package account

import (
	"slices"
	"strings"
)

// CounterHome is where a fence counter of the run's lock lived: Key, the
// counter's name, on Node, the node its INCRs ran on. LockNode: Node also
// held a key of the lock's own, one a grant set (the counter is not
// separate from the lock: Redlock's n1 in redlock-gc-pause-fenced).
// Persistence is Node's (history.Header.Persistence: "none" means a
// restart of Node empties it and the counter starts again from 0,
// reissuing old tokens, fencing-counter-lost); "" when not recorded.
type CounterHome struct {
	Key, Node, Persistence string
	LockNode               bool
}

// CounterHomes lists the homes of the fence counters of the run's lock
// keys (CounterOf), one per counter and node, in the order first written.
func (a *Account) CounterHomes() []CounterHome {
	a.derive()
	var out []CounterHome
	for _, c := range a.counters {
		if slices.ContainsFunc(out, func(h CounterHome) bool { return h.Key == c.Key && h.Node == c.Node }) {
			continue
		}
		fence, lockNode := false, false
		for _, k := range a.keys {
			if k.Grant < 0 || !CounterOf(c.Key, k.Key) {
				continue
			}
			fence = true
			lockNode = lockNode || k.Node == c.Node
		}
		if fence {
			out = append(out, CounterHome{Key: c.Key, Node: c.Node, Persistence: a.H.Header.Persistence[c.Node], LockNode: lockNode})
		}
	}
	return out
}

// CounterOf reports whether counter is the fence counter of lock key key:
// locksim's own (fence:{key}), or a library's that names the key whole
// after a colon or inside braces.
func CounterOf(counter, key string) bool {
	return strings.HasSuffix(counter, ":"+key) || strings.Contains(counter, "{"+key+"}")
}
