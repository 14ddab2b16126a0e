package report

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

// Step is one line of the story of a run.
type Step struct {
	T    float64 `json:"t"`    // scenario seconds since the run's start
	Text string  `json:"text"` // one sentence, in Input.Lang, without the time
	Kind string  `json:"kind"` // one of the Step* kinds
	// Info marks a StepViolated step about an informational anomaly (it
	// does not make the run invalid).
	Info bool `json:"info,omitempty"`
	// Claim is the id of the claim (Results.Claims) the step renders: its
	// sentence's facts — who, which key, when, how it ended — are that
	// claim's, and T lies within the claim's [Start, End]. A StepMore line
	// carries the claim of the first step it leaves out (it says where
	// the left-out stretch begins).
	Claim string `json:"claim"`
}

// Step kinds.
const (
	StepAcquire  = "acquire"  // a lock granted (or an acquire with unknown outcome)
	StepRetries  = "retries"  // a run of refused acquire attempts, summarised
	StepRead     = "read"     // a read of the resource
	StepWrite    = "write"    // a write the resource accepted
	StepRefused  = "refused"  // a write the resource refused
	StepRelease  = "release"  // a release (removing or not)
	StepExtend   = "extend"   // a renewal
	StepLost     = "lost"     // the client concluded its lease was lost
	StepDone     = "done"     // the client left its critical section
	StepFault    = "fault"    // a fault started (e.g. a pause)
	StepHeal     = "heal"     // a fault ended (e.g. the paused client woke up)
	StepExpiry   = "expiry"   // a key expired in Redis (derived, not an op)
	StepProbe    = "probe"    // the final liveness probe
	StepViolated = "violated" // an anomaly became true
	StepMore     = "more"     // a stretch of a long story left out, counted (see maxStorySteps)
)

// String renders a step as "t=30.0s  text" (in English).
func (s Step) String() string { return "t=" + instantIn(English, s.T) + "s  " + s.Text }

type rawStep struct {
	ns   int64
	prio int
	seq  int
	// after are the grants (holder: client, key, token) whose keys the
	// step names as refusing it: it is told after each one's grant step
	// (grantAt), never before the event it names (reader9, finding B).
	after []holder
	// late: moved to its holder's grant, told after the steps of its
	// prio at that instant.
	late bool
	Step
}

// Narrative builds the step-by-step story of in.History in scenario time:
// grants, reads, writes (accepted or refused), releases, faults and their
// end, key expiries derived from TTLs, and the instants the anomalies of
// in.Results became true. Runs of refused acquire attempts are summarised
// in one step each. Steps are ordered by time.
func Narrative(in Input) []Step { return narrative(in, newModel(in.History, in.Account)) }

func narrative(in Input, m *model) []Step {
	n := newNarrator(in, m)
	n.operations()
	n.faults()
	n.losses()
	n.existsChecks()
	n.permits()
	n.keysWithoutTTL()
	n.anomalies()
	return capStory(n.lang, n.steps())
}

// narrator tells a run's story, one source of facts at a time (the
// operations, the fault windows, the account's key and permit ends, the
// checkers' anomalies), into raw steps that steps orders by time.
type narrator struct {
	in   Input
	m    *model
	lang Lang
	kind workload.Kind
	// told is the workload's own teller of its reads and writes (it keeps
	// what the sentences need: the stock before a sale, how often a job
	// ran, who is inside a semaphore); nil when it has none.
	told workload.Teller
	// claims are the run's numbered claims (runClaims): every step renders
	// one and takes its facts from it.
	claims  *storyClaims
	raw     []rawStep
	pending map[clientKey]*tries // a client's current run of refused acquires
	// fireOf is the cron fire time each refused acquire was for, by
	// history index (workload.FireTimes).
	fireOf map[int]workload.Fire
	// grantAt is when each grant's step is told (its believed hold's
	// start, or the acquire's end), by holder.
	grantAt map[holder]int64
}

func newNarrator(in Input, m *model) *narrator {
	n := &narrator{in: in, m: m, lang: in.Lang, kind: workload.Of(in.History.Header), pending: map[clientKey]*tries{},
		grantAt: map[holder]int64{}, claims: newStoryClaims(runClaims(in, m))}
	if n.kind.Tell != nil {
		n.told = n.kind.Tell(in.History)
	}
	if fires, ok := workload.FireTimes(in.History); ok {
		n.fireOf = map[int]workload.Fire{}
		for _, f := range fires {
			for _, i := range f.Refused {
				n.fireOf[i] = f
			}
		}
	}
	return n
}

// add tells one step at ns, rendering the claim c.
func (n *narrator) add(ns int64, prio int, kind string, c claim.Claim, text string) {
	n.raw = append(n.raw, rawStep{ns: ns, prio: prio, seq: len(n.raw), Step: Step{T: n.m.sec(ns), Kind: kind, Text: text, Claim: c.ID}})
}

// addID tells one step at ns, rendering the claim whose id is id.
func (n *narrator) addID(ns int64, prio int, kind, id, text string) {
	n.raw = append(n.raw, rawStep{ns: ns, prio: prio, seq: len(n.raw), Step: Step{T: n.m.sec(ns), Kind: kind, Text: text, Claim: id}})
}

// flush tells the pending run of refused attempts of client on key.
func (n *narrator) flush(client, key string) {
	k := clientKey{client, key}
	t := n.pending[k]
	if t == nil {
		return
	}
	delete(n.pending, k)
	var whose []any // whose key refused them, for "n.tries.by"
	if t.by != "" {
		whose = []any{t.by, t.node}
	}
	if t.as != "" {
		whose = append(whose, t.as)
	}
	if t.n == 1 {
		if t.won != "" && len(whose) > 1 {
			whose[1] = t.node + t.won // where its own SET took the key: told of one attempt
		}
		n.addID(t.first, 2, StepRetries, t.claim, tr(n.lang, t.msg+".one", append([]any{client, key}, whose...)...))
	} else {
		n.addID(t.first, 2, StepRetries, t.claim, tr(n.lang, t.msg, append([]any{client, key, t.n, instant(n.m.sec(t.first)), instant(n.m.sec(t.last))}, whose...)...))
	}
	if t.by != "" {
		n.raw[len(n.raw)-1].after = t.holders
	}
}

func (n *narrator) tokenText(fence int64, token string) string {
	return n.m.tokenText(n.lang, fence, token)
}

// withToken is " with fencing token 7" (or the owner token a
// check-and-set resource compares) for a write, "" without one.
func (n *narrator) withToken(o history.Op) string {
	if f := n.m.fenceOf(o); f > 0 {
		return tr(n.lang, withFence(n.in.History.Header), f)
	}
	if o.F == history.Write && o.Value.Token != "" && n.in.History.Header.CheckAndSet {
		return " " + tr(n.lang, "n.with.word") + " " + n.m.tokenText(n.lang, 0, o.Value.Token)
	}
	return ""
}

// withFence is the message of a write's number: " with token 2" when
// the lock issued it (a fencing token), " with epoch 2" when it is the
// leader workload's own epoch, the lock issuing none (a fresh reader of
// scheduler-heartbeat-foreign-queue: "w2's leader action … with token 2"
// beside "owner token 1" and "the lock issues no fencing token").
func withFence(h history.Header) string {
	if k, ok := workload.Lookup(h.Workload); ok && k.Epoch && !h.LockFences() {
		return "n.with.epoch"
	}
	return "n.with.token"
}

// say renders the workload teller's sentence, when it has one.
func (n *narrator) say(w workload.Words, ok bool) (string, bool) {
	if !ok {
		return "", false
	}
	return say(n.lang, w), true
}

// operations tells the clients' operations, by kind.
func (n *narrator) operations() {
	for i, o := range n.in.History.Ops {
		if o.F == history.Fault || o.Process == history.NodeProcess {
			// Node events are told from the account, and must not break a
			// client's run of refused acquires into one step per SET NX.
			continue
		}
		if !(o.F == history.Acquire && o.Type == history.Fail) {
			n.flush(o.Client, o.Key)
		}
		c := n.claims.op(i)
		switch o.F {
		case history.Acquire, history.Probe:
			n.acquire(i, o, c)
		case history.Read:
			n.read(o, c)
		case history.Write:
			n.write(o, c)
		case history.Release:
			n.release(i, o, c)
		case history.Extend:
			n.extend(o, c)
		case history.Lost, history.Done, history.Stopped:
			// Its claim's second record is the write it went on with.
			n.ended(c, o.F == history.Lost && c.Kind == claim.Op && len(c.Records) > 1)
		}
	}
	// In client and key order: runs told at the same instant keep one
	// order from run to run (a map's would not).
	keys := slices.SortedFunc(maps.Keys(n.pending), func(a, b clientKey) int {
		return cmp.Or(cmp.Compare(a.client, b.client), cmp.Compare(a.key, b.key))
	})
	for _, k := range keys {
		n.flush(k.client, k.key)
	}
}

// acquire tells an acquire or the final probe from its claim c (its
// believed hold, the refusal whose key the nodes show, or its own record):
// a refusal joins its client's run of refused attempts.
func (n *narrator) acquire(i int, o history.Op, c claim.Claim) {
	lang, m := n.lang, n.m
	who, key := c.Client, c.Key
	switch o.Type {
	case history.Fail:
		if o.F == history.Probe {
			line := n.claims.probeFail(lang, c)
			if from, to := instant(m.sec(c.Start)), instant(m.sec(c.End)); c.End > c.Start && chart.Tenths(float64(from)) != chart.Tenths(float64(to)) {
				// A probe that kept trying is told with when it gave up,
				// not as failing when it began (reader 11,
				// setnx-expire-crash: 30.4 s to 49.9 s).
				line += " " + tr(lang, "n.probe.fail.span", from, to)
			}
			n.add(c.Start, 2, StepProbe, c, line)
			break
		}
		if text, ok := n.refusedByLock(c); ok {
			n.flush(who, key)
			n.add(n.toldAt(c), 2, StepRetries, c, n.began(c, text))
			break
		}
		k := clientKey{who, key}
		msg := m.refusalKey(o, c)
		var by, node, as string
		switch {
		case c.Kind == claim.Refusal && c.Own:
			msg = "n.tries.own" // its own key: an earlier acquire's SET ran, its reply was lost
		case c.Kind == claim.Refusal && c.How == claim.Restarted:
			msg, by, node = "n.tries.restarted", c.By, c.Node // the lease of its process a restart killed
		case c.Kind == claim.Refusal && c.What == claim.Inferred && msg == "n.tries":
			msg, by, node = m.refusedInferred(c) // whose key the clients' outcomes show
		case c.Kind == claim.Refusal && msg == "n.tries" && c.By != "":
			msg, by, node, as = m.refusedOn(lang, c) // whose key the nodes show, not "someone else held it"
		case c.Kind == claim.QueueHead:
			msg, by, node = "n.tries.queue", c.By, c.What // the lock key free, another's entry at the queue's head
		}
		if f, ok := n.fireOf[i]; ok && (msg == "n.tries.by" || msg == "n.tries.by.as") {
			// A scheduler tries once per fire time: its refusal skipped
			// that fire, not one try of a retry loop (reader 4, finding 6).
			n.flush(who, key)
			text := tr(lang, strings.Replace(msg, "n.tries", "n.fire.skip", 1), who, f.Key, key, by, node, as)
			if len(f.Runs) == 0 {
				text += tr(lang, "n.fire.never", f.Key)
			}
			n.add(n.toldAt(c), 2, StepRetries, c, text)
			n.raw[len(n.raw)-1].after = holders(c)
			break
		}
		fire := n.fireOf[i].K
		if p := n.pending[k]; p != nil && (p.msg != msg || p.by != by || p.node != node || p.as != as || p.fire != fire) {
			n.flush(who, key) // refused for another reason, or by another key, from here on
		}
		if n.pending[k] == nil {
			n.pending[k] = &tries{first: n.toldAt(c), msg: msg, claim: c.ID, by: by, node: node, as: as, fire: fire, won: m.wonText(lang, c), holders: holders(c)}
		}
		n.pending[k].n++
		n.pending[k].last = n.toldAt(c)
	case history.Info:
		if o.F == history.Probe {
			n.add(n.toldAt(c), 2, StepProbe, c, n.began(c, tr(lang, infoKey("n.probe.info", o), who, key)))
			break
		}
		if c.Kind == claim.Ungranted {
			n.add(n.toldAt(c), 2, StepAcquire, c, n.began(c, n.ungranted(c)))
			break
		}
		n.add(n.toldAt(c), 2, StepAcquire, c, n.began(c, m.acquireInfo(lang, i, o, who, key)))
	case history.OK:
		at := grantedAt(c, o)
		n.inFlight(i, o)
		if t := o.Value.Token; t != "" {
			if _, ok := n.grantAt[holder{who, key, t}]; !ok {
				n.grantAt[holder{who, key, t}] = at
			}
		}
		ttl := m.sdur(c.TTL)
		tt := n.tokenText(c.Fence, c.Token)
		if r, ok := m.fences[i]; ok {
			tt += tr(lang, "n.fence.seen", r.Node, r.Value)
		}
		switch {
		case o.F == history.Probe && n.kind.Permits:
			n.add(at, 2, StepProbe, c, tr(lang, "n.probe.permit", who, key, tt))
		case o.F == history.Probe && m.h.Header.NoLock():
			n.add(at, 2, StepProbe, c, tr(lang, "n.probe.nolock", who, key, tt))
		case o.F == history.Probe:
			line := tr(lang, "n.probe", who, key, tt)
			if at == o.Complete {
				// Told when it returned, after its own release: its grant
				// came earlier (a fresh reader: a five-node probe "acquired
				// the lock" at t=12.3s, after it had released it).
				line = tr(lang, "n.probe.ended", who, key, tt)
			}
			if k := o.Value.LockKey; k != "" && !m.lockKeyUsed(k) {
				// Per-host keys: the probe's own proves nothing of the
				// workers' (reader 15, lock-key-per-host).
				line += " " + tr(lang, "n.probe.ownkey", k)
			}
			n.add(at, 2, StepProbe, c, line+m.probeRewrote(lang, i))
		case len(m.nodes) > 1 && len(o.Value.Nodes) > 0:
			if g, ok := m.a.GrantOf(i); ok && g.Ended.Kind != account.EndHeld && g.End <= o.Complete {
				// The reply came after the lock it reported had lost its
				// quorum (a pause inside the acquire): "acquired the lock
				// on n1–n5" would say w1 held keys it no longer had (a
				// fifth reader, redlock-gc-pause-fenced-token-late).
				n.add(at, 2, StepAcquire, c, tr(lang, "n.acquire.nodes.gone", who, key, instant(m.sec(o.Invoke)), strings.Join(o.Value.Nodes, ", "),
					len(o.Value.Nodes), len(m.nodes), m.a.Quorum(), tt, ttl, instant(m.sec(g.End))))
				break
			}
			n.add(at, 2, StepAcquire, c, tr(lang, "n.acquire.nodes", who, key, strings.Join(o.Value.Nodes, ", "),
				len(o.Value.Nodes), len(m.nodes), m.a.Quorum(), tt, ttl))
		case n.kind.Permits:
			n.add(at, 2, StepAcquire, c, tr(lang, "n.acquire.permit", who, key, tt, ttl))
		case m.h.Header.InProcess():
			// No TTL to tell: the client's own validity is no lease.
			n.add(at, 2, StepAcquire, c, tr(lang, "n.acquire.mutex", who, key, tt))
		case m.h.Header.NoLock():
			n.add(at, 2, StepAcquire, c, tr(lang, "n.acquire.nolock", who, key, tt))
		default:
			n.add(at, 2, StepAcquire, c, tr(lang, "n.acquire", who, key, tt, ttl))
		}
	}
}

// read tells an ok read from its claim: a number (the workload's
// sentence, else the generic one) or a value in the workload's words.
func (n *narrator) read(o history.Op, c claim.Claim) {
	lang := n.lang
	switch {
	case c.How == string(history.OK) && c.Num != nil && c.Result == "":
		if n.told != nil {
			if text, ok := n.say(n.told.Read(o)); ok {
				n.add(c.Start, 2, StepRead, c, text)
				return
			}
		}
		n.add(c.Start, 2, StepRead, c, tr(lang, "n.read.counter", c.Client, c.Key, *c.Num))
	case c.How == string(history.OK):
		res := c.Result
		if res == "" {
			res = "?"
		}
		if own := "result." + n.in.History.Header.Workload + "." + res; hasMessage(own) {
			res = tr(lang, own) // the workload's own word for it
		} else if hasMessage("result." + res) {
			res = tr(lang, "result."+res) // a workload value in the page's language
		}
		n.add(c.Start, 2, StepRead, c, tr(lang, "n.read", c.Client, c.Key, res))
	}
}

// write tells a write from its claim: accepted (in the workload's words
// when it has them), refused by the resource, or of unknown outcome.
func (n *narrator) write(o history.Op, c claim.Claim) {
	lang := n.lang
	tok := n.withToken(o)
	act := actionWord(lang, c.Action)
	switch c.How {
	case string(history.OK):
		s := tr(lang, "n.write.ok", c.Client, act, c.Key, tok)
		if c.Action == workload.ActionClaim {
			s = tr(lang, "n.write.claim", c.Client, c.Key, tok)
		} else if n.told != nil {
			if text, ok := n.say(n.told.Write(o, tok)); ok {
				s = text
			}
		}
		n.add(c.Start, 2, StepWrite, c, s)
	case string(history.Fail):
		s := tr(lang, "n.write.refused", c.Client, act, c.Key, tok, refusalText(lang, o))
		if r := workload.ResourceOf(c.Action); r != "" {
			// An action with a resource of its own names it (a job's
			// completion is refused by the job store, not the gateway:
			// reader 18).
			s = tr(lang, "n.write.refused.by", c.Client, act, c.Key, tok, tr(lang, r), refusalText(lang, o))
		}
		n.add(c.Start, 2, StepRefused, c, s)
	default:
		if crash, ok := crashIn(n.claims.cs, c.Client, c.Start, c.End); ok && o.Type == history.Info {
			// Killed with its client: cut short by the crash, not an error
			// it ended in (reader 4, finding 12).
			took := n.m.sdur(crash.Start - c.Start).Round(100 * time.Millisecond)
			n.add(n.toldAt(c), 2, StepWrite, c, tr(lang, "n.write.info.crash", c.Client, act, c.Key, tok, instant(n.m.sec(crash.Start)), took, instant(n.m.sec(c.Start))))
			return
		}
		n.add(n.toldAt(c), 2, StepWrite, c, n.began(c, tr(lang, infoKey("n.write.info", o), c.Client, act, c.Key, tok)))
	}
}

// extend tells an extend from its claim: what it did on the nodes (it
// moved another client's key; every deadline command found no key), or,
// where the nodes do not say, what the client was told.
func (n *narrator) extend(o history.Op, c claim.Claim) {
	if n.extendOwn(o, c) {
		return
	}
	lang, key := n.lang, n.m.extendKey(o, "ok")
	args := []any{c.Client, c.Key}
	switch {
	case c.Kind == claim.Extend && c.What == claim.Moved && c.By != "" && c.By != c.Client:
		key, args = n.m.extendKey(o, "foreign"), append(args, c.By)
	case c.Kind == claim.Extend && c.What == claim.Missed:
		key = n.m.extendKey(o, pick(c.CutBy != nil, "cut", "fail"))
		if o.Type == history.OK {
			key = n.m.extendKey(o, "missed") // answered ok, yet no command of it found a key
		}
	case o.Type != history.OK:
		key = n.m.extendKey(o, pick(c.CutBy != nil, "cut", "fail"))
	}
	if c.Kind == claim.Op {
		n.add(n.toldAt(c), 2, StepExtend, c, n.began(c, tr(lang, key, args...)))
		return
	}
	at := c.Start
	if c.What == claim.Moved && c.At > 0 {
		at = c.At // when the node ran the command that moved the key
	}
	text := tr(lang, key, args...)
	for _, k := range c.Also {
		// The same commands kept another client's key alive (reader 7, F4:
		// every heartbeat of w2 extended w1's leader-1 too).
		text += " " + tr(lang, "n.extend.also", k.Key, k.By, c.Client, k.Node)
	}
	n.add(at, 2, StepExtend, c, text)
}

// began adds to the line of an operation told when it ended (toldAt) when
// it had begun, where the page's tenths tell the two apart (issue 27, a
// fresh reader: an acquire begun at 0.06 s that ended at 12.35 s, across
// its client's SIGSTOP).
func (n *narrator) began(c claim.Claim, text string) string {
	at := n.toldAt(c)
	if at == c.Start || chart.Tenths(n.m.sec(at)) == chart.Tenths(n.m.sec(c.Start)) {
		return text
	}
	return text + " " + tr(n.lang, "n.began", instant(n.m.sec(c.Start)))
}

// faults tells each fault's start and end.
func (n *narrator) faults() {
	lang, m := n.lang, n.m
	for _, w := range m.faults {
		c := n.claims.fault(w)
		st := w.Step
		targets := joinAnd(lang, targetsOf(st))
		dur := m.faultDur(lang, w)
		switch st.Effect {
		case history.EffectFreezeClient:
			n.pause(w, c, targets, dur)
			continue
		case history.EffectCutLinks:
			n.cut(w, c, dur)
			continue
		}
		at, told := c.Start, c
		if st.Effect == history.EffectDeleteKey {
			// When the node ran the janitor's DEL (its key life's end, the
			// node's record), not when the step began (a fresh reader, A8:
			// "t=6.3s" for n1's DEL at t=6.494s).
			if k, ok := n.claims.janitored(st.ID); ok {
				at, told = k.End, k
			}
		}
		n.add(at, 1, StepFault, told, byHand(lang, st, m.faultSentence(lang, w, dur)))
		if !st.Instant() && !m.open(w) {
			if st.Effect == history.EffectCrashNode {
				// Its end is the restart's start (the account's window);
				// and when it served again, if clients still failed.
				n.add(c.End, 0, StepHeal, c, m.crashEnd(lang, st.Nodes, targets, c.End))
				continue
			}
			n.add(c.End, 0, StepHeal, c, tr(lang, "n.fault.end", faultWord(lang, st), targets))
		}
	}
}

// pause tells a client freeze and each client's wake, with the lock it
// still believes it holds; both render the step's Fault claim c.
func (n *narrator) pause(w window, c claim.Claim, targets, dur string) {
	lang, m, st := n.lang, n.m, w.Step
	pt := m.pausePoint(lang, st, c)
	n.add(c.Start, 1, StepFault, c, byHand(lang, st, tr(lang, causeKey("n.pause", st), targets, dur, pt)))
	if m.open(w) {
		return // still frozen when the history ends: no wake to tell
	}
	for _, who := range st.Clients {
		belief := ""
		if l, ok := m.leaseAt(who, "", c.End); ok {
			belief = tr(lang, pick(n.kind.Permits, "n.resume.belief.permit", "n.resume.belief"), l.Key, n.tokenText(l.Fence, l.Token))
		}
		n.add(c.End, 0, StepHeal, c, tr(lang, "n.resume", who, dur, belief))
	}
}

// cut tells a partition and its heal, naming the nodes still down then;
// both render the step's Fault claim c.
func (n *narrator) cut(w window, c claim.Claim, dur string) {
	lang, m, st := n.lang, n.m, w.Step
	n.add(c.Start, 1, StepFault, c, byHand(lang, st, m.faultSentence(lang, w, dur)))
	if m.open(w) {
		return
	}
	if replicationLinks(st) {
		var parts []string
		for _, l := range st.Links {
			if m.a.NodeDown(l.Node, c.End) {
				parts = append(parts, tr(lang, "n.replag.heal.down", l.Client, l.Node))
				continue
			}
			parts = append(parts, tr(lang, "n.replag.heal", l.Client, l.Node))
		}
		n.add(c.End, 0, StepHeal, c, tr(lang, "n.replag.stop.end", strings.Join(parts, "; ")))
		return
	}
	from, to := linkGroups(st.Links)
	var parts []string
	for _, f := range from {
		var down []string
		for _, node := range to[f] {
			if m.a.NodeDown(node, c.End) {
				down = append(down, node)
			}
		}
		if len(down) > 0 {
			parts = append(parts, tr(lang, "n.cut.heal.down", f, joinAnd(lang, to[f]), joinAnd(lang, down)))
			continue
		}
		parts = append(parts, tr(lang, cutKey("n.cut.heal", st), f, joinAnd(lang, to[f])))
	}
	n.add(c.End, 0, StepHeal, c, tr(lang, "n.partition.end", strings.Join(parts, "; ")))
}

// losses tells how each lock was lost in Redis, from the account: one
// step per instant its key left some nodes (one node: the classic
// sentence). A release, a foreign DEL or a delete-key fault is told by
// its own step.
func (n *narrator) losses() {
	for _, l := range n.m.leases {
		if !l.lost() {
			continue
		}
		ttl := n.m.sdur(l.TTL)
		if len(l.Lives) <= 1 || len(n.m.nodes) <= 1 {
			c := n.endedLife(l)
			if n.rewrittenByRelease(c) || n.rewrittenByProbe(l, c) {
				continue // its client's release rewrote it: that release's step tells it
			}
			if s, ok := n.m.lossSentence(n.lang, l, c, ttl); ok {
				at := c.End
				if c.How == account.EndFailover && len(c.Nodes) == 1 && c.At > 0 {
					at = c.At // lost when the replica that still had it died
				}
				n.add(at, 1, StepExpiry, c, s)
			}
			continue
		}
		n.nodeLosses(l, ttl)
	}
}

// endGroup is the key lives of one lock that left their nodes at the same
// printed instant, the same way: told together (observed ends differ by
// microseconds).
type endGroup struct {
	at, last int64
	kind     string
	nodes    []string
	first    claim.Claim // the KeyLife claim of its first life
}

// nodeLosses tells a lock held on several nodes losing its keys, group by
// group, and the group after which fewer than a quorum held it (the
// account's quorum and held-after count).
func (n *narrator) nodeLosses(l lease, ttl time.Duration) {
	lang, m := n.lang, n.m
	var groups []*endGroup
	byLabel := map[string]*endGroup{}
	lives := append([]account.KeyLife(nil), l.Lives...)
	sort.SliceStable(lives, func(a, b int) bool { return lives[a].End < lives[b].End })
	for _, k := range lives {
		if k.End > m.end || !k.Ended.Gone() {
			continue
		}
		c := n.claims.life(k)                       // how, where and when it ended
		label := chart.Tenths(m.sec(c.End)) + c.How // one line per tenth written
		g, ok := byLabel[label]
		if !ok {
			g = &endGroup{at: c.End, kind: c.How, first: c}
			byLabel[label] = g
			groups = append(groups, g)
		}
		g.nodes, g.last = append(g.nodes, c.Node), c.End
	}
	q := m.a.Quorum()
	for _, g := range groups {
		e, ns := g.at, g.nodes
		left := account.HeldAfter(l.Lives, g.last)
		var s string
		switch g.kind {
		case account.EndClock:
			s = tr(lang, m.clockEndKey(g.first.Step), l.Client, l.Key, joinAnd(lang, ns))
		case account.EndCrashed:
			s = tr(lang, "n.expired.crash", l.Client, l.Key, joinAnd(lang, ns))
		case account.EndFlushed:
			s = tr(lang, "n.flushed", l.Client, l.Key, joinAnd(lang, ns))
		default:
			s = tr(lang, "n.expired.nodes", l.Client, l.Key, joinAnd(lang, ns), ttl)
		}
		if left < q && left+len(ns) >= q && l.BelievedEnd > e {
			s += " " + m.quorumText(lang, g.kind, ns, left, q, &l)
		}
		n.add(g.first.End, 1, StepExpiry, g.first, s)
	}
}

// endedLife is the KeyLife claim of the key life whose end ended lease
// l's hold in Redis (at l.KeyEnd: on its cause's node, when it names one).
func (n *narrator) endedLife(l lease) claim.Claim {
	for _, k := range l.Lives {
		if k.LostAt() == l.KeyEnd && (l.CauseNode == "" || k.Node == l.CauseNode) {
			return n.claims.life(k)
		}
	}
	return claim.Claim{}
}

// permits tells the semaphore permits a purge (or a flush) removed: the
// account's member lives. (A permit its owner released is told by the
// release.)
func (n *narrator) permits() {
	lockKeys := map[string]bool{}
	for _, k := range n.m.keys {
		lockKeys[k] = true
	}
	for _, ml := range n.m.a.Members() {
		if !lockKeys[ml.Key] {
			continue // a helper set (a fair semaphore's owner set): its twin on the lock key is told
		}
		c := n.claims.permit(ml)
		switch c.How {
		case account.EndPurged:
			s := tr(n.lang, "n.permit.purged", c.Client, c.Key, span(n.m.sec(c.End)-n.m.sec(c.Start)))
			switch {
			case c.By == c.Client:
				s += tr(n.lang, "n.permit.purged.own", c.By)
			case c.By != "":
				s += tr(n.lang, "n.permit.purged.by", c.By) // whose script's bound covered it (issue 27, class 3)
			}
			n.add(c.End, 1, StepExpiry, c, s)
		case account.EndFlushed, account.EndCrashed:
			n.add(c.End, 1, StepExpiry, c, tr(n.lang, "n.permit.lost", c.Client, c.Key, c.Node))
		}
	}
}

// keysWithoutTTL tells a lock key a node kept with no TTL to the end of
// the run (SETNX whose EXPIRE never ran; a lock with no TTL whose holder
// died): nothing would ever have expired it. Keys released or deleted are
// told by their ends.
func (n *narrator) keysWithoutTTL() {
	acquired := map[string]bool{}
	for _, o := range n.in.History.Ops {
		if o.F == history.Acquire && o.Process != history.NodeProcess {
			acquired[o.Key] = true
		}
	}
	for _, k := range n.m.a.Keys() {
		if !acquired[k.Key] || !k.Observed || k.Owner == "" || k.Deadline >= 0 || k.Ended.Kind != account.EndHeld || hadTTL(k) {
			continue
		}
		c := n.claims.life(k)
		n.add(c.Start, 1, StepAcquire, c, tr(n.lang, "n.key.nottl", c.Node, c.Key, c.Client))
	}
}

// anomalies tells each anomaly at the instant it became true.
func (n *narrator) anomalies() {
	lang, m := n.lang, n.m
	for i, a := range allAnomalies(n.in.Results) {
		c := n.claims.anomaly(i)
		at := c.At // the event that completes it, as the checker says
		if a.Informational {
			n.add(at, 9, StepViolated, c, tr(lang, "n.anomaly.info", m.anomalyWord(lang, a), m.describeAnomaly(lang, a)))
			n.raw[len(n.raw)-1].Info = true
		} else {
			say := m.describeAnomaly(lang, a)
			if s, ok := m.duplicateRunAt(lang, a, at); ok {
				say = s // told at its second run: what was true then
			}
			n.add(at, 9, StepViolated, c, tr(lang, "n.anomaly", m.anomalyWord(lang, a), say))
		}
	}
}

// tokenText is "token 3" for a fencing token, else "owner token
// 2e5a3c5a": the owner token shortened only as far as it stays distinct
// from the run's other tokens (shortTokens).
func (m *model) tokenText(lang Lang, fence int64, token string) string {
	if fence > 0 {
		return tr(lang, "n.token.fence", fence)
	}
	if s, ok := m.tokens[token]; ok {
		token = s
	}
	return tr(lang, "n.token.owner", token)
}

func joinAnd(lang Lang, xs []string) string {
	switch len(xs) {
	case 0:
		return "?"
	case 1:
		return xs[0]
	}
	return tr(lang, "and", strings.Join(xs[:len(xs)-1], ", "), xs[len(xs)-1])
}

// allAnomalies flattens the anomalies of every checker, in checker order.
func allAnomalies(rs []checker.Result) []checker.Anomaly {
	var out []checker.Anomaly
	for _, r := range rs {
		out = append(out, r.Anomalies...)
	}
	return out
}

// extendKey is the message key of an extend step: a background renewal
// (Value.Renewal) — a watchdog's, or, in a lock client process, the
// library's own — or the client's own extend.
func (m *model) extendKey(o history.Op, outcome string) string {
	switch {
	case o.Value.Renewal && slices.Contains(m.h.Header.Traits, history.TraitProcess):
		return "n.renew.lib." + outcome
	case o.Value.Renewal:
		return "n.renew." + outcome
	}
	return "n.extend." + outcome
}

// hadTTL reports whether the key life had a deadline at any moment.
func hadTTL(k account.KeyLife) bool {
	if k.Deadline >= 0 {
		return true
	}
	for _, mv := range k.Moves {
		if mv.Deadline >= 0 {
			return true
		}
	}
	return false
}
