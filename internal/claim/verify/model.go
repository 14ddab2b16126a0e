package verify

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// slack is how far a node's stamp and a client's may disagree (wall ns):
// MONITOR stamps a command when it runs, the client reads its clock
// before sending and after the reply; within it, expiry cannot be told
// from a removal either (the account's own bound is 5 ms).
const slack = int64(5e6)

// life is one instance of a string key on a node, as this package's own
// model of Redis reads the node's commands.
type life struct {
	node, key, value, owner string
	start                   int64
	set                     int   // the node command that created it
	deadline                int64 // -1: none
	end                     int64
	// how it ended: "expired", "removed", "overwritten", "flushed",
	// "lost" (a crash took it), "crash?" (lost in a crash or expired
	// before the node showed what it came back with: end is the crash,
	// deadline the expiry), "gone?" (its node came back without it and
	// no crash step says when it went: end is the node's dump), "held"
	// (still there at the end).
	how string
	by  string // the sender of the command that ended it
	rec int    // that command (-1: none)
	// lastMoveBy is the sender of the last deadline change.
	lastMoveBy string
	// ranEarlier: how long before start the SET that made it may have
	// run, its TTL counted from there (see ranFrom); 0 once a command
	// moved its deadline.
	ranEarlier int64
}

// move is what one deadline command did.
type move struct {
	life  *life // the life it moved; nil: it found no key
	vague bool  // the key's deadline was within slack of the command
}

// model is the replay of every node's recorded commands.
type model struct {
	h     history.History
	lives []*life
	// moves: node command index → what its deadline change did.
	moves map[int]move
	// removedAt: node command index → the lives it ended.
	removedAt map[int][]*life
	end       int64
	// crashed: node → when it last crashed, while the node has not yet
	// shown what it came back with (node-held); absent otherwise.
	crashed map[string]int64
	// unsure are the lives a SET at a key's deadline decided by the
	// client's outcome alone made or kept: an orphan is exactly a SET that
	// took while its client never learnt it, so claims on them are not
	// checkable here.
	unsure map[*life]bool
	// senders: node command index → its sender where the observer could
	// not name it (its connection gone before it asked), told by the
	// owner token it carried (unnamedSender).
	senders map[int]string
	// ranFrom: node command index → the earliest it may have run, for a
	// command stamped just after a node stop that was sent before it
	// (see ranFrom).
	ranFrom map[int]int64
	// stops: node → when freeze-node steps had it stopped (stopped).
	stops map[string][]span
}

// sender is the client that sent node command i: its recorded sender, or
// the one its owner token names (senders).
func (m *model) sender(i int) string {
	if s, ok := m.senders[i]; ok {
		return s
	}
	return m.h.Ops[i].Client
}

// unnamedSender is the client behind a node command whose sender the
// observer could not name: for a SET, the client whose lock operations
// carried the value it set; for a script, the one an argument after its
// keys names so; "" when no token tells.
func (m *model) unnamedSender(op history.Op) string {
	cmd := op.Value.Cmd
	switch name := strings.ToLower(cmd[0]); {
	case (name == "set" || name == "setnx") && len(cmd) >= 3:
		return m.ownerOf(cmd[1], cmd[2])
	case (name == "eval" || name == "evalsha") && len(cmd) >= 4:
		n, err := strconv.Atoi(cmd[2])
		if err != nil || n < 1 || 3+n > len(cmd) {
			return ""
		}
		for _, a := range cmd[3+n:] {
			if o := m.ownerOf(cmd[3], a); o != "" {
				return o
			}
		}
	}
	return ""
}

// replay runs every node command of h, in each node's own stream order,
// through a model of the string commands the locks send: SET (NX, XX, PX,
// EX, PXAT, EXAT, KEEPTTL), DEL, UNLINK, GETDEL, the EXPIRE family,
// PERSIST, INCR family, FLUSHALL/FLUSHDB; a crash-node fault ends every key
// its node did not show it came back with (node-held), or every key when
// the node came back unobserved with no persistence.
func replay(h history.History) *model {
	m := &model{h: h, moves: map[int]move{}, removedAt: map[int][]*life{}, end: h.End(), crashed: map[string]int64{}, unsure: map[*life]bool{}, senders: map[int]string{}, ranFrom: map[int]int64{}}
	type ev struct {
		t     int64
		i     int
		crash bool
	}
	byNode := map[string][]ev{}
	// A node's commands stay in the order its stream gave them (the
	// history's), which is the order it ran them: their stamps, mapped
	// onto the run's clock as each line was read, can cross by a few µs
	// (s1056: w1's release script's DEL stamped 17 µs after the EVALSHA
	// of w3's acquire, which ran after it). Each orders at no earlier
	// than the one before it.
	streamAt := map[string]int64{}
	for i, op := range h.Ops {
		switch {
		case op.Process == history.NodeProcess && op.F == history.NodeCmd:
			t := max(op.Invoke, streamAt[op.Value.Node])
			streamAt[op.Value.Node] = t
			byNode[op.Value.Node] = append(byNode[op.Value.Node], ev{t, i, false})
		case op.Process == history.NodeProcess && op.F == history.NodeHeld:
			// A dump is recorded when it is read back, after commands the
			// node ran later: its own stamp places it.
			byNode[op.Value.Node] = append(byNode[op.Value.Node], ev{op.Invoke, i, false})
		case op.F == history.Fault && op.Value.Fault != nil && op.Value.Fault.Effect == history.EffectCrashNode && op.Type != history.Fail:
			// The nodes died at the kill's return when the step recorded
			// it (DeadFrom), not when the harness began the step.
			at := op.Invoke
			if op.Value.DeadFrom > 0 && op.Value.DeadTo > op.Value.DeadFrom {
				at = op.Value.DeadFrom
			}
			for _, n := range op.Value.Fault.Nodes {
				byNode[n] = append(byNode[n], ev{at, i, true})
			}
		}
	}
	stops := stopped(h)
	m.stops = stops
	for node, evs := range byNode {
		slices.SortStableFunc(evs, func(a, b ev) int { return cmp.Compare(a.t, b.t) })
		live := map[string]*life{}
		script := ""                     // the sender of the node's last command outside a script
		var prev, outside int64 = -1, -1 // the stamps of the node's last command, and of its last outside a script
		for _, e := range evs {
			op := &h.Ops[e.i]
			if op.F == history.NodeCmd && len(op.Value.Cmd) > 0 {
				if op.Client == "" {
					m.senders[e.i] = script
					if !op.Value.Lua {
						m.senders[e.i] = m.unnamedSender(*op)
					}
				}
				if !op.Value.Lua {
					script, outside = m.sender(e.i), e.t
				}
				if from, ok := m.ranBeforeStop(stops[node], e.i, e.t, prev, outside); ok {
					m.ranFrom[e.i] = from
				}
				prev = e.t
			}
			crashedAt, pending := m.crashed[node]
			if pending {
				// Between a crash and the node's own dump of what it came
				// back with, a key whose deadline passes may have been lost
				// in the crash or have expired: the node cannot say which.
				for k, l := range live {
					if l.start < crashedAt && l.deadline >= 0 && l.deadline <= e.t {
						l.end, l.how, l.by, l.rec = crashedAt, "crash?", "", -1
						delete(live, k)
					}
				}
			}
			m.expire(live, e.t)
			switch {
			case e.crash:
				m.crashed[node] = e.t
				if p := h.Header.Persistence[node]; p == "" || p == "none" {
					for k, l := range live {
						m.finish(l, e.t, "lost", "", e.i)
						delete(live, k)
					}
				}
			case op.F == history.NodeHeld:
				held := map[string]history.HeldKey{}
				for _, hk := range op.Value.Held {
					held[hk.Key] = hk
				}
				for k, l := range live {
					if hk, ok := held[k]; !ok || hk.Value != l.value {
						if pending {
							m.finish(l, max(crashedAt, l.start), "lost", "", e.i)
						} else {
							// The node went away with no crash step (a
							// failover's): when the key went is not known.
							m.finish(l, e.t, "gone?", "", e.i)
						}
						delete(live, k)
					}
				}
				for k, hk := range held {
					if _, ok := live[k]; !ok {
						d := int64(-1)
						if hk.TTL >= 0 {
							d = e.t + hk.TTL
						}
						live[k] = m.create(node, k, hk.Value, m.ownerOf(k, hk.Value), e.t, d, e.i)
					}
				}
				delete(m.crashed, node)
			default:
				m.exec(live, node, e.i, op)
			}
		}
		for _, l := range live {
			if l.deadline >= 0 && l.deadline <= m.end {
				m.finish(l, l.deadline, "expired", "", -1)
			}
		}
	}
	for _, l := range m.lives {
		if l.how == "" {
			l.how, l.end, l.rec = "held", m.end, -1
		}
	}
	return m
}

// ownerOf is the client whose lock operation on key carried value as its
// token, when exactly one client's did: who set a key the node's dump shows
// though its SET was not recorded (sent while the node was unobserved), or
// whose SET the observer could not name the sender of (its connection was
// gone before the observer asked). "" otherwise.
func (m *model) ownerOf(key, value string) string {
	owner := ""
	for _, o := range m.h.Ops {
		if o.Process < 0 || o.Value.Token != value || (o.Key != key && o.Value.LockKey != key) ||
			(o.F != history.Acquire && o.F != history.Probe && o.F != history.Extend) {
			continue
		}
		if owner != "" && owner != o.Client {
			return ""
		}
		owner = o.Client
	}
	return owner
}

func (m *model) create(node, key, value, by string, t, deadline int64, rec int) *life {
	l := &life{node: node, key: key, value: value, owner: by, start: t, set: rec, deadline: deadline, end: -1}
	m.lives = append(m.lives, l)
	return l
}

func (m *model) finish(l *life, t int64, how, by string, rec int) {
	l.end, l.how, l.by, l.rec = t, how, by, rec
	if rec >= 0 && (how == "removed" || how == "overwritten" || how == "flushed") {
		m.removedAt[rec] = append(m.removedAt[rec], l)
	}
}

// expire ends every live key whose deadline passed before t, by more
// than slack: a key within slack of its deadline is left to the command
// at t, whose outcome the client's decides (see vague).
func (m *model) expire(live map[string]*life, t int64) {
	for k, l := range live {
		if l.deadline >= 0 && l.deadline <= t-slack {
			m.finish(l, l.deadline, "expired", "", -1)
			delete(live, k)
		}
	}
}

// vague reports whether l's deadline is too close to t to tell whether it
// was still there: after t-slack and up to t+slack, that bound included,
// as the account reads the node's stamps (its expirySlack).
func vague(l *life, t int64) bool {
	return l.deadline >= 0 && l.deadline-l.ranEarlier-t <= slack && t-l.deadline < slack
}

// span is a stretch of the run's clock, wall ns.
type span struct{ from, to int64 }

// stopped is when each node was stopped by freeze-node steps the nemesis
// applied (not failed), from each step's invoke to its completion; steps
// that overlap are one stretch (a node paused twice runs again only at the
// later resume), by start.
func stopped(h history.History) map[string][]span {
	per := map[string][]span{}
	for _, op := range h.Ops {
		if st := op.Value.Fault; op.F == history.Fault && st != nil && st.Effect == history.EffectFreezeNode && op.Type != history.Fail && op.Complete >= 0 {
			for _, n := range st.Nodes {
				per[n] = append(per[n], span{op.Invoke, op.Complete})
			}
		}
	}
	out := map[string][]span{}
	for n, ss := range per {
		slices.SortFunc(ss, func(x, y span) int { return cmp.Compare(x.from, y.from) })
		for _, s := range ss {
			if k := len(out[n]); k > 0 && s.from <= out[n][k-1].to {
				out[n][k-1].to = max(out[n][k-1].to, s.to)
				continue
			}
			out[n] = append(out[n], s)
		}
	}
	return out
}

// resumed is when a node stopped at t (stops) could next run a command:
// t, or the end of the stretch that held it at t.
func resumed(stops []span, t int64) int64 {
	for _, s := range stops {
		if s.from <= t && t < s.to {
			return s.to
		}
	}
	return t
}

// ranBeforeStop says when, at the earliest, node command i, stamped at t,
// may have run, when that is well before t: MONITOR stamps a command once
// it has run, so a command the node had been sent, or was running, when a
// stretch of stops began (SIGSTOP) is stamped when the node resumes. That
// is so of a command stamped within slack of such a stretch's end that
// was sent while the node ran, no later than the stretch began: a script's
// line whose EVAL line (outside: the node's last line outside a script)
// the node stamped by then, a plain command whose sender's last operation
// was invoked by then (a send inside an earlier stretch counts from its
// end). It ran after the node's line before it (prev) and its sending. ok
// is false otherwise.
func (m *model) ranBeforeStop(stops []span, i int, t, prev, outside int64) (int64, bool) {
	for _, s := range stops {
		if s.to > t || t-s.to > slack {
			continue
		}
		sent := outside
		if !m.h.Ops[i].Value.Lua {
			sent = m.lastSend(m.sender(i), t)
		}
		if sent < 0 {
			return 0, false
		}
		if sent = resumed(stops, sent); sent <= s.from {
			return max(prev, sent), true
		}
	}
	return 0, false
}

// ranEarlierOf is how long before its stamp t node command i may have run
// (ranFrom); 0 when it ran when stamped.
func (m *model) ranEarlierOf(i int, t int64) int64 {
	if from, ok := m.ranFrom[i]; ok {
		return max(t-from, 0)
	}
	return 0
}

// lastExpired is the life of key on node that expired last, by t; nil
// when none did.
func (m *model) lastExpired(node, key string, t int64) *life {
	for j := len(m.lives) - 1; j >= 0; j-- {
		if l := m.lives[j]; l.node == node && l.key == key && l.how == "expired" && l.end <= t {
			return l
		}
	}
	return nil
}

// lastSend is the invoke of client's last operation invoked by t; -1 when
// there is none.
func (m *model) lastSend(client string, t int64) int64 {
	out := int64(-1)
	for _, op := range m.h.Ops {
		if op.Process >= 0 && client != "" && op.Client == client && op.Invoke <= t {
			out = max(out, op.Invoke)
		}
	}
	return out
}

// set applies a SET of args (key, value, options) sent by by at t, node
// command i.
func (m *model) set(live map[string]*life, node string, i int, op *history.Op, args []string, t int64, by string) {
	if len(args) < 2 {
		return
	}
	key, val := args[0], args[1]
	old := live[key]
	nx, xx, keep := hasWord(args[2:], "nx"), hasWord(args[2:], "xx"), hasWord(args[2:], "keepttl")
	crashedAt, pending := m.crashed[node]
	lostInCrash := pending && old != nil && old.start < crashedAt
	unsure := false
	if old != nil && nx && !vague(old, t) && !lostInCrash {
		// The node's own script says its SET NX took: the key the
		// model holds was gone by then, though its deadline by the
		// run's clock had not come (s1057: w3's SET ran 7 ms after n1
		// thawed from an 81 ms freeze; the probe's SET NX 22 ms later
		// took, 37 ms before that deadline). When and how it went the
		// node does not say: claims of its end are not checked.
		if took, sure := m.scriptSays(i, op, node); sure && took {
			m.unsure[old] = true
			m.finish(old, t, "expired", "", -1)
			delete(live, key)
			old = nil
		}
	}
	if old != nil && (vague(old, t) || lostInCrash) && (nx || xx) {
		// The node's stamps cannot tell (a deadline within slack; a key
		// from before a crash the node has not yet said it kept): the
		// client's outcome does.
		took, sure := m.took(i, op, node)
		// The same owner's same value: which SET made the key cannot
		// be told either.
		if !sure || old.value == val && old.owner == by {
			m.unsure[old], unsure = true, true
		}
		if took == nx {
			if lostInCrash {
				m.finish(old, crashedAt, "crash?", "", -1)
			} else {
				m.finish(old, t, "expired", "", -1)
			}
			delete(live, key)
			old = nil
		}
	}
	if (nx && old != nil) || (xx && old == nil) {
		return
	}
	d := m.deadlineOf(args[2:], t)
	if old != nil && old.value == val && old.owner == by && !nx {
		// The same value set again (an extend by SET): one life, its
		// deadline moved.
		old.deadline, old.ranEarlier = d, m.ranEarlierOf(i, t)
		old.lastMoveBy = by
		m.moves[i] = move{life: old}
		return
	}
	if old != nil {
		if keep {
			d = old.deadline
		}
		m.finish(old, t, "overwritten", by, i)
	}
	live[key] = m.create(node, key, val, by, t, d, i)
	if from, ok := m.ranFrom[i]; ok {
		if g := m.lastExpired(node, key, t); nx && g != nil {
			// A SET NX that took ran after the key it found gone had
			// expired, and after the stop that deadline fell in.
			from = max(from, resumed(m.stops[node], g.deadline-g.ranEarlier))
		}
		live[key].ranEarlier = max(t-from, 0)
	}
	if unsure {
		m.unsure[live[key]] = true
	}
}

// exec applies one node command.
func (m *model) exec(live map[string]*life, node string, i int, op *history.Op) {
	if len(op.Value.Cmd) == 0 {
		return
	}
	name := strings.ToLower(op.Value.Cmd[0])
	args := op.Value.Cmd[1:]
	t, by := op.Invoke, m.sender(i)
	switch name {
	case "set":
		m.set(live, node, i, op, args, t, by)
	case "del", "unlink", "getdel":
		keys := args
		if name == "getdel" && len(args) > 0 {
			keys = args[:1]
		}
		for _, k := range keys {
			if l := live[k]; l != nil {
				m.finish(l, t, "removed", by, i)
				delete(live, k)
			}
		}
	case "pexpire", "expire", "pexpireat", "expireat", "persist":
		if len(args) < 1 {
			return
		}
		l := live[args[0]]
		if l == nil {
			m.moves[i] = move{}
			return
		}
		mv := move{life: l, vague: vague(l, t)}
		l.ranEarlier = m.ranEarlierOf(i, t)
		if name == "persist" {
			l.deadline = -1
		} else if len(args) >= 2 {
			n, err := strconv.ParseInt(args[1], 10, 64)
			if err != nil {
				return
			}
			// PEXPIREAT and EXPIREAT name an absolute Unix time: on the
			// run's clock from its start (atRunClock); a history that
			// does not say when it started leaves the deadline as it was.
			switch name {
			case "pexpire":
				l.deadline = t + n*1e6
			case "expire":
				l.deadline = t + n*1e9
			case "pexpireat", "expireat":
				mul := int64(1e6)
				if name == "expireat" {
					mul = 1e9
				}
				if !m.h.Header.Started.IsZero() {
					l.deadline = m.atRunClock(n * mul)
				}
			}
		}
		l.lastMoveBy = by
		m.moves[i] = mv
		if l.deadline >= 0 && l.deadline <= t {
			m.finish(l, t, "removed", by, i)
			delete(live, args[0])
		}
	case "incr", "incrby", "decr", "decrby":
		if len(args) < 1 {
			return
		}
		d := int64(1)
		if len(args) >= 2 {
			if n, err := strconv.ParseInt(args[1], 10, 64); err == nil {
				d = n
			}
		}
		if name == "decr" || name == "decrby" {
			d = -d
		}
		l := live[args[0]]
		if l == nil {
			l = m.create(node, args[0], "0", by, t, -1, i)
			live[args[0]] = l
		}
		if n, err := strconv.ParseInt(l.value, 10, 64); err == nil {
			l.value = strconv.FormatInt(n+d, 10)
		}
	case "flushall", "flushdb":
		for k, l := range live {
			m.finish(l, t, "flushed", by, i)
			delete(live, k)
		}
	}
}

// took says whether the SET at node command i took effect where the
// node's stamps cannot tell. Inside a script, what the script did next
// says, as the scripts the locks send are written: a script that next
// reads the same key (GET, GETRANGE, TTL, PTTL, EXISTS: bsm/redislock's
// obtain asks whether the key it met is already its own) had found the key
// taken; one that next increments another key (a fence counter, as
// locksim's fenced acquire does) had set it. Any other next line, or none,
// says nothing, and the client's outcome decides (tookByClient).
func (m *model) took(i int, op *history.Op, node string) (took, sure bool) {
	if took, sure := m.scriptSays(i, op, node); sure {
		return took, sure
	}
	took, sure = m.tookByClient(op, node)
	if !sure {
		return m.readBack(i, op, node)
	}
	return took, sure
}

// scriptSays tells whether the SET at node command i, run inside a script
// (Lua), took, from the script's next command on its node: a read of the
// same key says it did not (the script checks who holds it), an INCR of
// another key (a fence counter, counted only on success) says it did.
// sure is false when the script says neither.
func (m *model) scriptSays(i int, op *history.Op, node string) (took, sure bool) {
	if !op.Value.Lua {
		return false, false
	}
	for _, o := range m.h.Ops[i+1:] {
		if o.F != history.NodeCmd || o.Value.Node != node || o.Client != op.Client {
			continue
		}
		if o.Value.Lua && len(o.Value.Cmd) > 1 {
			switch name := strings.ToLower(o.Value.Cmd[0]); {
			case o.Value.Cmd[1] == op.Value.Cmd[1] && slices.Contains([]string{"get", "getrange", "ttl", "pttl", "exists"}, name):
				return false, true
			case o.Value.Cmd[1] != op.Value.Cmd[1] && (name == "incr" || name == "incrby"):
				return true, true
			}
		}
		break
	}
	return false, false
}

// readBack says whether the SET at node command i took from the next
// command on its node, when that is the same client's compare script
// (EVAL or EVALSHA of one key, the SET's key, whose ARGV[1] is the SET's
// value) and the script's first line reads the key: a script that went on
// to delete the key had found the value the SET wrote (no other command
// ran between them), one that stopped after the read had not, so the SET
// found the key taken (unless the key it would have made could have
// expired before the read). Anything else says nothing.
func (m *model) readBack(i int, op *history.Op, node string) (took, sure bool) {
	key, val := op.Value.Cmd[1], op.Value.Cmd[2]
	var lines []history.Op
	for _, o := range m.h.Ops[i+1:] {
		if o.Process != history.NodeProcess || o.F != history.NodeCmd || o.Value.Node != node || len(o.Value.Cmd) == 0 {
			continue
		}
		if len(lines) > 0 && !o.Value.Lua {
			break
		}
		if o.Client != op.Client {
			return false, false
		}
		lines = append(lines, o)
		if len(lines) == 3 {
			break
		}
	}
	if len(lines) < 2 {
		return false, false
	}
	eval, read := lines[0].Value.Cmd, lines[1].Value.Cmd
	name := strings.ToLower(eval[0])
	if lines[0].Value.Lua || (name != "eval" && name != "evalsha") || len(eval) < 5 || eval[2] != "1" || eval[3] != key || eval[4] != val ||
		!lines[1].Value.Lua || len(read) < 2 || !strings.EqualFold(read[0], "get") || read[1] != key {
		return false, false
	}
	if d := m.deadlineOf(op.Value.Cmd[3:], op.Invoke); d >= 0 && d <= lines[1].Invoke+slack {
		// The key the SET may have made could have expired before the read.
		return false, false
	}
	if len(lines) == 3 {
		del := lines[2].Value.Cmd
		if len(del) >= 2 && (strings.EqualFold(del[0], "del") || strings.EqualFold(del[0], "unlink")) && del[1] == key {
			return true, true
		}
		return false, false
	}
	return false, true
}

// tookByClient says whether the client operation that sent node command
// op (same client and key; the latest acquire, probe or extend whose window
// holds the command, or failing that whose window widened by slack does)
// succeeded on node: ok, naming node among its nodes (or naming none), and
// op its last SET there (an operation that tried again took with its last).
// sure is false where the outcome cannot tell: no such operation, an
// unknown outcome (a SET may have taken unseen: an orphan), or a refusal
// of a lock on several nodes (a minority of its SETs take).
func (m *model) tookByClient(op *history.Op, node string) (took, sure bool) {
	var best *history.Op
	bestSlack := true
	for j := range m.h.Ops {
		o := &m.h.Ops[j]
		if o.Process < 0 || o.Client != op.Client || (o.F != history.Acquire && o.F != history.Probe && o.F != history.Extend) ||
			(o.Key != op.Key && o.Value.LockKey != op.Key) {
			continue
		}
		end := m.endOf(o)
		switch {
		case o.Invoke <= op.Invoke && op.Invoke <= end:
			if best == nil || bestSlack || o.Invoke > best.Invoke {
				best, bestSlack = o, false
			}
		case bestSlack && o.Invoke-slack <= op.Invoke && op.Invoke <= end+slack:
			if best == nil || o.Invoke > best.Invoke {
				best = o
			}
		}
	}
	switch {
	case best == nil || best.Type == history.Info || best.Complete < 0:
		return false, false
	case best.Type != history.OK:
		return false, len(m.h.Header.Nodes) == 1
	case len(best.Value.Nodes) > 0 && !slices.Contains(best.Value.Nodes, node):
		return false, true
	}
	end := m.endOf(best)
	// Every later record: the history is not in time order (a node's
	// commands can be written after client ops that began later; s1074).
	for _, n := range m.h.Ops[op.Index+1:] {
		if n.Invoke > end+slack {
			continue
		}
		if n.F == history.NodeCmd && n.Client == op.Client && n.Value.Node == node && len(n.Value.Cmd) > 1 &&
			strings.EqualFold(n.Value.Cmd[0], "set") && n.Value.Cmd[1] == op.Value.Cmd[1] {
			return false, true
		}
	}
	return true, true
}

func (m *model) endOf(o *history.Op) int64 {
	if o.Complete < 0 {
		return m.end
	}
	return o.Complete
}

func hasWord(args []string, w string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, w) })
}

// deadlineOf reads a SET's expiry options (-1: none).
func (m *model) deadlineOf(opts []string, t int64) int64 {
	for j := 0; j+1 < len(opts); j++ {
		n, err := strconv.ParseInt(opts[j+1], 10, 64)
		if err != nil {
			continue
		}
		if d := m.expiryAt(strings.ToLower(opts[j]), n, t); d >= 0 {
			return d
		}
	}
	return -1
}

// expiryAt is the deadline (run ns) an expiry of unit n sets at t: a SET
// option (px, ex, pxat, exat) or an EXPIRE-family command's name (pexpire,
// expire, pexpireat, expireat); -1 for any other word.
func (m *model) expiryAt(unit string, n, t int64) int64 {
	switch unit {
	case "px", "pexpire":
		return t + m.h.Header.NodeDuration(n*1e6)
	case "ex", "expire":
		return t + m.h.Header.NodeDuration(n*1e9)
	case "pxat", "pexpireat":
		return m.atRunClock(n * 1e6)
	case "exat", "expireat":
		return m.atRunClock(n * 1e9)
	}
	return -1
}

// atRunClock maps an absolute Unix time (ns; PXAT, EXAT, PEXPIREAT,
// EXPIREAT) onto the run's clock: the history's instants count from the
// run's start (Header.Started), the nodes' wall clock running at
// Header.WallRate. -1 (no deadline it can tell) when the history does not
// say when it started.
func (m *model) atRunClock(unixNS int64) int64 {
	if t, ok := m.h.Header.NodeInstant(unixNS); ok {
		return t
	}
	return -1
}

// lifeOf returns the life the node command rec created.
func (m *model) lifeOf(rec int) *life {
	for _, l := range m.lives {
		if l.set == rec {
			return l
		}
	}
	return nil
}
