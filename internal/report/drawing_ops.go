package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

// The operations of a drawing: refused attempts, writes and the node
// events as messages (drawing.go builds the rest).

// tries: refused acquire attempts, small marks at the bottom of a client
// lane.
func (b *builder) tries() {
	m, lang := b.m, b.lang
	n := 0
	var cs *storyClaims
	for i, o := range b.in.History.Ops {
		if o.F != history.Acquire || o.Type != history.Fail {
			continue
		}
		if cs == nil {
			cs = newStoryClaims(m.a.Claims())
		}
		c := cs.op(i)
		li := b.laneOf(o.Client)
		if li < 0 || m.laneOf(o.Client) < 0 {
			continue
		}
		x := m.sec(m.refusedWhen(o, c))
		b.shape(chart.Shape{Kind: chart.ShTry, Lane: li, Lane2: li, X0: x, X1: x, Y0: 0.38, Y1: 0.38, Color: -1,
			Tipf: func() string { return m.refusalTip(lang, o, c, b.at) }, Op: i + 1,
			Ref: either(ref(claim.Refusal, i, ""), ref(claim.Outcome, i, ""))})
		n++
	}
	if n > 0 {
		b.legendOnce(chart.ShTry, chart.Legend{Kind: chart.ShTry, Color: -1, Text: tr(lang, "p.acquire.fail")})
	}
}

// writes: each write on its client's lane and on the resource's, by
// outcome — accepted, accepted and named by a checker as the violation,
// refused, another accepted write — and the highest fencing token the
// resource has seen.
func (b *builder) writes() {
	m, lang := b.m, b.lang
	inViolation := map[int]string{} // op index → the anomaly kind that names it
	for _, a := range allAnomalies(b.in.Results) {
		if !a.Informational {
			for _, i := range a.Violating {
				if _, ok := inViolation[i]; !ok {
					inViolation[i] = anomalyLabel(a)
				}
			}
		}
	}
	var actions []string // the effect actions drawn, for the legend
	var others []string  // the other actions drawn
	var unknown []string // the actions of writes of unknown outcome drawn
	fenced := false
	// Other writes (a claim, a mark-paid) are drawn under the effects: a
	// mark-paid right after its charge must not hide the charge's mark.
	first := len(b.d.Shapes)
	defer func() {
		ws := b.d.Shapes[first:]
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].Kind == chart.ShWriteOth && ws[j].Kind != chart.ShWriteOth })
	}()
	for i, o := range b.in.History.Ops {
		if o.F != history.Write {
			continue
		}
		li := b.laneOf(o.Client)
		if li < 0 {
			continue
		}
		x := m.sec(o.Invoke)
		fence := m.fenceOf(o)
		violation := inViolation[o.Index]
		tip := func() string { return b.writeTip(o, fence, violation) }
		var kind, style, word string
		switch o.Type {
		case history.OK:
			switch {
			case inViolation[o.Index] != "":
				// A write a checker names as the violation is drawn as
				// one, whatever its action (a stale failure record too).
				kind, style, word = chart.ShWriteBad, chart.LbBad, actWord(lang, o)
			case !effectAction(o.Value.Action):
				kind = chart.ShWriteOth
				if !containsStr(others, o.Value.Action) {
					others = append(others, o.Value.Action)
				}
			default:
				kind, style, word = chart.ShWriteOK, chart.LbOK, actWord(lang, o)
			}
			if kind != chart.ShWriteOth && !containsStr(actions, o.Value.Action) {
				actions = append(actions, o.Value.Action)
			}
		case history.Fail:
			kind, style, word = chart.ShWriteRef, chart.LbBad, tr(lang, "p.refused")
		case history.Info:
			// No answer came: it may or may not have happened (reader 16,
			// scheduler-mutex-90s: a crashed scheduler's run drew nothing
			// beside a headline that told it).
			kind, style, word = chart.ShWriteUnk, chart.LbPlain, tr(lang, "p.act.unknown", actWord(lang, o))
			if !containsStr(unknown, o.Value.Action) {
				unknown = append(unknown, o.Value.Action)
			}
		default:
			continue
		}
		if fence > 0 {
			fenced = true
			if word != "" {
				word += " " + tr(lang, pick(m.h.Header.LockFences(), "p.token.short", "p.epoch.short"), fence)
			}
		}
		r := ref(claim.Outcome, i, "")
		if l, ok := m.leaseAt(o.Client, o.Key, o.Invoke); ok && l.lost() && l.KeyEnd <= o.Invoke && len(m.copiesAfter(l)) > 0 {
			r += " " + livesRef(l) // its tip tells the copies the lost quorum left
		}
		prio := chart.PrWrite
		if kind == chart.ShWriteBad {
			prio = chart.PrViolWrite
			r = fmt.Sprintf("violating#%d", i) + " " + r // the violation, and the write it was
		}
		// Under one of its client's holds at once: on its lock's bar
		// (holdRows), and as high on the resource's row.
		my := 0.0
		if hr, ok := b.heldRow(o); ok {
			my = hr.centre()
		}
		b.shape(chart.Shape{Kind: kind, Lane: li, Lane2: li, X0: x, X1: x, Y0: my, Y1: my, Color: -1, Tipf: tip, Op: i + 1, Ref: r})
		if rl := b.resLane(o.Value.Action); rl >= 0 {
			b.shape(chart.Shape{Kind: kind, Lane: rl, Lane2: rl, X0: x, X1: x, Y0: my, Y1: my, Color: -1, Tipf: tip, Op: i + 1, Ref: r})
			if word != "" {
				b.label(chart.Label{Lane: rl, X: x, Dy: -0.3, Text: o.Client + " " + word, Style: style, Prio: prio, Ref: r})
			}
		}
		if kind == chart.ShWriteUnk {
			// On the client's lane a short word, under its hold's label
			// (the resource's lane says "outcome unknown").
			b.label(chart.Label{Lane: li, X: x, Dy: 0.3, Text: tr(lang, "p.act.unknown.short", actWord(lang, o)), Style: style, Prio: chart.PrHold - 1, Ref: r})
		} else if word != "" {
			b.label(chart.Label{Lane: li, X: x, Dy: 0.3, Text: word, Style: style, Prio: prio - 1, Ref: r})
		}
	}
	// The highest token seen, per key, as a line on the resource lane:
	// the account's (FenceSeen), from each rise to the next, on the row
	// of the resource the rising write went to.
	if len(b.res) > 0 && fenced {
		multiKey := len(m.keys) > 1
		steps := m.a.FenceSeen()
		for _, st := range steps {
			text := tr(lang, pick(m.h.Header.LockFences(), "p.seen", "p.seen.epoch"), st.Value)
			if multiKey {
				text = st.Key + ": " + text
			}
			x0, x1 := m.sec(st.Start), m.sec(st.End)
			if st.End >= m.end {
				x1 = b.d.End
			}
			rl := b.resLane(m.h.Ops[st.Write].Value.Action)
			if rl < 0 {
				continue
			}
			r := ref(claim.FenceSeen, st.Write, "")
			b.shape(chart.Shape{Kind: chart.ShSeen, Lane: rl, Lane2: rl, X0: x0, X1: x1, Y0: 0.3, Y1: 0.3, Color: -1,
				Tip: tr(lang, seenTip(b.m.h.Header), st.Key, st.Value, "t="+instantMs(x0).in(lang)+"s"), Ref: r})
			b.label(chart.Label{Lane: rl, X: x0, Dy: 0.38, Text: text, Style: chart.LbSmall, Prio: chart.PrSeen, Ref: r})
		}
		if len(steps) > 0 {
			b.legendOnce(chart.ShSeen, chart.Legend{Kind: chart.ShSeen, Color: -1, Text: tr(lang, pick(m.h.Header.LockFences(), "p.seen.legend", "p.seen.epoch.legend"))})
		}
	}
	if len(actions) > 0 {
		b.legendOnce(chart.ShWriteOK, chart.Legend{Kind: chart.ShWriteOK, Color: -1, Text: tr(lang, "p.effect.accepted", actionLegendWords(lang, actions))})
	}
	for _, s := range b.d.Shapes {
		if s.Kind == chart.ShWriteBad {
			b.legendOnce(chart.ShWriteBad, chart.Legend{Kind: chart.ShWriteBad, Color: -1, Text: tr(lang, "p.effect.violation")})
		}
		if s.Kind == chart.ShWriteRef {
			b.legendOnce(chart.ShWriteRef, chart.Legend{Kind: chart.ShWriteRef, Color: -1, Text: tr(lang, "p.write.refused")})
		}
	}
	if len(unknown) > 0 {
		b.legendOnce(chart.ShWriteUnk, chart.Legend{Kind: chart.ShWriteUnk, Color: -1, Text: tr(lang, "p.effect.unknown", actionLegendWords(lang, unknown))})
	}
	if len(others) > 0 {
		b.legendOnce(chart.ShWriteOth, chart.Legend{Kind: chart.ShWriteOth, Color: -1, Text: tr(lang, "p.other.accepted", actionLegendWords(lang, others))})
	}
}

// seenTip is the message of the highest-number-seen line's tooltip: a
// fencing token the resource checks or does not, or the workload's own
// epoch when the lock issues no token.
func seenTip(h history.Header) string {
	switch {
	case !h.LockFences():
		return "tip.seen.epoch"
	case h.FencingEnforced:
		return "tip.seen"
	}
	return "tip.seen.unchecked"
}

// actionLegendWord names a write action in the legend: "charge", "sale".
// actionLegendWords joins the legend words of actions ("charge, mark-paid").
func actionLegendWords(lang Lang, actions []string) string {
	words := make([]string, 0, len(actions))
	for _, a := range actions {
		words = append(words, actionLegendWord(lang, a))
	}
	return strings.Join(words, ", ")
}

func actionLegendWord(lang Lang, action string) string {
	if _, ok := messages[English]["act."+action]; ok {
		return tr(lang, "act."+action)
	}
	if action == "" {
		return tr(lang, "act.write")
	}
	return action
}

// writeTip tells one write: who, what, under which token, what the
// resource answered and whether a checker names it as the violation.
func (b *builder) writeTip(o history.Op, fence int64, violation string) string {
	m, lang := b.m, b.lang
	act := actionLegendWord(lang, o.Value.Action)
	tok := ""
	if fence > 0 {
		tok = tr(lang, withFence(b.in.History.Header), fence)
	}
	var lines []string
	switch o.Type {
	case history.OK:
		lines = append(lines, tr(lang, "tip.write.ok", b.at(o.Invoke), o.Client, act, o.Key, tok, b.resourceOf(o.Value.Action)))
	case history.Fail:
		lines = append(lines, tr(lang, "tip.write.refused", b.at(o.Invoke), o.Client, act, o.Key, tok, b.resourceOf(o.Value.Action), refusalText(lang, o)))
	case history.Info:
		if at, ok := b.m.crashedIn(o.Client, o.Invoke, o.Complete); ok {
			lines = append(lines, tr(lang, "tip.write.unknown.crash", b.at(o.Invoke), o.Client, act, o.Key, tok, b.at(at)))
		} else {
			lines = append(lines, tr(lang, "tip.write.unknown", b.at(o.Invoke), o.Client, act, o.Key, tok))
		}
	}
	if o.Value.Num != nil {
		// A workload may name what its number is (a sale's stock left,
		// not "Value written": reader 15, inventory-atomic-lua).
		key := "tip.num"
		if _, ok := messages[English]["tip.num."+o.Value.Action]; ok {
			key = "tip.num." + o.Value.Action
		}
		lines = append(lines, tr(lang, key, *o.Value.Num))
	}
	if l, ok := m.leaseAt(o.Client, o.Key, o.Invoke); ok {
		left := m.copiesAfter(l)
		ns, _, upAt, practice := m.heldInPractice(&l)
		switch {
		case l.lost() && l.KeyEnd <= o.Invoke && practice:
			// Its quorum lost to a crash, but no one else could reach one
			// (a fresh reader of redlock-delayed-restart: "the lock had
			// been lost" of a charge the mutex check found valid).
			lines = append(lines, tr(lang, "tip.write.practice", o.Client, b.at(l.KeyEnd), len(left), len(m.nodes), m.a.Quorum(), joinAnd(lang, ns), b.at(upAt)))
		case l.lost() && l.KeyEnd <= o.Invoke && len(left) > 0:
			lines = append(lines, tr(lang, "tip.write.quorum", o.Client, b.at(l.KeyEnd), len(left), len(m.nodes), m.a.Quorum()))
		case l.lost() && l.KeyEnd <= o.Invoke:
			if workload.Of(b.in.History.Header).Permits {
				lines = append(lines, tr(lang, "tip.write.lost.permit", o.Client, b.at(l.KeyEnd), l.Key))
			} else {
				lines = append(lines, tr(lang, "tip.write.lost", o.Client, b.at(l.KeyEnd)))
			}
		case l.lost() && o.Complete > 0 && l.KeyEnd < o.Complete:
			// A long write (a 45 s rebuild) that outlived the lease: held
			// when it began, not when it was accepted.
			lines = append(lines, tr(lang, "tip.write.lostduring", o.Client, b.at(l.KeyEnd), b.at(o.Complete)))
		case b.in.History.Header.NoLock():
			// Nothing was held: the control let every client in.
			lines = append(lines, tr(lang, "tip.write.nolock", o.Client))
		case workload.Of(b.in.History.Header).Permits:
			lines = append(lines, tr(lang, "tip.write.held.permit", o.Client, l.Key))
		default:
			lines = append(lines, tr(lang, "tip.write.held", o.Client))
		}
	}
	if violation != "" {
		if a, c, ok := b.completedBy(o, violation); ok {
			// The violating write is not the one the violation held
			// from (the band's): say which write completed it (reader 10,
			// host-sleep: w1's charge marked, the band at w2's).
			lines = append(lines, tr(lang, "tip.write.violation.stale", m.kindWord(lang, anomalyLabel(a)), b.at(c.Invoke), c.Client, actionLegendWord(lang, c.Value.Action)))
		} else {
			lines = append(lines, tr(lang, "tip.write.violation", m.kindWord(lang, violation)))
		}
	}
	for _, a := range allAnomalies(b.in.Results) {
		if v, ok := b.completes(a, o); ok {
			lines = append(lines, tr(lang, "tip.write.completes", m.kindWord(lang, anomalyLabel(a)), v.Client, actionLegendWord(lang, v.Value.Action), b.at(v.Invoke)))
			break
		}
	}
	return strings.Join(lines, "\n")
}

// completedBy is the anomaly (of label violation) that names write o as
// its violating write and the other write among its records that it
// held from (its At: a double charge's second charge), when there is one.
func (b *builder) completedBy(o history.Op, violation string) (checker.Anomaly, history.Op, bool) {
	for _, a := range allAnomalies(b.in.Results) {
		if a.Informational || anomalyLabel(a) != violation || !slices.Contains(a.Violating, o.Index) {
			continue
		}
		if c, ok := b.heldFromWrite(a); ok && c.Index != o.Index && !slices.Contains(a.Violating, c.Index) {
			return a, c, true
		}
		return a, history.Op{}, false
	}
	return checker.Anomaly{}, history.Op{}, false
}

// completes reports whether write o is the write anomaly a held from (its
// At) while a names another write as its violating one, v (the first).
func (b *builder) completes(a checker.Anomaly, o history.Op) (history.Op, bool) {
	if a.Informational || len(a.Violating) == 0 || slices.Contains(a.Violating, o.Index) {
		return history.Op{}, false
	}
	c, ok := b.heldFromWrite(a)
	ops := b.in.History.Ops
	if !ok || c.Index != o.Index || a.Violating[0] < 0 || a.Violating[0] >= len(ops) {
		return history.Op{}, false
	}
	return ops[a.Violating[0]], true
}

// heldFromWrite is the accepted write among anomaly a's records invoked
// at its At, the event the violation held from (HeldFromS), if any.
func (b *builder) heldFromWrite(a checker.Anomaly) (history.Op, bool) {
	ops := b.in.History.Ops
	for _, i := range a.Ops {
		if i >= 0 && i < len(ops) && ops[i].F == history.Write && ops[i].Type == history.OK && ops[i].Invoke == a.At && a.HeldFromS() == a.AtS {
			return ops[i], true
		}
	}
	return history.Op{}, false
}

// messages: the node events as arrows between a client's lane and a
// node's. A command the node executed is an arrow to the node at the
// instant the node executed it, its reply an arrow back (both drawn at
// that instant: the slant shows the direction, not a latency). A command
// whose connection got no answer (a Stalled record with no outcome) is a
// cut arrow: stopped half-way when the node never executed it, or, when
// it did, a cut reply. A command answered late is drawn from its send to
// the node and back to its answer, in real time. A refused acquire's
// commands to a node with another lane between stay on the node's lane
// (msgLanes).
func (b *builder) messages() {
	m, lang := b.m, b.lang
	ops := b.in.History.Ops
	type ck struct{ client, node string }
	// Node events by client and node, in time order (positions in ops).
	cmds := map[ck][]int{}
	for i, o := range ops {
		if o.F == history.NodeCmd && o.Process == history.NodeProcess && !o.Value.Lua {
			cmds[ck{o.Client, o.Value.Node}] = append(cmds[ck{o.Client, o.Value.Node}], i)
		}
	}
	// Script commands: the top-level EVAL they ran inside (the sender's
	// last top-level command on that node).
	inner := map[int][]string{}
	last := map[ck]int{}
	for i, o := range ops {
		if o.F != history.NodeCmd || o.Process != history.NodeProcess {
			continue
		}
		k := ck{o.Client, o.Value.Node}
		if !o.Value.Lua {
			last[k] = i
			continue
		}
		if p, ok := last[k]; ok {
			// Each with the node's own time for it: a DEL inside a script
			// is the key's end, told elsewhere at that time (one fact, one
			// time), not at the script's.
			inner[p] = append(inner[p], tr(lang, "tip.msg.inner", strings.Join(o.Value.Cmd, " "), b.at(o.Invoke)))
		}
	}
	used := map[int]bool{}
	drawn := 0
	cut := 0
	for i, o := range ops {
		if o.F != history.Stalled || o.Process != history.NodeProcess {
			continue
		}
		ci, ni := b.laneOf(o.Client), b.laneOf(o.Value.Node)
		if ci < 0 || ni < 0 || b.d.Lanes[ni].Kind != chart.LaneNode || b.d.Lanes[ci].Kind != chart.LaneClient {
			continue
		}
		// The node event this stall is about: the first command of the
		// client on the node inside its window.
		exec := -1
		end := opEnd(o, m.end)
		for _, j := range cmds[ck{o.Client, o.Value.Node}] {
			if t := ops[j].Invoke; t >= o.Invoke && t <= end && !used[j] {
				exec = j
				break
			}
		}
		cmdWords := strings.Join(o.Value.Cmd, " ")
		why := b.cutBy(o.Client, o.Value.Node, o.Invoke)
		s, e := m.sec(o.Invoke), m.sec(end)
		switch {
		case exec >= 0 && o.Type == history.Info:
			used[exec] = true
			x := m.sec(ops[exec].Invoke)
			full := b.cmdText(ops[exec], inner[exec])
			from, to := b.cutLanes(ci, ni, o)
			b.shape(chart.Shape{Kind: chart.ShMsg, Sub: chart.MsgCmd, Lane: from, Lane2: to, X0: s, X1: x, Color: -1,
				Tip: tr(lang, "tip.msg.cmd", o.Client, o.Value.Node, full, b.at(ops[exec].Invoke)) + b.parentTip(exec), Op: exec + 1, Ref: b.msgRef(i)})
			b.shape(chart.Shape{Kind: chart.ShMsg, Sub: chart.MsgNoRep, Lane: to, Lane2: from, X0: x, X1: e, Color: -1,
				Tip: tr(lang, pick(m.a.NoScript(exec), "tip.msg.norep.noscript", "tip.msg.norep"), o.Value.Node, o.Client, full, b.at(o.Invoke), b.at(end)) + why, Op: i + 1, Ref: b.msgRef(i)})
			cut++
		case exec >= 0:
			used[exec] = true
			x := m.sec(ops[exec].Invoke)
			full := b.cmdText(ops[exec], inner[exec])
			from, to := b.msgLanes(ci, ni, ops[exec])
			b.shape(chart.Shape{Kind: chart.ShMsg, Sub: chart.MsgCmd, Lane: from, Lane2: to, X0: s, X1: x, Color: -1,
				Tip: tr(lang, "tip.msg.late", o.Client, o.Value.Node, full, b.at(o.Invoke), b.at(ops[exec].Invoke), b.at(end)) + b.parentTip(exec), Op: exec + 1, Ref: b.msgRef(i)})
			if from != to {
				b.shape(chart.Shape{Kind: chart.ShMsg, Sub: chart.MsgReply, Lane: to, Lane2: from, X0: x, X1: e, Color: -1,
					Tip: tr(lang, "tip.msg.late", o.Client, o.Value.Node, full, b.at(o.Invoke), b.at(ops[exec].Invoke), b.at(end)), Op: exec + 1, Ref: b.msgRef(i)})
			}
		case o.Type == history.Info:
			key := "tip.msg.lost"
			if !m.a.ObservedAt(o.Value.Node, o.Invoke) || !m.a.ObservedAt(o.Value.Node, end) {
				key = "tip.msg.noanswer"
			} else if _, stopped := m.a.StoppedAt(o.Value.Node, end); stopped {
				// The node was stopped when the client gave up: it runs
				// what it was sent when it wakes (a fresh reader of
				// fencing-random-nemesis s1166: "never reached the node
				// … did not run it" of scripts n1 ran as it woke).
				key = "tip.msg.stopped"
			}
			from, to := b.cutLanes(ci, ni, o)
			sh := chart.Shape{Kind: chart.ShMsg, Sub: chart.MsgLost, Lane: from, Lane2: to, X0: s, X1: s, Color: -1,
				Tip: tr(lang, key, o.Client, o.Value.Node, cmdWords, b.at(o.Invoke), b.at(end)) + why, Op: i + 1, Ref: b.msgRef(i)}
			if key == "tip.msg.stopped" {
				// What never arrived is the reply: the node had the
				// command, and ran it when it woke.
				sh.Sub, sh.Lane, sh.Lane2, sh.X1 = chart.MsgNoRep, to, from, e
			}
			b.shape(sh)
			cut++
		default:
			continue
		}
		drawn++
	}
	for k, list := range cmds {
		ci, ni := b.laneOf(k.client), b.laneOf(k.node)
		if ci < 0 || ni < 0 || b.d.Lanes[ni].Kind != chart.LaneNode || b.d.Lanes[ci].Kind != chart.LaneClient {
			continue
		}
		for _, j := range list {
			if used[j] {
				continue
			}
			o := ops[j]
			x := m.sec(o.Invoke)
			full := b.cmdText(o, inner[j])
			tip := func() string {
				return tr(lang, "tip.msg.cmd", o.Client, o.Value.Node, full, b.at(o.Invoke)) + b.parentTip(j)
			}
			from, to := b.msgLanes(ci, ni, o)
			r := b.msgRef(j)
			b.shape(chart.Shape{Kind: chart.ShMsg, Sub: chart.MsgCmd, Lane: from, Lane2: to, X0: x, X1: x, Color: -1, Tipf: tip, Op: j + 1, Ref: r})
			if from != to { // a refusal kept on the node's lane is one short arrow
				b.shape(chart.Shape{Kind: chart.ShMsg, Sub: chart.MsgReply, Lane: to, Lane2: from, X0: x, X1: x, Color: -1, Tipf: tip, Op: j + 1, Ref: r})
			}
			drawn++
		}
	}
	if drawn > 0 {
		b.legendOnce("msg", chart.Legend{Kind: chart.ShMsg, Sub: chart.MsgCmd, Color: -1, Text: tr(lang, "p.msg")})
	}
	if cut > 0 {
		b.legendOnce("msg:cut", chart.Legend{Kind: chart.ShMsg, Sub: chart.MsgLost, Color: -1, Text: tr(lang, "p.msg.cut")})
	}
	// Arrows in time order, so a renderer draws later ones over earlier.
	first := len(b.d.Shapes)
	for first > 0 && b.d.Shapes[first-1].Kind == chart.ShMsg {
		first--
	}
	msgs := b.d.Shapes[first:]
	sort.SliceStable(msgs, func(i, j int) bool { return msgs[i].X0 < msgs[j].X0 })
}

// msgRef names the claim an arrow of node event (or stalled send) ev
// draws: the outcome of the client operation it was part of, per the
// account (OpOf), else the command itself.
func (b *builder) msgRef(ev int) string {
	if p := b.m.a.OpOf(ev); p >= 0 {
		return ref(claim.Outcome, p, "")
	}
	return ref(claim.Command, ev, "")
}

// cmdText is a node event's command in full, with the commands its script
// ran.
func (b *builder) cmdText(o history.Op, inner []string) string {
	s := strings.Join(o.Value.Cmd, " ")
	if len(inner) > 0 {
		s += " " + tr(b.lang, "tip.msg.script", strings.Join(inner, "; "))
	}
	return s
}

// parentTip names the client operation node event j was part of, per the
// account (OpOf, the operation its arrow's claim states the outcome of):
// the client's acquire, release, extend or probe of the event's key. Not
// the first whose window holds it: a watchdog's renewal spans its job's
// check and release (reader 15, writer-exists-check).
func (b *builder) parentTip(j int) string {
	m, lang := b.m, b.lang
	ev := m.h.Ops[j]
	p := m.a.OpOf(j)
	if p < 0 || ev.Key == "" {
		return ""
	}
	o := m.h.Ops[p]
	if o.Key != ev.Key && o.Value.LockKey != ev.Key {
		return ""
	}
	return "\n" + tr(lang, "tip.msg.part", tr(lang, "f."+string(o.F)), o.Client, o.Key, b.at(o.Invoke), outcomeWord(lang, o))
}

// msgLanes are the lanes of an executed command's arrows between client
// lane ci and node lane ni: from one to the other, except for a refused
// acquire's commands when another lane lies between them — those stay on
// the node's lane (a short arrow at the node), so a busy retrier's
// hundred refusals do not cross, and read as, another client's lane; its
// own lane has the refusal's mark (tries).
func (b *builder) msgLanes(ci, ni int, ev history.Op) (from, to int) {
	if (ci-ni > 1 || ni-ci > 1) && b.within(b.attempts(false), ev) {
		return ni, ni
	}
	return ci, ni
}

// cutLanes are the lanes of a cut arrow (a command, or its reply, that a
// partition stopped; stall is the stalled send): msgLanes' rule, for
// every acquire that was not granted — refused, or of unknown outcome
// and never acted on (not a hold of the account's), as a Redlock acquire
// in a partition is (issue 31).
func (b *builder) cutLanes(ci, ni int, stall history.Op) (from, to int) {
	if (ci-ni > 1 || ni-ci > 1) && b.within(b.attempts(true), stall) {
		return ni, ni
	}
	return ci, ni
}

// attempts are the refused acquires (with unknown: also those of unknown
// outcome no hold began with) by client and key, and by client alone
// (key ""), in invoke order; made on first use.
func (b *builder) attempts(unknown bool) map[[2]string][]history.Op {
	if b.refused != nil && !unknown {
		return b.refused
	}
	if b.failed != nil && unknown {
		return b.failed
	}
	held := map[int]bool{}
	for _, h := range b.m.a.Holds {
		held[h.Acquire] = true
	}
	out := map[[2]string][]history.Op{}
	for i, o := range b.m.h.Ops {
		if o.F != history.Acquire || o.Process == history.NodeProcess {
			continue
		}
		if o.Type == history.Fail || unknown && o.Type == history.Info && !held[i] {
			k := [2]string{o.Client, o.Key}
			out[k] = append(out[k], o)
			// A command that names no key (a connection's HELLO) is
			// part of whichever attempt of its client holds it.
			k[1] = ""
			out[k] = append(out[k], o)
		}
	}
	for _, list := range out {
		sort.SliceStable(list, func(i, j int) bool { return list[i].Invoke < list[j].Invoke })
	}
	if unknown {
		b.failed = out
	} else {
		b.refused = out
	}
	return out
}

// within reports whether node event ev lies inside one of attempts: one
// of its client's on its key whose window holds it (a client's
// operations follow one another). A search, not a scan: a busy run has
// tens of thousands of node events.
func (b *builder) within(attempts map[[2]string][]history.Op, ev history.Op) bool {
	list := attempts[[2]string{ev.Client, ev.Key}]
	i := sort.Search(len(list), func(i int) bool { return list[i].Invoke > ev.Invoke }) - 1
	return i >= 0 && ev.Invoke <= opEnd(list[i], b.m.end)
}

// cutBy says which link fault stood between client and node at t, as a
// line of a tip ("" when none did: the machine may have been too slow).
func (b *builder) cutBy(client, node string, t int64) string {
	for _, w := range b.m.faults {
		if w.Start > t || w.End < t {
			continue
		}
		for _, l := range w.Step.Links {
			if l.Client == client && l.Node == node {
				return "\n" + tr(b.lang, "tip.msg.fault", faultWord(b.lang, w.Step), b.at(w.Start), b.at(w.End))
			}
		}
		if w.Step.Effect == history.EffectFreezeNode && slices.Contains(w.Step.Nodes, node) {
			return "\n" + tr(b.lang, "tip.msg.fault", faultWord(b.lang, w.Step), b.at(w.Start), b.at(w.End))
		}
	}
	return "\n" + tr(b.lang, "tip.msg.nofault")
}

// focusOf is the instant a narrowed timeline is centred on: the first
// violation's start, else the first anomaly's, else the run's middle
// (scenario s).
func focusOf(in Input, m *model) float64 {
	first, info := -1.0, -1.0
	for _, a := range allAnomalies(in.Results) {
		if !a.Informational && (first < 0 || a.StartS < first) {
			first = a.StartS
		}
		if info < 0 || a.StartS < info {
			info = a.StartS
		}
	}
	switch {
	case first >= 0:
		return first
	case info >= 0:
		return info
	}
	return m.sec(m.end) / 2
}

// refusalTip is the tooltip of refused acquire o, from its claim c, as
// the story tells it: refused by the lock itself (told at its end), or by
// the key its claim names, else with no one named (reader 2: the tip said
// "(someone else held it)" of a WAIT that waited 15 s). at writes an
// instant.
func (m *model) refusalTip(lang Lang, o history.Op, c claim.Claim, at func(int64) string) string {
	if text, ok := m.refusedByLock(lang, c); ok {
		return at(o.Complete) + ": " + text
	}
	when := o.Invoke
	if c.Kind == claim.Refusal {
		when = refusedAt(c, o.Invoke)
	}
	msg := m.refusalKey(o, c)
	switch {
	case c.Kind == claim.Refusal && c.Own:
		return at(when) + ": " + tr(lang, "n.tries.own.one", o.Client, o.Key)
	case c.Kind == claim.Refusal && c.How == claim.Restarted:
		return at(when) + ": " + tr(lang, "n.tries.restarted.one", o.Client, o.Key, c.By, c.Node)
	case c.Kind == claim.Refusal && c.What == claim.Inferred && msg == "n.tries":
		msg, by, node := m.refusedInferred(c)
		return at(when) + ": " + tr(lang, msg+".one", o.Client, o.Key, by, node)
	case c.Kind == claim.Refusal && msg == "n.tries" && c.By != "":
		msg, by, node, as := m.refusedOn(lang, c)
		args := []any{o.Client, o.Key, by, node + m.wonText(lang, c)}
		if as != "" {
			args = append(args, as)
		}
		return at(when) + ": " + tr(lang, msg+".one", args...)
	case c.Kind == claim.QueueHead:
		return at(when) + ": " + tr(lang, "n.tries.queue.one", o.Client, o.Key, c.By, c.What)
	}
	return at(when) + ": " + tr(lang, msg+".one", o.Client, o.Key)
}
