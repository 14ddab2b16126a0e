package account

import (
	"math"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/history"
)

// command is one node event as the model replays it.
type command struct {
	i    int         // its history index
	op   *history.Op // the event
	name string      // the command's name, lower case
	args []string    // the command and its arguments, as the node ran them
	t    int64       // the node's stamp, true ns
}

// commands is the model of the Redis commands locksim's algorithms and
// workloads send (strings with TTLs, counters, sorted sets), one entry per
// command name (lower case): what the command does to the node's keys and
// members. A command not in the table changes nothing in the model.
var commands = map[string]func(*sim, command){
	"set":              (*sim).cmdSet,
	"setnx":            (*sim).cmdSetNX,
	"get":              (*sim).cmdGet,
	"del":              (*sim).cmdDel,
	"unlink":           (*sim).cmdDel,
	"getdel":           (*sim).cmdDel,
	"pexpire":          (*sim).cmdExpire,
	"expire":           (*sim).cmdExpire,
	"pexpireat":        (*sim).cmdExpire,
	"expireat":         (*sim).cmdExpire,
	"persist":          (*sim).cmdPersist,
	"incr":             (*sim).cmdIncr,
	"decr":             (*sim).cmdIncr,
	"incrby":           (*sim).cmdIncr,
	"decrby":           (*sim).cmdIncr,
	"zadd":             (*sim).cmdZAdd,
	"zrem":             (*sim).cmdZRem,
	"zremrangebyscore": (*sim).cmdZRemRangeByScore,
	"zinterstore":      (*sim).cmdZInterStore,
	"flushall":         (*sim).cmdFlush,
	"flushdb":          (*sim).cmdFlush,
}

// exec replays the node event at history index i through the model.
func (s *sim) exec(i int, op *history.Op) {
	c := command{i: i, op: op, name: strings.ToLower(op.Value.Cmd[0]), args: op.Value.Cmd, t: op.Invoke}
	s.by = op.Client
	if s.by == "" {
		s.by = s.senderByToken(op)
	}
	if run, ok := commands[c.name]; ok {
		run(s, c)
	}
}

// cmdSet is SET key value [NX|XX] [PX|EX|PXAT|EXAT n|KEEPTTL]: a SET of the
// live key's own owner and value moves its deadline; any other SET
// replaces it (overwritten), unless NX finds it or XX does not.
func (s *sim) cmdSet(c command) {
	args, t, by := c.args, c.t, s.by
	if len(args) < 3 {
		return
	}
	key, val := args[1], args[2]
	found := int64(-1) // the earliest deadline of the key the model held, if this SET finds it gone
	if j, ok := s.strs[key]; ok && s.a.keys[j].Deadline >= 0 {
		found = s.earliest(&s.a.keys[j])
	}
	s.settle(key, t)
	nx, xx, ttl, keep := false, false, int64(-1), false
	for j := 3; j < len(args); j++ {
		switch u := strings.ToLower(args[j]); u {
		case "nx":
			nx = true
		case "xx":
			xx = true
		case "keepttl":
			keep = true
		case "px", "ex", "pxat", "exat":
			if j+1 < len(args) {
				ttl = s.deadline(u, args[j+1], t)
				j++
			}
		}
	}
	cur, exists := s.strs[key]
	if nx && exists && s.overrules(c.op, val, cur) {
		s.a.keys[cur].retracted = true
		delete(s.strs, key)
		exists = false
	}
	switch {
	case nx && exists:
		s.a.metBy[c.i] = s.a.keys[cur].Set // the key this SET NX found: whose key refused it
		return
	case xx && !exists:
		return
	case nx && s.refused(c.op, val):
		return // the node had a key the model lost (see refused)
	case exists:
		k := &s.a.keys[cur]
		if k.Owner == by && k.Value == val {
			d := ttl
			if keep {
				d = k.Deadline
			}
			k.Deadline, k.dumped, k.ranEarlier = d, false, s.stopEndedBefore(t)
			k.Moves = append(k.Moves, Move{At: t, Deadline: d, By: by, Op: c.i})
			return
		}
		if keep {
			ttl = k.Deadline
		}
		s.endKey(key, t, End{Kind: EndOverwritten, By: by, Op: c.i})
	}
	if _, ok := s.strs[key]; ok {
		found = -1 // it replaces a key that stood: no bound from one gone
	}
	s.create(key, val, by, t, ttl, c.i)
	s.a.keys[s.strs[key]].ranEarlier = s.ranSince(t, found)
}

// cmdSetNX is SETNX key value: a key with no TTL, when there is none.
func (s *sim) cmdSetNX(c command) {
	if len(c.args) < 3 {
		return
	}
	s.settle(c.args[1], c.t)
	if cur, exists := s.strs[c.args[1]]; exists {
		s.a.metBy[c.i] = s.a.keys[cur].Set
	} else if !s.refused(c.op, c.args[2]) {
		s.create(c.args[1], c.args[2], s.by, c.t, -1, c.i)
	}
}

// cmdGet is GET: it changes nothing, but a compare script's GET that went
// on to remove or extend the key shows the node held the caller's token
// then. A life of that value the model ended at the node's last crash
// survived it (its persistence kept it; the node's dump may come later, or
// never): it lives on.
func (s *sim) cmdGet(c command) {
	if !c.op.Value.Lua || len(c.args) < 2 {
		return
	}
	key := c.args[1]
	tok, ok := s.scriptArg(s.p)
	if _, live := s.strs[key]; live || !ok || !s.wentOn(s.p, key) {
		return
	}
	crash, crashed := s.lastCrash(c.t)
	if j := s.crashedLife(key, tok, crash, crashed); j >= 0 {
		s.revive(key, j)
	}
}

// cmdDel is DEL, UNLINK (any number of keys) and GETDEL (one key): each
// key and sorted set named goes, told by who removed whose (removal).
func (s *sim) cmdDel(c command) {
	keys := c.args[1:]
	if c.name == "getdel" && len(keys) > 1 {
		keys = keys[:1]
	}
	by := s.by
	for _, key := range keys {
		s.settle(key, c.t)
		if j, ok := s.strs[key]; ok {
			k := &s.a.keys[j]
			if tok, isScript := s.scriptArg(s.p); c.op.Value.Lua && isScript && k.Owner == "" && tok == k.Value {
				// A compare-and-delete removes only its caller's token:
				// a key of unknown sender holding it was the caller's.
				k.Owner = by
			}
			s.endKey(key, c.t, s.removal(k.Owner, by, key, c.t, c.i))
		}
		for member, j := range s.zsets[key] {
			s.endMember(key, member, c.t, s.removal(s.a.members[j].Owner, by, key, c.t, c.i))
		}
	}
}

// cmdExpire is PEXPIRE, EXPIRE, PEXPIREAT and EXPIREAT: the live key's new
// deadline (a deadline already past removes it). The harness's own one
// inside a node-clock step is that step's shift, not a client's extend.
func (s *sim) cmdExpire(c command) {
	args, t, by := c.args, c.t, s.by
	if len(args) < 3 {
		return
	}
	key := args[1]
	s.settle(key, t)
	j, ok := s.strs[key]
	if !ok {
		return
	}
	unit := map[string]string{"pexpire": "px", "expire": "ex", "pexpireat": "pxat", "expireat": "exat"}[c.name]
	d := s.deadline(unit, args[2], t)
	k := &s.a.keys[j]
	mv := Move{At: t, Deadline: d, By: by, Op: c.i}
	if by == history.AdminClient {
		// Only a node clock step moves a deadline for the harness: its
		// shift script, even one that ran after its step's operation had
		// timed out (the node's record, not the nemesis's, says it ran).
		mv.Clock, mv.Step = true, s.clockStepBefore(t)
	}
	if d >= 0 && d <= t {
		e := s.removal(k.Owner, by, key, t, c.i)
		if mv.Clock {
			e = End{Kind: EndClock, By: by, Op: c.i, Step: mv.Step}
		}
		s.endKey(key, t, e)
		return
	}
	k.Deadline, k.dumped, k.ranEarlier = d, false, 0
	if !mv.Clock {
		k.ranEarlier = s.stopEndedBefore(t) // a move sent before a node stop may have run before it
	}
	k.Moves = append(k.Moves, mv)
}

// cmdPersist is PERSIST key: the live key keeps no deadline.
func (s *sim) cmdPersist(c command) {
	if len(c.args) < 2 {
		return
	}
	s.expire(c.args[1], c.t)
	if j, ok := s.strs[c.args[1]]; ok {
		s.a.keys[j].Deadline, s.a.keys[j].dumped, s.a.keys[j].ranEarlier = -1, false, 0
		s.a.keys[j].Moves = append(s.a.keys[j].Moves, Move{At: c.t, Deadline: -1, By: s.by, Op: c.i})
	}
}

// cmdIncr is INCR, DECR, INCRBY and DECRBY: a counter (created at 0 with
// no TTL) and the value each command left (Counters).
func (s *sim) cmdIncr(c command) {
	if len(c.args) < 2 {
		return
	}
	key := c.args[1]
	s.expire(key, c.t)
	d := int64(1)
	if (c.name == "incrby" || c.name == "decrby") && len(c.args) > 2 {
		d, _ = strconv.ParseInt(c.args[2], 10, 64)
	}
	if c.name == "decr" || c.name == "decrby" {
		d = -d
	}
	j, ok := s.strs[key]
	if !ok {
		s.create(key, "0", s.by, c.t, -1, c.i)
		j = s.strs[key]
	}
	k := &s.a.keys[j]
	v, _ := strconv.ParseInt(k.Value, 10, 64)
	v += d
	k.Value = strconv.FormatInt(v, 10)
	s.a.counters = append(s.a.counters, CounterValue{Node: s.node, Key: key, At: c.t, Value: v, By: s.by, Op: c.i})
}

// cmdZRem is ZREM key member...: each member named goes, told like a DEL.
func (s *sim) cmdZRem(c command) {
	if len(c.args) < 3 {
		return
	}
	key := c.args[1]
	for _, m := range c.args[2:] {
		if j, ok := s.zsets[key][m]; ok {
			s.endMember(key, m, c.t, s.removal(s.a.members[j].Owner, s.by, key, c.t, c.i))
		}
	}
}

// cmdZRemRangeByScore is ZREMRANGEBYSCORE key min max: the members scored
// in the range are purged (a semaphore's timed-out permits).
func (s *sim) cmdZRemRangeByScore(c command) {
	if len(c.args) < 4 {
		return
	}
	key := c.args[1]
	lo, loEx := scoreBound(c.args[2])
	hi, hiEx := scoreBound(c.args[3])
	for member, j := range s.zsets[key] {
		sc := s.a.members[j].Score
		if (sc > lo || (!loEx && sc == lo)) && (sc < hi || (!hiEx && sc == hi)) {
			s.endMember(key, member, c.t, End{Kind: EndPurged, By: s.by, Op: c.i})
		}
	}
}

// cmdFlush is FLUSHALL and FLUSHDB: every key and member goes (a key
// whose deadline had already passed expired first).
func (s *sim) cmdFlush(c command) {
	for key := range s.strs {
		s.expire(key, c.t)
	}
	for key := range s.strs {
		s.endKey(key, c.t, End{Kind: EndFlushed, By: s.by, Op: c.i})
	}
	for key, m := range s.zsets {
		for member := range m {
			s.endMember(key, member, c.t, End{Kind: EndFlushed, By: s.by, Op: c.i})
		}
	}
}

// deadline is the deadline, on the run's clock, that a TTL argument sets
// at t: unit px (ms from t), ex (s from t), pxat (unix ms), exat (unix s)
// — SET's PX, EX, PXAT and EXAT; PEXPIRE, EXPIRE, PEXPIREAT and EXPIREAT.
// The node counts it on its wall clock, which may run at another rate than
// the run's (Header.NodeDuration, NodeInstant: an absolute one is mapped
// with the run's start); a node clock fault shifts TTLs, not the node's
// clock. -1 when the value does not parse, or for an absolute one
// in a history that does not say when it started (history.Validate
// refuses such a file).
func (s *sim) deadline(unit, v string, t int64) int64 {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return -1
	}
	mul := int64(1e6)
	if unit == "ex" || unit == "exat" {
		mul = 1e9
	}
	limit := math.MaxInt64 / mul / 4 // far past any run, and no overflow below
	n = min(max(n, -limit), limit)
	switch unit {
	case "px", "ex":
		return t + s.a.H.Header.NodeDuration(n*mul)
	case "pxat", "exat":
		if at, ok := s.a.H.Header.NodeInstant(n * mul); ok {
			return at
		}
	}
	return -1
}

func scoreBound(s string) (float64, bool) {
	ex := strings.HasPrefix(s, "(")
	s = strings.TrimPrefix(s, "(")
	switch strings.ToLower(s) {
	case "-inf":
		return math.Inf(-1), ex
	case "+inf", "inf":
		return math.Inf(1), ex
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN(), ex
	}
	return v, ex
}

// cmdZAdd is ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member ...: new
// members start a life, known ones take the new score (unless NX).
func (s *sim) cmdZAdd(c command) {
	args := c.args
	if len(args) < 4 {
		return
	}
	key, t, by := args[1], c.t, c.op.Client
	j := 2
	nx, xx := false, false
	for ; j < len(args); j++ {
		switch strings.ToLower(args[j]) {
		case "nx":
			nx = true
			continue
		case "xx":
			xx = true
			continue
		case "gt", "lt", "ch", "incr":
			continue
		}
		break
	}
	for ; j+1 < len(args); j += 2 {
		sc, err := strconv.ParseFloat(args[j], 64)
		if err != nil {
			return
		}
		member := args[j+1]
		m := s.zsets[key]
		if pos, ok := m[member]; ok {
			if !nx {
				s.a.members[pos].Score = sc
			}
			continue
		}
		if xx {
			continue
		}
		if m == nil {
			m = map[string]int{}
			s.zsets[key] = m
		}
		s.a.members = append(s.a.members, MemberLife{Node: s.node, Key: key, Member: member, Owner: by, Start: t,
			Score: sc, Set: c.i, Grant: -1, Observed: true, Ended: End{Kind: EndHeld, Op: -1}})
		m[member] = len(s.a.members) - 1
	}
}

// cmdZInterStore keeps in dest the members of every source, scored by the
// weighted sum (locksim's fair semaphore intersects its owner set with its
// timeout set, which only drops the timed-out owners).
func (s *sim) cmdZInterStore(c command) {
	args := c.args
	if len(args) < 4 {
		return
	}
	dest, t, by := args[1], c.t, c.op.Client
	n, err := strconv.Atoi(args[2])
	if err != nil || len(args) < 3+n {
		return
	}
	srcs := args[3 : 3+n]
	weights := make([]float64, n)
	for w := range weights {
		weights[w] = 1
	}
	rest := args[3+n:]
	for j := 0; j < len(rest); j++ {
		if strings.EqualFold(rest[j], "weights") {
			for w := 0; w < n && j+1+w < len(rest); w++ {
				weights[w], _ = strconv.ParseFloat(rest[j+1+w], 64)
			}
		}
	}
	keep := map[string]float64{}
	for member, pos := range s.zsets[srcs[0]] {
		sum := s.a.members[pos].Score * weights[0]
		in := true
		for w, src := range srcs[1:] {
			p, ok := s.zsets[src][member]
			if !ok {
				in = false
				break
			}
			sum += s.a.members[p].Score * weights[w+1]
		}
		if in {
			keep[member] = sum
		}
	}
	for member := range s.zsets[dest] {
		if _, ok := keep[member]; !ok {
			s.endMember(dest, member, t, End{Kind: EndPurged, By: by, Op: c.i})
		}
	}
	for member, sc := range keep {
		if pos, ok := s.zsets[dest][member]; ok {
			s.a.members[pos].Score = sc
			continue
		}
		if s.zsets[dest] == nil {
			s.zsets[dest] = map[string]int{}
		}
		s.a.members = append(s.a.members, MemberLife{Node: s.node, Key: dest, Member: member, Owner: by, Start: t,
			Score: sc, Set: c.i, Grant: -1, Observed: true, Ended: End{Kind: EndHeld, Op: -1}})
		s.zsets[dest][member] = len(s.a.members) - 1
	}
}
