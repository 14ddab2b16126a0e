package account

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// replay derives the key and member lives of every observed node from its
// node events, through a model of the Redis commands locksim's algorithms
// and workloads send (strings with TTLs, counters, sorted sets; the
// commands a Lua script runs arrive as their own events). A command the
// model does not know changes nothing in it.
func (a *Account) replay() {
	per := map[string][]int{}
	for i, op := range a.H.Ops {
		if (op.F == history.NodeCmd && len(op.Value.Cmd) > 0 || op.F == history.NodeHeld) && a.Observed[op.Value.Node] {
			per[op.Value.Node] = append(per[op.Value.Node], i)
		}
	}
	owners := a.tokenOwners()
	failovers := a.failovers()
	a.metBy = map[int]int{}
	for _, node := range a.H.Header.Observed {
		ev := per[node]
		fed := fedBefore(a.H.Ops, ev) // in the history's order, the node's stream order
		sort.SliceStable(ev, func(i, j int) bool { return a.H.Ops[ev[i]].Invoke < a.H.Ops[ev[j]].Invoke })
		s := &sim{a: a, node: node, ev: ev, fed: fed, stops: a.stopsOf(node), owners: owners, strs: map[string]int{}, zsets: map[string]map[string]int{}}
		crashes := a.crashesOf(node)
		fos := failovers[node]
		for p, i := range ev {
			op := &a.H.Ops[i]
			for len(crashes) > 0 && crashes[0].Died() <= op.Invoke {
				s.crash(crashes[0])
				crashes = crashes[1:]
			}
			if len(fos) > 0 && fos[0].At <= op.Invoke {
				break // the group's commands now reach a process no observer watches
			}
			s.p = p
			if op.F == history.NodeHeld {
				s.held(i, op)
				continue
			}
			s.exec(i, op)
		}
		if len(fos) > 0 {
			s.handOver(fos[0])
		}
		for _, c := range crashes {
			s.crash(c)
		}
		s.finish()
	}
	a.dropRetracted()
	a.matchGrants()
}

// dropRetracted removes the key lives a node's own dump showed never
// existed (see held).
func (a *Account) dropRetracted() {
	a.keys = slices.DeleteFunc(a.keys, func(k KeyLife) bool { return k.retracted })
}

// lastCrash is the latest crash of the node (whatever its persistence)
// that began at or before t.
func (s *sim) lastCrash(t int64) (FaultWindow, bool) {
	var out FaultWindow
	found := false
	for _, f := range s.a.Faults {
		if f.Step.Effect == history.EffectCrashNode && slices.Contains(f.Step.Nodes, s.node) && f.Start <= t {
			out, found = f, true
		}
	}
	return out, found
}

// crashedLife finds the life of key with value that the crash ended on
// this node, or -1.
func (s *sim) crashedLife(key, value string, crash FaultWindow, crashed bool) int {
	if !crashed {
		return -1
	}
	for j := len(s.a.keys) - 1; j >= 0; j-- {
		k := &s.a.keys[j]
		if k.Node != s.node || k.Key != key || k.retracted {
			continue
		}
		if k.Ended.Kind == EndCrashed && k.Ended.Step == crash.Step.ID && k.Value == value {
			return j
		}
		return -1
	}
	return -1
}

// revive makes the crashed life at j of key live again: the node showed,
// after the crash, that it still held it.
func (s *sim) revive(key string, j int) {
	k := &s.a.keys[j]
	k.End, k.Ended = 0, End{Kind: EndHeld, Op: -1}
	s.strs[key] = j
}

// refused reports whether the node certainly refused the SET NX (or SETNX)
// of val being replaced: the lock has one node, and the sender's acquire
// around it was refused (clientGrant), which a single-instance lock does
// exactly when its SET NX found the key. The node then held a key the model
// does not (a key its persistence kept through a crash, its dump still to
// come); the node's answer wins, and no key of the sender's is created.
// A SET NX inside a script that went on as only a SET that took does (an
// INCR of a fence counter, see scriptTook) was not refused, whichever
// acquire the client was told about: a send stalled while the node was
// stopped can run inside a later, refused acquire's window
// (fencing-random-nemesis seed 1001). Nor was a plain SET NX that the
// sender followed, inside that acquire's window, with a SET NX of another
// value on the same node: the later one was the refused acquire's, and
// this one a send of an earlier acquire's, stalled while the node was
// stopped, whose key refused it.
func (s *sim) refused(set *history.Op, val string) bool {
	if len(s.a.H.Header.Nodes) != 1 {
		return false
	}
	if set.Value.Lua {
		if took, ok := s.scriptTook(set.Value.Cmd[1]); ok && took {
			return false
		}
	}
	took, ok := s.clientGrant(set, val, s.by)
	return ok && !took && !s.sentOther(set, val)
}

// sentOther reports whether set's sender sent another SET NX (or SETNX) of
// set's key to set's node, of a value other than val, after set and inside
// the window of the sender's acquire around set.
func (s *sim) sentOther(set *history.Op, val string) bool {
	if set.Value.Lua || set.Client == "" {
		return false
	}
	until := int64(-1)
	for i := range s.a.H.Ops {
		o := &s.a.H.Ops[i]
		if o.F == history.Acquire && o.Client == set.Client && o.Complete >= 0 && lockKeyOf(o) == set.Value.Cmd[1] &&
			o.Invoke-grantSlack <= set.Invoke && set.Invoke <= o.Complete+grantSlack {
			until = o.Complete + grantSlack
			break
		}
	}
	return s.laterSetNX(set, until, func(o *history.Op) bool {
		return o.Client == set.Client && !o.Value.Lua && o.Value.Cmd[2] != val
	})
}

// overrules reports whether the SET NX of val being replaced certainly took
// although the model holds key's instance at cur: the lock has one node,
// the sender was granted by it (clientGrant), and cur was created by a SET
// NX whose sender was never told whether it took (an info acquire). The
// node's answer wins: that earlier SET NX found a key the model had let
// expire a moment early, and set nothing.
func (s *sim) overrules(set *history.Op, val string, cur int) bool {
	if len(s.a.H.Header.Nodes) != 1 {
		return false
	}
	if took, ok := s.clientGrant(set, val, s.by); !ok || !took {
		return false
	}
	k := &s.a.keys[cur]
	if k.Set < 0 || k.Set >= len(s.a.H.Ops) {
		return false
	}
	prev := &s.a.H.Ops[k.Set]
	if prev.F != history.NodeCmd || len(prev.Value.Cmd) < 3 || !strings.EqualFold(prev.Value.Cmd[0], "set") || !hasWord(prev.Value.Cmd[3:], "nx") {
		return false
	}
	_, known := s.clientGrant(prev, k.Value, k.Owner)
	return !known
}

// tokenOwners maps each owner token of a client's lock operation to its
// client: a command whose connection the observer could not name (closed
// before it asked) is told by the token it carries, tokens being unique.
func (a *Account) tokenOwners() map[string]string {
	out := map[string]string{}
	for _, op := range a.H.Ops {
		switch op.F {
		case history.Acquire, history.Probe, history.Extend, history.Release:
			if op.Value.Token != "" && op.Client != "" {
				out[op.Value.Token] = op.Client
			}
		}
	}
	return out
}

// crashesOf lists the crashes of node that lost its keys, by start.
func (a *Account) crashesOf(node string) []FaultWindow {
	var out []FaultWindow
	for _, f := range a.Faults {
		if f.Step.Effect == history.EffectCrashNode && slices.Contains(f.Step.Nodes, node) && a.CrashLoses(f.Step, node) {
			out = append(out, f)
		}
	}
	return out
}

// CrashLoses reports whether crash step st lost node's recent keys: the
// node persisted nothing (or the history does not say), or restarts from
// an rdb snapshot (a lock taken since it is gone), or lost power with an
// aof-everysec file (its last second never reached the disk). An
// appendfsync-always node, and an everysec one killed without a power
// loss, come back with their keys.
func (a *Account) CrashLoses(st history.FaultStep, node string) bool {
	switch p := a.H.Header.Persistence[node]; p {
	case "", "none", "rdb":
		return true
	case "aof-everysec":
		return st.PowerLoss
	}
	return false
}

// CrashOutcome returns the string keys node held when the crash window f
// began that outlived it (kept, by its persistence) and those the crash
// ended (lost), each sorted and without repeats.
func (a *Account) CrashOutcome(f FaultWindow, node string) (kept, lost []string) {
	a.derive()
	for _, k := range a.keys {
		if k.Node != node || k.Start >= f.Start {
			continue
		}
		switch {
		case k.Ended.Kind == EndCrashed && k.Ended.Step == f.Step.ID:
			lost = append(lost, k.Key)
		case k.End > f.End:
			kept = append(kept, k.Key)
		}
	}
	slices.Sort(kept)
	slices.Sort(lost)
	return slices.Compact(kept), slices.Compact(lost)
}

// sim is one node's state while its events are replayed.
type sim struct {
	a      *Account
	node   string
	ev     []int                     // the node's events (positions in a.H.Ops), in node order
	fed    map[int]int               // a command's history index → that of the line the node fed before it
	stops  []window                  // when the node was stopped (freeze-node steps, merged), by start
	p      int                       // position in ev of the event being replayed
	owners map[string]string         // owner token → the client it was drawn for
	by     string                    // sender of the event being replayed
	strs   map[string]int            // key → position in a.keys of its live instance
	zsets  map[string]map[string]int // key → member → position in a.members
}

// expirySlack is how close to a key's deadline a command may run before
// the node's stamps alone cannot tell whether the key was still there: the
// node stamps a command when MONITOR sees it, and sets and checks a TTL a
// moment later, which a busy machine can stretch to a millisecond or more.
// Within it the node's own later answers decide (see settle).
const expirySlack = int64(5e6) // 5 ms, wall time

// settle ends key's instance if its deadline passed by the command being
// replayed at t. A deadline within expirySlack of t is decided by what the
// node showed it had: the command's script (a compare that went on to DEL
// or PEXPIRE found the key; a SET NX in a script that went on found none),
// a later compare script of the same sender and value, or the sender's
// client outcome for a SET NX. Without such evidence the stamps decide.
//
// A deadline read from a dump (KeyLife.dumped) is decided by such evidence
// however far past it the command ran: the node's own answer to a command
// (a SET NX it refused found the key) is exact, while the dump's remaining
// TTL, read in whole milliseconds just after a restart and placed at the
// dump's stamp, was seen 35 ms early on a loaded machine
// (snapshot-kept-lock seed 32: w2's SET NX refused 16 ms after the dump's
// deadline, the key gone only when the final probe's SET NX took it).
//
// A key whose SET may have run before a node stop, its stamp after it
// (KeyLife.ranEarlier), is decided by such evidence from its earliest
// deadline on (fencing-random-nemesis seed 1166: a fenced script's SET NX
// stamped 0.1 ms after n1's 70 ms stop ended; the next SET NX of the key,
// 1.9 ms later, took, its script's INCR following).
func (s *sim) settle(key string, t int64) {
	i, ok := s.strs[key]
	if !ok {
		return
	}
	k := &s.a.keys[i]
	if k.Deadline < 0 || s.earliest(k) > t+expirySlack {
		return
	}
	if k.Deadline > t-expirySlack || k.dumped {
		if alive, known := s.evidence(key); known {
			if !alive {
				s.expireAt(key, min(k.Deadline, t))
			} else if k.Deadline <= t {
				k.Deadline = t + 1 // it outlived its stamped deadline by a hair
			}
			return
		}
	}
	s.expire(key, t)
}

// earliest is the earliest deadline k may have: its deadline less how
// long before its stamp the command that set it may have run
// (ranEarlier).
func (s *sim) earliest(k *KeyLife) int64 { return k.Deadline - k.ranEarlier }

// window is a span of the run's clock, wall ns.
type window struct{ from, to int64 }

// stopsOf is when node was stopped: its freeze-node steps' windows, those
// that overlap merged (pauses nest: a node paused twice runs again at the
// later resume), by start.
func (a *Account) stopsOf(node string) []window {
	var ws []window
	for _, f := range a.Faults {
		if f.Step.Effect == history.EffectFreezeNode && slices.Contains(f.Step.Nodes, node) {
			ws = append(ws, window{f.Start, f.End})
		}
	}
	slices.SortFunc(ws, func(x, y window) int { return cmp.Compare(x.from, y.from) })
	var out []window
	for _, w := range ws {
		if n := len(out); n > 0 && w.from <= out[n-1].to {
			out[n-1].to = max(out[n-1].to, w.to)
			continue
		}
		out = append(out, w)
	}
	return out
}

// fedBefore maps each node command of ev (history indices, in the
// history's order: the order the node's stream gave them) to the one the
// node fed before it.
func fedBefore(ops []history.Op, ev []int) map[int]int {
	out := map[int]int{}
	last := -1
	for _, i := range ev {
		if ops[i].F != history.NodeCmd {
			continue
		}
		if last >= 0 {
			out[i] = last
		}
		last = i
	}
	return out
}

// stopEndedBefore is how long before t the node may have run the command
// being replayed, stamped at t: MONITOR stamps a command after it ran, so
// one the node was running, or had been sent, when a node stop
// (freeze-node) began may be stamped just after the stop's end. That
// holds only of a command stamped within expirySlack of a stop's end and
// sent while the node ran, before the stop began: a script's line whose
// script's EVAL line the node stamped by then, or a plain command whose
// sender's latest operation before t began by then — a send while another
// stop held the node counts from that stop's end (stops, merged). It is
// then t less the later of the line the node fed before it, in its
// stream's order, and that send (the command ran after both); 0 otherwise
// — a command sent during or after the stop, or stamped well after it,
// ran when it was stamped (helpers fool-stop and fool-stop2: a SET NX sent
// during a stop and fed first on its end had the line before it, 74 ms
// earlier, taken for the earliest it ran; a SET sent while an overlapping
// step already had the node stopped).
func (s *sim) stopEndedBefore(t int64) int64 {
	ops := s.a.H.Ops
	i := s.ev[s.p]
	before, ok := s.fed[i]
	if !ok {
		return 0
	}
	for _, w := range s.stops {
		if t < w.to || t-w.to > expirySlack {
			continue
		}
		sent, ok := s.sentBy(i, t)
		if !ok {
			return 0
		}
		for _, o := range s.stops {
			if o.from <= sent && sent < o.to {
				sent = o.to // it could run only once that stop ended
			}
		}
		if sent <= w.from {
			return t - max(ops[before].Invoke, sent)
		}
	}
	return 0
}

// ranSince is how long before t a command stamped at t that set a key may
// have run (stopEndedBefore), found bounds: a SET NX that took after the
// key it found gone, whose earliest deadline was found (-1: none), ran
// after that deadline, and after the stop it fell in, if one did — a
// stopped Redis expires nothing (helper fool-stop2: a key due inside the
// stop, and the SET NX stamped 0.1 ms after it took the key).
func (s *sim) ranSince(t, found int64) int64 {
	d := s.stopEndedBefore(t)
	if found >= 0 {
		d = min(d, max(t-s.thawedAt(found), 0))
	}
	return d
}

// sentBy is when node command i, stamped at t, was sent at the latest
// known: for a script's line, its script's EVAL line's stamp (every line
// fed between them the script's own); for a plain command, the invoke of
// its sender's latest operation invoked by t. ok is false when neither is
// found.
func (s *sim) sentBy(i int, t int64) (int64, bool) {
	ops := s.a.H.Ops
	if ops[i].Value.Lua {
		for q, ok := s.fed[i]; ok; q, ok = s.fed[q] {
			if o := &ops[q]; !o.Value.Lua {
				return o.Invoke, IsScript(o.Value.Cmd)
			}
		}
		return 0, false
	}
	sent, ok := int64(0), false
	for i := range ops {
		o := &ops[i]
		if o.Process >= 0 && o.Client == s.by && s.by != "" && o.Invoke <= t && (!ok || o.Invoke > sent) {
			sent, ok = o.Invoke, true
		}
	}
	return sent, ok
}

// expireAt ends key's instance as expired at t (before its stamped
// deadline: the node showed it gone).
func (s *sim) expireAt(key string, t int64) {
	k := &s.a.keys[s.strs[key]]
	kind := EndExpired
	if n := len(k.Moves); n > 0 && k.Moves[n-1].Clock {
		kind = EndClock
	}
	s.endKey(key, t, End{Kind: kind, Op: -1, Step: lastClockStep(k)})
}

// evidence says whether the node still had key's current instance when it
// ran the command being replayed, from what the node and the sender showed
// (see settle); known false when nothing tells.
func (s *sim) evidence(key string) (alive, known bool) {
	ops := s.a.H.Ops
	op := &ops[s.ev[s.p]]
	args := op.Value.Cmd
	cmd := strings.ToLower(args[0])
	cur := s.a.keys[s.strs[key]]
	switch {
	case op.Value.Lua && (cmd == "del" || cmd == "pexpire" || cmd == "expire"):
		// Locksim's scripts remove or extend a key only after their GET
		// found the caller's token in it.
		return true, true
	case op.Value.Lua && cmd == "get":
		tok, ok := s.scriptArg(s.p)
		if !ok || tok != cur.Value {
			return false, false
		}
		return s.wentOn(s.p, key), true
	case cmd == "set" && len(args) > 2 && hasWord(args[3:], "nx"):
		if took, ok := s.clientGrant(op, args[2], s.by); ok {
			return !took, true
		}
		if op.Value.Lua {
			if took, ok := s.scriptTook(key); ok {
				return !took, true
			}
			return false, false
		}
		if took, ok := s.laterCompare(s.by, key, args[2]); ok {
			return !took, true
		}
	case cmd == "setnx" && len(args) > 2:
		if took, ok := s.clientGrant(op, args[2], s.by); ok {
			return !took, true
		}
	}
	return false, false
}

// senderOf is the sender of the event at position q: its connection's
// client, or the one its token tells.
func (s *sim) senderOf(q int) string {
	o := &s.a.H.Ops[s.ev[q]]
	if o.Client != "" {
		return o.Client
	}
	p := s.p
	s.p = q
	defer func() { s.p = p }()
	return s.senderByToken(o)
}

// senderByToken tells an unnamed command's sender by the owner token it
// carries: a SET's value, or a script's ARGV[1] for the lines it ran. ""
// when none is a client's.
func (s *sim) senderByToken(op *history.Op) string {
	args := op.Value.Cmd
	switch {
	case op.Value.Lua:
		if tok, ok := s.scriptArg(s.p); ok {
			return s.owners[tok]
		}
	case len(args) > 2 && (strings.EqualFold(args[0], "set") || strings.EqualFold(args[0], "setnx")):
		return s.owners[args[2]]
	}
	return ""
}

// scriptTook reads, from the line that follows a SET NX inside a script,
// whether it took: a script that next reads the same key (GET, GETRANGE:
// a library checking whether the key is already its own, as
// bsm/redislock's obtain does) found it taken; one that next increments
// another key (a fence counter, as locksim's fenced acquire does) took it.
// Unknown for any other script.
func (s *sim) scriptTook(key string) (took, ok bool) {
	q := s.p + 1
	if q >= len(s.ev) {
		return false, false
	}
	o := &s.a.H.Ops[s.ev[q]]
	if !o.Value.Lua || len(o.Value.Cmd) < 2 {
		return false, false
	}
	switch c := strings.ToLower(o.Value.Cmd[0]); {
	case (c == "get" || c == "getrange" || c == "pttl" || c == "ttl") && o.Value.Cmd[1] == key:
		return false, true
	case (c == "incr" || c == "incrby") && o.Value.Cmd[1] != key:
		return true, true
	}
	return false, false
}

// wentOn reports whether the script line at position p is followed, in
// the same script, by another line (on key, when key is not empty).
func (s *sim) wentOn(p int, key string) bool {
	for q := p + 1; q < len(s.ev); q++ {
		o := &s.a.H.Ops[s.ev[q]]
		if !o.Value.Lua {
			return false
		}
		if key == "" || (len(o.Value.Cmd) > 1 && o.Value.Cmd[1] == key) {
			return true
		}
	}
	return false
}

// scriptArg is the first ARGV of the script whose lua line is at p: the
// EVAL or EVALSHA line before it.
func (s *sim) scriptArg(p int) (string, bool) {
	for q := p - 1; q >= 0; q-- {
		o := &s.a.H.Ops[s.ev[q]]
		if o.Value.Lua {
			continue
		}
		return evalArg(o.Value.Cmd)
	}
	return "", false
}

// IsScript says whether cmd, a command as MONITOR recorded it, runs a Lua
// script: EVAL, EVALSHA (or their _RO forms), or a function's FCALL
// (FCALL_RO), whose arguments are laid out alike (name, numkeys, keys,
// args).
func IsScript(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	switch strings.ToLower(cmd[0]) {
	case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro":
		return true
	}
	return false
}

// evalArg is ARGV[1] of an EVAL or EVALSHA command.
func evalArg(cmd []string) (string, bool) {
	if len(cmd) < 3 {
		return "", false
	}
	if !IsScript(cmd) {
		return "", false
	}
	n, err := strconv.Atoi(cmd[2])
	if err != nil || len(cmd) <= 3+n {
		return "", false
	}
	return cmd[3+n], true
}

// laterCompare finds by's next compare script on key with value val on
// this node (before by sets key again) and reports whether its GET found
// val there: a SET NX that wrote val took. Unknown when there is none, or
// when val could have expired before it ran.
func (s *sim) laterCompare(by, key, val string) (took, ok bool) {
	ops := s.a.H.Ops
	set := &ops[s.ev[s.p]]
	ttl := int64(-1)
	for j := 3; j+1 < len(set.Value.Cmd); j++ {
		switch u := strings.ToLower(set.Value.Cmd[j]); u {
		case "px", "ex", "pxat", "exat":
			if d := s.deadline(u, set.Value.Cmd[j+1], set.Invoke); d >= 0 {
				ttl = d - set.Invoke
			}
		}
	}
	for q := s.p + 1; q < len(s.ev); q++ {
		o := &ops[s.ev[q]]
		if o.Value.Lua || len(o.Value.Cmd) < 2 || (o.Client != by && (o.Client != "" || s.senderOf(q) != by)) {
			continue
		}
		c := strings.ToLower(o.Value.Cmd[0])
		if (c == "set" || c == "setnx") && o.Value.Cmd[1] == key {
			return false, false
		}
		if arg, isEval := evalArg(o.Value.Cmd); isEval && arg == val && slices.Contains(o.Value.Cmd[3:], key) {
			if q+1 >= len(s.ev) || !ops[s.ev[q+1]].Value.Lua {
				continue // a NOSCRIPT EVALSHA: the EVAL that follows runs it
			}
			if s.wentOn(q+1, key) {
				return true, true
			}
			if ttl >= 0 && o.Invoke >= set.Invoke+ttl-expirySlack {
				return false, false // val may have expired by then
			}
			return false, true
		}
	}
	return false, false
}

// clientGrant reports what the sender (by) of a SET NX of val was told: its
// acquire (or probe) of the SET's key whose window holds the SET completed ok with this
// node among the granting ones (took), completed ok naming other granting
// nodes (did not take), or was refused by the lock's only node (did not
// take: a single-instance lock refuses exactly when its SET NX found the
// key). Unknown otherwise.
func (s *sim) clientGrant(set *history.Op, val, by string) (took, ok bool) {
	single := len(s.a.H.Header.Nodes) == 1
	for i := range s.a.H.Ops {
		o := &s.a.H.Ops[i]
		if (o.F != history.Acquire && o.F != history.Probe) || o.Client != by || o.Complete < 0 || lockKeyOf(o) != set.Value.Cmd[1] {
			continue
		}
		if set.Invoke < o.Invoke-grantSlack || set.Invoke > o.Complete+grantSlack {
			continue
		}
		if o.Value.Token != "" && o.Value.Token != val {
			// Granted under another token, and this SET sent again later in
			// the same call: a later attempt took, this one found the key
			// (a probe's SET NX 8 µs past a key's deadline, inside a script
			// whose clock Redis read at its start: issue 32's loaded sweep).
			if o.Type == history.OK && s.sentAgain(set, o.Complete+grantSlack) {
				return false, true
			}
			continue
		}
		switch {
		case o.Type == history.OK && (slices.Contains(o.Value.Nodes, s.node) || (len(o.Value.Nodes) == 0 && single)):
			// An acquire that sent the SET again later in its window (a
			// probe retrying every 200 ms) was granted by its last one:
			// this one found the key taken (issue 27: a probe's SET NX
			// 4.8 ms before another's key's deadline was told as having
			// made its key, and the other's key as expired before it).
			return !s.sentAgain(set, o.Complete+grantSlack), true
		case o.Type == history.OK && len(o.Value.Nodes) > 0:
			return false, true
		case o.Type == history.Fail && single:
			return false, true
		}
		return false, false
	}
	return false, false
}

// sentAgain reports whether set's sender sent another SET NX (or SETNX)
// of set's key to set's node after it, by until: a second try of the
// acquire. A SET XX is no try: it rewrites a key that stands (a min-hold
// release, SET … PX n XX, reader 16: a probe's release 4 ms after its
// SET NX took the SET NX for refused, and its key for inferred).
func (s *sim) sentAgain(set *history.Op, until int64) bool {
	return s.laterSetNX(set, until, func(o *history.Op) bool {
		return o.Client == set.Client && (set.Client != "" || o.Value.Cmd[2] == set.Value.Cmd[2])
	})
}

// laterSetNX reports whether a command after set in the history, invoked
// from set's invoke to until, is a SET NX (or SETNX) of set's key to
// set's node for which match holds.
func (s *sim) laterSetNX(set *history.Op, until int64, match func(o *history.Op) bool) bool {
	if set.Index < 0 || set.Index >= len(s.a.H.Ops) || &s.a.H.Ops[set.Index] != set {
		return false
	}
	for i := set.Index + 1; i < len(s.a.H.Ops); i++ {
		o := &s.a.H.Ops[i]
		if o.F == history.NodeCmd && set.Invoke <= o.Invoke && o.Invoke <= until && o.Value.Node == set.Value.Node &&
			isSetNX(o.Value.Cmd) && o.Value.Cmd[1] == set.Value.Cmd[1] && match(o) {
			return true
		}
	}
	return false
}

// isSetNX says whether cmd is a SET … NX or a SETNX with a key and a value.
func isSetNX(cmd []string) bool {
	return len(cmd) >= 3 && (strings.EqualFold(cmd[0], "set") && hasWord(cmd[3:], "nx") || strings.EqualFold(cmd[0], "setnx"))
}

func hasWord(args []string, w string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, w) })
}

// expire ends key's instance if its deadline passed by t.
func (s *sim) expire(key string, t int64) {
	i, ok := s.strs[key]
	if !ok {
		return
	}
	k := &s.a.keys[i]
	if k.Deadline >= 0 && k.Deadline <= t {
		kind := EndExpired
		if n := len(k.Moves); n > 0 && k.Moves[n-1].Clock {
			kind = EndClock // the deadline that passed was one a clock fault set
		}
		// Gone by t at the latest: t is when the node executed the
		// command that found it gone (or the crash, dump or end that
		// closes it), so the node ran then, whatever a stop step's record
		// says of its window.
		s.endKey(key, min(s.thawedAt(k.Deadline), t), End{Kind: kind, Op: -1, Step: lastClockStep(k)})
	}
}

// thawedAt is when a key whose deadline is t could leave this node: t, or,
// when a freeze-node step had the node stopped at t (SIGSTOP), the step's
// end, when it resumed — a stopped Redis expires nothing, and overdue keys
// go on resume.
func (s *sim) thawedAt(t int64) int64 {
	if woke, ok := s.a.StoppedAt(s.node, t); ok {
		return woke
	}
	return t
}

func lastClockStep(k *KeyLife) int {
	if n := len(k.Moves); n > 0 && k.Moves[n-1].Clock {
		return k.Moves[n-1].Step
	}
	return 0
}

func (s *sim) endKey(key string, t int64, e End) {
	i, ok := s.strs[key]
	if !ok {
		return
	}
	k := &s.a.keys[i]
	k.End, k.Ended = max(t, k.Start), e
	delete(s.strs, key)
}

func (s *sim) endMember(key, member string, t int64, e End) {
	m := s.zsets[key]
	i, ok := m[member]
	if !ok {
		return
	}
	ml := &s.a.members[i]
	ml.End, ml.Ended = max(t, ml.Start), e
	delete(m, member)
	if len(m) == 0 {
		delete(s.zsets, key)
	}
}

// removal is how a command that removes a key is told: by its owner, by
// another client, by a restarted client's restore on start, or by the
// harness inside a fault.
func (s *sim) removal(owner, by, key string, t int64, op int) End {
	if st, ok := s.a.restoring(by, t); ok {
		return End{Kind: EndRestored, By: by, Op: op, Step: st}
	}
	if by == history.AdminClient {
		if st, ok := s.step(history.EffectDeleteKey, key, t); ok {
			return End{Kind: EndJanitor, By: by, Op: op, Step: st}
		}
		if st, ok := s.step(history.EffectNodeClock, "", t); ok {
			return End{Kind: EndClock, By: by, Op: op, Step: st}
		}
	}
	if by == owner && by != "" {
		return End{Kind: EndReleased, By: by, Op: op}
	}
	return End{Kind: EndDeleted, By: by, Op: op}
}

// restoring finds the restart-client step (Mode history.RestoreAll) of
// client whose restore on start was under way at t (node time): from the
// step's end, when the new incarnation starts and first deletes every
// job's lock key, to that client's first operation after it (the
// incarnation's work begins once the restore is done), or to the end of
// the history.
func (a *Account) restoring(client string, t int64) (int, bool) {
	if client == "" {
		return 0, false
	}
	for _, f := range a.Faults {
		st := f.Step
		if st.Effect != history.EffectRestartClient || st.Mode != history.RestoreAll || !slices.Contains(st.Clients, client) || t < f.End-stepSlack {
			continue
		}
		until, ok := a.restoreUntil[restoreOf{f.Op, client}]
		if !ok {
			until = a.end
			for _, o := range a.H.Ops {
				if o.Client == client && history.IsClientFunc(o.F) && o.Invoke >= f.End && o.Invoke < until {
					until = o.Invoke
				}
			}
			if a.restoreUntil == nil {
				a.restoreUntil = map[restoreOf]int64{}
			}
			a.restoreUntil[restoreOf{f.Op, client}] = until
		}
		if t <= until+stepSlack {
			return st.ID, true
		}
	}
	return 0, false
}

// restoreOf is one client's restore on start under one restart step (the
// step's fault operation).
type restoreOf struct {
	op     int
	client string
}

// stepSlack is how far outside a fault step's recorded window the
// harness's commands of that step may appear on the node's clock: the
// step's operation is recorded around its apply, the node stamps the
// command while it runs.
const stepSlack = int64(5e6) // 5 ms

// step finds an applied step of effect on this node (and key, for a
// delete-key) whose window holds t.
func (s *sim) step(effect, key string, t int64) (int, bool) {
	for _, f := range s.a.Faults {
		st := f.Step
		if st.Effect != effect || !slices.Contains(st.Nodes, s.node) || (key != "" && st.Key != key) {
			continue
		}
		if f.Start-stepSlack <= t && t <= f.End+stepSlack {
			return st.ID, true
		}
	}
	return 0, false
}

// clockStepBefore is the node clock step of this node whose shift script
// a harness deadline command at t belongs to: the step whose window holds
// t, else the last one begun before t, applied or not (a shift script can
// run on the node after its step's operation timed out and was recorded
// as failed); 0 when the history has none.
func (s *sim) clockStepBefore(t int64) int {
	if st, ok := s.step(history.EffectNodeClock, "", t); ok {
		return st
	}
	id, began := 0, int64(-1)
	for _, op := range s.a.H.Ops {
		st := op.Value.Fault
		if op.F == history.Fault && st != nil && st.Effect == history.EffectNodeClock && slices.Contains(st.Nodes, s.node) &&
			op.Invoke <= t && op.Invoke > began {
			id, began = st.ID, op.Invoke
		}
	}
	return id
}

func (s *sim) crash(f FaultWindow) {
	died := f.Died()
	for key := range s.strs {
		s.expire(key, died)
	}
	for key := range s.strs {
		s.endKey(key, died, End{Kind: EndCrashed, Op: f.Op, Step: f.Step.ID})
	}
	for key, m := range s.zsets {
		for member := range m {
			s.endMember(key, member, died, End{Kind: EndCrashed, Op: f.Op, Step: f.Step.ID})
		}
	}
}

// finish closes what is left at the end of the history.
func (s *sim) finish() {
	end := s.a.end
	for key := range s.strs {
		s.expire(key, end)
	}
	for key, i := range s.strs {
		s.a.keys[i].End, s.a.keys[i].Ended = end, End{Kind: EndHeld, Op: -1}
		delete(s.strs, key)
	}
	for _, m := range s.zsets {
		for _, i := range m {
			s.a.members[i].End, s.a.members[i].Ended = end, End{Kind: EndHeld, Op: -1}
		}
	}
}

// create starts a key instance.
func (s *sim) create(key, value, by string, t, deadline int64, op int) {
	ttl := int64(-1)
	if deadline >= 0 {
		ttl = deadline - t
	}
	s.a.keys = append(s.a.keys, KeyLife{Node: s.node, Key: key, Value: value, Owner: by, Start: t, Deadline: deadline, TTL: ttl,
		Set: op, Grant: -1, Observed: true, Ended: End{Kind: EndHeld, Op: -1}})
	s.strs[key] = len(s.a.keys) - 1
}

// grantSlack is how far the node's stamp of a command may fall outside the
// client's [invoke, complete] of the operation that sent it (the two clocks
// are read at different moments).
const grantSlack = int64(2e6) // 2 ms

// matchGrants ties each client acquire (and final probe) to the key or
// member lives its commands created: same node, key, owner and token,
// created within the operation's window. An acquire with an unknown
// outcome that matched a life did take effect, at that instant.
func (a *Account) matchGrants() {
	type slot struct{ node, key, owner string }
	keys, members := map[slot][]int{}, map[slot][]int{}
	for i := range a.keys {
		k := a.keys[i]
		keys[slot{k.Node, k.Key, k.Owner}] = append(keys[slot{k.Node, k.Key, k.Owner}], i)
	}
	for i := range a.members {
		m := a.members[i]
		members[slot{m.Node, m.Key, m.Owner}] = append(members[slot{m.Node, m.Key, m.Owner}], i)
	}
	for idx, op := range a.H.Ops {
		if (op.F != history.Acquire && op.F != history.Probe) || op.Type == history.Fail || op.Key == "" {
			continue
		}
		end := a.endOf(op)
		nodes := op.Value.Nodes
		if len(nodes) == 0 {
			nodes = a.H.Header.Observed
		}
		lockKey := op.Key
		if op.Value.LockKey != "" {
			lockKey = op.Value.LockKey // the algorithm derived its own key
		}
		for _, n := range nodes {
			if !a.Observed[n] {
				continue
			}
			for _, i := range keys[slot{n, lockKey, op.Client}] {
				k := &a.keys[i]
				if k.Grant < 0 && k.Start >= op.Invoke-grantSlack && k.Start <= end+grantSlack && (op.Value.Token == "" || k.Value == op.Value.Token) {
					k.Grant = idx
					break
				}
			}
			for _, i := range members[slot{n, op.Key, op.Client}] {
				m := &a.members[i]
				if m.Grant < 0 && m.Start >= op.Invoke-grantSlack && m.Start <= end+grantSlack && (op.Value.Token == "" || m.Member == op.Value.Token) {
					m.Grant = idx
					break
				}
			}
		}
	}
}
