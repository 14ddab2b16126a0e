package checker

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// Exposure is a window in which a holder acted on the resource after its
// lease had ended (issue 32): from the lock's loss (account Grant.End: its
// key's end on one node, the loss of a quorum on several) to the end of
// the holder's last write on that lease. A contender that tried to take
// the lock inside it could have been granted and made the act a
// violation; a run in which none tried could not have shown one, whatever
// the lock does ("exposure without a test is not a pass").
type Exposure struct {
	Client string `json:"client"`
	Key    string `json:"key"`
	// LeaseEnd is when the holder's lock was lost (wall ns), Ended how
	// (an account End kind: expired, clock, crashed, …).
	LeaseEnd int64  `json:"lease_end_ns"`
	Ended    string `json:"ended"`
	// First and Last are the history indices of the holder's first and
	// last write after LeaseEnd on that lease; Action is the first's
	// action ("charge", …).
	First  int    `json:"first"`
	Last   int    `json:"last"`
	Action string `json:"action"`
	// FirstAt is the First write's invoke (wall ns).
	FirstAt int64 `json:"first_at_ns"`
	// From and To are the window: LeaseEnd to the Last write's completion.
	From int64 `json:"from_ns"`
	To   int64 `json:"to_ns"`
	// Tried: some contender attempted an acquire of the key inside the
	// window (a command of its acquire reached a node then, or, where the
	// nodes' record cannot tell, the acquire was sent then).
	Tried bool `json:"tried"`
	// LastTry and NextTry are the contenders' last attempt before the
	// window and first after it (nil when there was none).
	LastTry *Attempt `json:"last_try,omitempty"`
	NextTry *Attempt `json:"next_try,omitempty"`
	// Short, when no contender tested the window but one tried inside
	// it, is the try that came closest to a grant: its commands found too
	// few nodes free of the lock's key (the holder's or any other) for a
	// grant — of a lock on one node, its node held a key.
	Short *ShortTry `json:"short_try,omitempty"`
}

// ShortTry is a contender's acquire inside an exposure window that could
// not have been granted there: fewer than Need (the quorum, N/2+1; 1 of a
// lock on one node) of the nodes its commands reached were free of the
// lock's key — the holder's, a third client's, or its own left by an
// earlier acquire — when they reached them (a busy machine: client-clock-
// skew beside load, w2's SETs on n1–n4 came 10–25 ms (wall) before w1's
// keys there expired and only its SET on n5 after, and its next try came
// after w1's charge).
type ShortTry struct {
	Client string `json:"client"`
	// At is when it began (its acquire's invoke, wall ns): before the
	// window, or in it; one of its commands reached a node in it. Op is
	// the history index of that acquire.
	At int64 `json:"at_ns"`
	Op int   `json:"op"`
	// Met is how many nodes it found free of the lock's key
	// (quorum.free), Need how many a grant needs.
	Met  int `json:"met"`
	Need int `json:"need"`
	// GaveUp, when set, is why the try, though the nodes let it in, gave
	// the lock up by its own guard (history.RefusalValidity: a quorum set
	// its key, but the acquire took longer than its lease;
	// RefusalNotReplicated: too few replicas acknowledged its key); Met
	// and Need are then 0. Such a try is short of a lock on any number of
	// nodes, and is named before one short of a quorum.
	GaveUp string `json:"gave_up,omitempty"`
	// KeyOwner, of a lock on one node (Need 1, Met 0), is the client whose
	// key of the lock the try's command found on the node: the try's own
	// client when an earlier acquire of its, of unknown outcome, had set
	// it after all (a key no client held as its lease: redis-semaphore
	// 3.2.1's SET timed out while the host slept and landed as n1 woke).
	KeyOwner string `json:"key_owner,omitempty"`
	// ScriptRefused, of a lock on one node (Need 1, Met 0, no KeyOwner),
	// is a try whose script reached the node while its record shows no
	// key of the lock there, and that the lock refused all the same: for
	// a reason of the lock's own — a fair lock's queue headed by another
	// waiter (fair-lock-dead-waiter: a killed waiter's entry kept the free
	// lock from everyone behind it) — or for a key the record missed.
	ScriptRefused bool `json:"script_refused,omitempty"`
	// Granted, when not 0, is when the try was granted: after the window
	// (wall ns). It was in flight in it — invoked by its end, granted
	// after — so its client held nothing there (client-clock-skew seed 33
	// beside load: w2's acquire, invoked 5 ms into the window, set its key
	// on four of five nodes in it and was granted 26 ms after w1's
	// charge). Met and Need are then 0. Named after a try that gave up,
	// before one short of a quorum.
	Granted int64 `json:"granted_ns,omitempty"`
}

// Attempt is one contender's attempt to acquire, at an instant (wall ns):
// its acquire's invoke or completion, or when one of its commands reached
// a node. Op is the history index of its acquire (-1: not told).
type Attempt struct {
	Client string `json:"client"`
	At     int64  `json:"at_ns"`
	Op     int    `json:"op"`
}

// exposures finds every exposure of the run, in the order of the holds. An
// efficiency lock has none: its overlaps are waste, never a violation.
func exposures(a *account.Account) []Exposure {
	h := a.H
	if workload.Of(h.Header).Efficiency {
		return nil
	}
	writes := map[[2]string][]int{} // client, key → its writes, by invoke
	for i, op := range h.Ops {
		if op.F == history.Write && isClientOp(op) {
			k := [2]string{op.Client, op.Key}
			writes[k] = append(writes[k], i)
		}
	}
	var out []Exposure
	var tries *attempts
	for _, hd := range a.Holds {
		if hd.Possible {
			continue
		}
		g, ok := a.GrantOf(hd.Acquire)
		if !ok || g.Ended.Kind == account.EndHeld || g.Ended.Kind == account.EndReleased || g.End >= hd.End {
			continue
		}
		e := Exposure{Client: hd.Client, Key: hd.Key, LeaseEnd: g.End, Ended: g.Ended.Kind, First: -1, Last: -1, From: g.End}
		for _, i := range writes[[2]string{hd.Client, hd.Key}] {
			op := h.Ops[i]
			if op.Invoke <= g.End || op.Invoke > hd.End {
				continue
			}
			if e.First < 0 {
				e.First, e.Action, e.FirstAt = i, actionName(op), op.Invoke
			}
			e.Last = i
			if op.Complete >= 0 {
				e.To = max(e.To, op.Complete)
			} else {
				e.To = a.End()
			}
		}
		if e.First < 0 {
			continue
		}
		if tries == nil {
			tries = newAttempts(a)
		}
		// The command that ended the lease, when another client's: its
		// acquire (a purge of timed-out permits inside its script) asked
		// the lock at the lease's very end.
		var cause *Attempt
		if by := g.Ended.By; by != "" && by != hd.Client && g.Ended.Op >= 0 && g.Ended.Op < len(h.Ops) {
			cause = &Attempt{Client: by, At: h.Ops[g.Ended.Op].Invoke, Op: -1}
		}
		// A try the nodes showed is judged by their record when the
		// grant's key lived there (node events): of a lock on one node, a
		// try refused while a key of the lock was on it — a third
		// client's, or its own from an earlier acquire of unknown outcome
		// — could not have been granted.
		q := quorum{need: 1}
		if len(g.Lives) > 0 {
			need := 1
			if slices.Contains(h.Header.Traits, history.TraitMultiNode) {
				need = a.Quorum()
			}
			q = quorum{need: need, nodes: h.Header.Nodes, key: keyOn(a, hd.Key), down: a.DeadThroughout}
		}
		e.Tried, e.LastTry, e.NextTry, e.Short = tries.around(hd.Client, hd.Key, e.From, e.To, cause, q)
		out = append(out, e)
	}
	return out
}

// quorum is what a multi-node lock's grant needs, for the exposure of one
// holder's grant: need nodes (N/2+1; 1 for a lock on one node, which
// leaves the rest unset) free of the lock's key.
type quorum struct {
	need  int
	nodes []string
	// key is a key of the lock on node at some instant of [from, to]
	// (wall ns), other than one client set there at or after since (its
	// own acquire's), nil when none (keyOn); down whether node was down
	// throughout [from, to].
	key  func(node string, from, to int64, client string, since int64) *account.KeyLife
	down func(node string, from, to int64) bool
}

// taken says whether q.key finds a key of the lock on node in [from, to].
func (q quorum) taken(node string, from, to int64, client string, since int64) bool {
	return q.key(node, from, to, client, since) != nil
}

// free counts the nodes a contender's acquire of [from, to] found free of
// the lock's key — the holder's, and any other client's too (a third
// client's key, granted only after the window, refuses it as well): a
// node one of its tries there (sent: when its commands that asked reached
// it, newAttempts; unseenTry on a node not watched throughout, which
// may have) found free, and a node down throughout the acquire
// with no key on it (a crashed node kept down: had it been up, empty, it
// could have said yes). A node it could not reach otherwise counts for
// nothing. A key of client's own is the acquire's when set at or after
// since (ownSince).
func (q quorum) free(client string, sent map[string][]int64, since, from, to int64) int {
	n := 0
	for _, node := range q.nodes {
		if ats, ok := sent[node]; ok {
			if slices.ContainsFunc(ats, func(at int64) bool { return at == unseenTry || !q.taken(node, at, at, client, since) }) {
				n++
			}
		} else if q.down(node, from, to) && !q.taken(node, from, to, client, since) {
			n++
		}
	}
	return n
}

// ownSince is the instant from which a key of an attempt's own client
// (invoked at from) is the attempt's own, not taken: its invoke, but
// never, of a lock on one node, for an attempt the lock refused — its
// command found a key there, so a key of its client it met was set by an
// earlier acquire of its, however late that SET landed (a SET NX stalled
// while the node slept, run as it woke just after the next acquire began).
func (q quorum) ownSince(from int64, refused bool) int64 {
	if q.need == 1 && refused {
		return math.MaxInt64
	}
	return from
}

// keyOn finds a key locked for the resource key (LockKeysOf) on node at
// some instant of [from, to] (wall ns): a life of it there overlapping
// it, other than client's own set at or after since; nil when none.
func keyOn(a *account.Account, key string) func(node string, from, to int64, client string, since int64) *account.KeyLife {
	return func(node string, from, to int64, client string, since int64) *account.KeyLife {
		for _, lk := range a.LockKeysOf(key) {
			for _, l := range a.LivesOf(node, lk) {
				if l.Start <= to && from < l.End && (l.Owner != client || l.Start < since) {
					return &l
				}
			}
		}
		return nil
	}
}

// attempts indexes the contenders' acquire attempts per key — those with
// an answer the lock's keys decided: granted, or refused, but not an
// attempt of unknown outcome nor one its own replication guard refused —
// as the instants the first command of each acquire reached each node,
// and each later command that set its key there (node events: a later
// round of a library that retries inside one acquire; its other later
// ones there, a refused Redlock's unlocks, ask the lock nothing), or,
// where the nodes' record cannot tell (no node events of that client at
// all, or, of a lock on one node, the node not observed throughout), the
// acquire's whole window from its invoke to its completion (it may have
// reached a node at any instant of it); of a lock on several nodes, only
// the nodes not observed throughout get that whole window (unseen), the
// others their node events.
type attempts struct {
	byKey map[string][]try // sorted by from
}

// nodeEvent is one command a node recorded (wall ns, the node's name, its
// history index).
type nodeEvent struct {
	at   int64
	node string
	op   int
}

// try is one attempt's span [from, to]: one instant when a node showed it.
type try struct {
	client   string
	op       int // the acquire's history index
	from, to int64
	// node is the node that showed it, "" for a whole window.
	node    string
	granted int64 // when its grant answered (wall ns), -1 when refused
	// opFrom and opTo are the whole acquire's window, its invoke to its
	// completion (the end of the history when it had none).
	opFrom, opTo int64
	// gaveUp is the refusal of an attempt its own guard refused
	// (history.RefusalNotReplicated, RefusalValidity), "" for any other.
	gaveUp string
	// unseen: node was not watched throughout the acquire, whose try
	// there is its whole window (it may have found the node free).
	unseen bool
	// script: the command that showed it was a script (EVAL, EVALSHA).
	script bool
}

// unseenTry is the instant quorum.free reads as a try on a node not
// watched throughout the acquire: it counts as free.
const unseenTry = int64(-1)

func newAttempts(a *account.Account) *attempts {
	h := a.H
	sent := map[string][]nodeEvent{} // client → its node events, by instant
	for i, op := range h.Ops {
		if op.F == history.NodeCmd && op.Process == history.NodeProcess && op.Client != "" && !op.Value.Lua {
			sent[op.Client] = append(sent[op.Client], nodeEvent{at: op.Invoke, node: op.Value.Node, op: i})
		}
	}
	setKey := map[int]bool{} // the node events that set a lock key of their client's
	setKeysOf := map[string]bool{}
	for _, v := range sent {
		slices.SortStableFunc(v, func(x, y nodeEvent) int { return cmp.Compare(x.at, y.at) })
	}
	t := &attempts{byKey: map[string][]try{}}
	multi := slices.Contains(h.Header.Traits, history.TraitMultiNode)
	for oi, op := range h.Ops {
		if op.F != history.Acquire || !isClientOp(op) || op.Client == history.ProbeClient {
			continue
		}
		end := op.Complete
		if end < 0 {
			end = a.End()
		}
		// A multi-node acquire of unknown outcome whose commands the
		// watched nodes ran (redlock-delayed-restart: "2/5 nodes granted,
		// 3 did not answer" while n3 stayed down) asked the lock: the
		// nodes that answered decided, and a lock that let n3 back in
		// early would have granted it. It tests by its node events only.
		partial := op.Type == history.Info && multi && len(sent[op.Client]) > 0 && acquireWatched(a, op, end)
		if op.Type == history.Info && !partial {
			// No answer: the contender never knew itself granted, so it
			// could not have acted; it tested nothing.
			continue
		}
		// Refused by its own guard — its replication guard (WAIT short of
		// acknowledgements: the node let it in, and with its replicas on
		// time it would have been granted) or its lease's validity (a
		// quorum set its key, but the acquire took longer than the
		// lease): the contender gave the lock up and could not have
		// acted. It tests nothing, but a window it tried in is told by it.
		gaveUp := ""
		if r := op.Value.Refusal; r == history.RefusalNotReplicated || r == history.RefusalValidity {
			gaveUp = r
		}
		granted := int64(-1)
		if op.Type == history.OK {
			granted = end
		}
		add := func(from, to int64, node string) {
			t.byKey[op.Key] = append(t.byKey[op.Key], try{client: op.Client, op: oi, from: from, to: to, node: node, granted: granted, opFrom: op.Invoke, opTo: end, gaveUp: gaveUp})
		}
		evs := sent[op.Client]
		if len(evs) == 0 || !multi && !acquireWatched(a, op, end) {
			add(op.Invoke, end, "")
			continue
		}
		// Of a lock on several nodes, a node not watched throughout the
		// acquire may have been reached, free, at any instant of it: an
		// unseen try there (it counts free); the watched nodes still
		// say what they ran.
		nodes := op.Value.Nodes
		if len(nodes) == 0 {
			nodes = h.Header.Nodes
		}
		for _, n := range nodes {
			if !watched(a, n, op.Invoke, end) && !a.DeadThroughout(n, op.Invoke, end) {
				t.byKey[op.Key] = append(t.byKey[op.Key], try{client: op.Client, op: oi, from: op.Invoke, to: end, node: n, granted: granted, opFrom: op.Invoke, opTo: end, gaveUp: gaveUp, unseen: true})
			}
		}
		if !setKeysOf[op.Key] {
			setKeysOf[op.Key] = true
			for _, n := range h.Header.Nodes {
				for _, lk := range a.LockKeysOf(op.Key) {
					for _, l := range a.LivesOf(n, lk) {
						if l.Set >= 0 && l.Set < len(h.Ops) && h.Ops[l.Set].F == history.NodeCmd && h.Ops[l.Set].Client == l.Owner {
							setKey[l.Set] = true
						}
					}
				}
			}
		}
		// Each node's first command of the acquire is its try there, and
		// so is a later one that set its key (a library's next round);
		// the others (a refused Redlock's unlocks) ask the lock nothing.
		tried := map[string]bool{}
		for j := sort.Search(len(evs), func(j int) bool { return evs[j].at >= op.Invoke }); j < len(evs) && evs[j].at <= end; j++ {
			if ev := evs[j]; !tried[ev.node] || setKey[ev.op] {
				tried[ev.node] = true
				add(ev.at, ev.at, ev.node)
				last := &t.byKey[op.Key][len(t.byKey[op.Key])-1]
				last.script = account.IsScript(h.Ops[ev.op].Value.Cmd)
			}
		}
	}
	for _, v := range t.byKey {
		slices.SortStableFunc(v, func(x, y try) int { return cmp.Compare(x.from, y.from) })
	}
	return t
}

// acquireWatched reports whether every node op may have reached was
// observed throughout its window [op.Invoke, end] (watched, node by node),
// or down throughout it (a crash's recorded down window: it ran nothing).
func acquireWatched(a *account.Account, op history.Op, end int64) bool {
	nodes := op.Value.Nodes
	if len(nodes) == 0 {
		nodes = a.H.Header.Nodes
	}
	for _, n := range nodes {
		if !watched(a, n, op.Invoke, end) && !a.DeadThroughout(n, op.Invoke, end) {
			return false
		}
	}
	return true
}

// around says whether a client other than holder attempted to acquire key
// within [from, to], and the others' last attempt before and first after.
// An attempt granted only after to tests nothing either: the lock let it
// in, but its holder could act only once the exposure was over (on a
// busy machine, a slow answer); it counts as the next attempt.
//
// An acquire in flight across the lease's end (from) tested the window,
// though its first command reached the node just before it, when it was
// granted by to (the lock let a contender in as the lease ended) or when
// its own command ended the lease (cause: a fair semaphore's acquire
// script purges the timed-out permit, then admits its caller).
//
// Where the nodes' record holds the grant's keys (q.nodes set), an
// attempt the nodes showed tests the window only when, by to, it found
// q.need nodes free of the lock's key (quorum.free: the quorum of a lock
// on several nodes, 1 of a lock on one); one that tried inside the window
// with fewer could not have been granted there, and the closest of those
// is short. An attempt its own guard refused (gaveUp)
// tests nothing on any lock; one inside the window is short before them.
func (t *attempts) around(holder, key string, from, to int64, cause *Attempt, q quorum) (tried bool, last, next *Attempt, short *ShortTry) {
	type attempt struct {
		client       string
		op           int
		opFrom, opTo int64
	}
	sent := map[attempt]map[string][]int64{} // an attempt's tries on each node, by to
	inside := map[attempt]bool{}             // an attempt with a node command inside the window
	gaveUp := map[attempt]string{}           // an attempt its own guard refused, inside the window
	var order []attempt                      // those and the attempts that gave up, as met
	before := map[attempt]int64{}            // an attempt's last instant before the window
	after := map[attempt]int64{}             // an attempt's first instant after it (or its late grant)
	late := map[attempt]int64{}              // an attempt in flight in the window, granted after it: its grant
	refused := map[attempt]bool{}            // an attempt the nodes showed that the lock refused
	scripted := map[attempt]bool{}           // such an attempt whose command was a script
	for _, tr := range t.byKey[key] {
		spans := tr.opFrom <= from && from <= tr.opTo
		caused := cause != nil && cause.Client == tr.client && tr.opFrom <= cause.At && cause.At <= tr.opTo
		byQuorum := q.nodes != nil && tr.node != "" && tr.client != holder && (tr.granted < 0 || tr.granted <= to)
		at := attempt{tr.client, tr.op, tr.opFrom, tr.opTo}
		if tr.client != holder && tr.gaveUp == "" && tr.granted > to && tr.opFrom <= to {
			late[at] = tr.granted // in flight in the window: neither before it nor after
		}
		if tr.gaveUp != "" {
			if tr.client != holder && tr.from <= to && tr.to >= from && gaveUp[at] == "" {
				gaveUp[at] = tr.gaveUp
				order = append(order, at)
			}
			continue
		}
		if byQuorum && tr.from <= to {
			if sent[at] == nil {
				sent[at] = map[string][]int64{}
			}
			inst := tr.from
			if tr.unseen {
				inst = unseenTry
			}
			sent[at][tr.node] = append(sent[at][tr.node], inst)
			refused[at] = tr.granted < 0
			scripted[at] = scripted[at] || tr.script
		}
		switch {
		case tr.client == holder:
		case spans && tr.granted >= 0 && tr.granted <= to, caused:
			tried = true
		case tr.to < from:
			if b, ok := before[at]; !ok || tr.to > b {
				before[at] = tr.to
			}
		case tr.from <= to && (tr.granted < 0 || tr.granted <= to):
			if !byQuorum {
				tried = true
			} else if !inside[at] {
				inside[at] = true
				order = append(order, at)
			}
		case tr.from <= to:
			// Granted after the window: it is next from its grant on.
			if a, ok := after[at]; !ok || tr.granted < a {
				after[at] = tr.granted
			}
		default:
			// Its first instant after the window: its invoke, when it
			// began after it, else when it first reached a node (the
			// next try is the first begun: sweep seed 1005, w3's acquire
			// invoked 0.2 ms after w2's reached the node after it).
			inst := tr.from
			if tr.opFrom > to {
				inst = min(inst, tr.opFrom)
			}
			if a, ok := after[at]; !ok || inst < a {
				after[at] = inst
			}
		}
	}
	met := map[attempt]int{}
	for at, s := range sent {
		met[at] = q.free(at.client, s, q.ownSince(at.opFrom, refused[at]), at.opFrom, min(at.opTo, to))
		if q.need == 1 && refused[at] && scripted[at] {
			// Its script ran the lock's whole decision on a node the
			// record shows free: the lock refused it for a reason of its
			// own (a fair lock's queue), not for want of a free node.
			met[at] = 0
		}
		if met[at] >= q.need {
			tried = true
		}
	}
	// The last try before the window and the next after it are ones that
	// had no command inside it: the earlier and later commands of an
	// attempt inside it are that attempt.
	for at, b := range before {
		if _, l := late[at]; !inside[at] && !l && (last == nil || b > last.At || b == last.At && at.client < last.Client) {
			last = &Attempt{Client: at.client, At: b, Op: at.op}
		}
	}
	for at, n := range after {
		if _, l := late[at]; !inside[at] && !l && (next == nil || n < next.At || n == next.At && at.client < next.Client) {
			next = &Attempt{Client: at.client, At: n, Op: at.op}
		}
	}
	if tried {
		return tried, last, next, nil
	}
	for _, at := range order {
		if gaveUp[at] != "" {
			short = &ShortTry{Client: at.client, At: at.opFrom, Op: at.op, GaveUp: gaveUp[at]}
			return tried, last, next, short
		}
	}
	for at, g := range late {
		if short == nil || at.opFrom < short.At || at.opFrom == short.At && at.client < short.Client {
			short = &ShortTry{Client: at.client, At: at.opFrom, Op: at.op, Granted: g}
		}
	}
	if short != nil {
		return tried, last, next, short
	}
	for _, at := range order {
		switch {
		case gaveUp[at] != "":
			if short == nil || short.GaveUp == "" {
				short = &ShortTry{Client: at.client, At: at.opFrom, Op: at.op, GaveUp: gaveUp[at]}
			}
		case short == nil || short.GaveUp == "" && met[at] > short.Met:
			short = &ShortTry{Client: at.client, At: at.opFrom, Op: at.op, Met: met[at], Need: q.need}
			if q.need == 1 {
				short.KeyOwner = keyOwner(q, at.client, q.ownSince(at.opFrom, refused[at]), sent[at])
				short.ScriptRefused = short.KeyOwner == "" && refused[at] && scripted[at]
			}
		}
	}
	return tried, last, next, short
}

// keyOwner is whose key of the lock the first of a try's commands on a
// node found there (sent: its commands' instants, by node), "" when the
// record cannot tell.
func keyOwner(q quorum, client string, since int64, sent map[string][]int64) string {
	for _, node := range q.nodes {
		for _, at := range sent[node] {
			if at != unseenTry {
				if l := q.key(node, at, at, client, since); l != nil && l.Owner != "" {
					return l.Owner
				}
			}
		}
	}
	return ""
}

// untested is the first exposure of the run no contender tested, when no
// exposure of the run was tested. A run with a tested exposure showed the
// lock (or its fence) facing a contender while a holder acted past its
// lease, so it did test safety; one whose every exposure went untested
// could not have shown a violation (issue 32: "exposure without a test is
// not a pass"). Its Exposure names the first untested window.
func untested(es []Exposure) (Exposure, bool) {
	for _, e := range es {
		if e.Tried {
			return Exposure{}, false
		}
	}
	if len(es) == 0 {
		return Exposure{}, false
	}
	return es[0], true
}
