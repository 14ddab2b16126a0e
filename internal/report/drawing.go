package report

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

// builder accumulates a drawing.
type builder struct {
	m    *model
	in   Input
	lang Lang
	d    *chart.Drawing
	lane map[string]int // lane name (client or node) → lane
	// res is the lane of each resource a write went to, by its message
	// key (workload.ResourceOf; "" the workload's resource): a job's
	// failedReason is drawn on the job store's row, not the gateway's.
	res    map[string]int
	legend map[string]bool
	// endWords are the words of the key-end ticks drawn, for the legend;
	// quorumEnds those of the ticks of a lock whose quorum was lost
	// (p.quorum.lost.how).
	endWords, quorumEnds []string
	// refused are the refused acquires by client and key, in invoke
	// order, and failed those and the acquires of unknown outcome no hold
	// began with (attempts; made on first use).
	refused, failed map[[2]string][]history.Op
	// held: the acquires the account's holds began with (holdRef).
	held map[int]bool
	// holdAt: the row of each hold drawn at its own height among its
	// client's holds at once, by its acquire's index (holdRows).
	holdAt map[int]holdRow
}

func (b *builder) shape(s chart.Shape) { b.d.Shapes = append(b.d.Shapes, s) }

func (b *builder) label(l chart.Label) { b.d.Labels = append(b.d.Labels, l) }

func (b *builder) legendOnce(id string, e chart.Legend) {
	if !b.legend[id] {
		b.legend[id] = true
		b.d.Legend = append(b.d.Legend, e)
	}
}

// laneOf is the lane of a client or node name, -1 when it has none.
func (b *builder) laneOf(name string) int {
	if i, ok := b.lane[name]; ok {
		return i
	}
	return -1
}

// buildDrawing draws the run of in (its model m) in in.Lang, headline
// under its title.
func buildDrawing(in Input, m *model, headline string) *chart.Drawing {
	lang := normLang(in.Lang)
	h := in.History.Header
	title := h.Scenario + " — " + tr(lang, "verdict."+string(in.Verdict))
	if emulated(h) {
		title += " — " + tr(lang, "emulated")
	}
	if in.Aborted {
		title += " — " + tr(lang, "aborted")
	}
	end := m.sec(m.end)
	if end <= 0 {
		end = 1
	}
	d := &chart.Drawing{Say: sayer(lang), Comma: commaIn(lang), Title: title, Headline: headline, End: end}
	b := &builder{m: m, in: in, lang: lang, d: d, lane: map[string]int{}, res: map[string]int{}, legend: map[string]bool{}}
	for i, c := range m.clients {
		b.lane[c] = len(d.Lanes)
		d.Lanes = append(d.Lanes, chart.Lane{Kind: chart.LaneClient, Name: c, Label: c, Color: i})
	}
	replicas := replicaLanes(in.History, m.nodes)
	for _, n := range nodeLanes(in.History, m.nodes) {
		b.lane[n] = len(d.Lanes)
		d.Lanes = append(d.Lanes, chart.Lane{Kind: chart.LaneNode, Name: n, Label: tr(lang, "p.node", n), Color: -1})
		for _, r := range replicas[n] {
			if _, ok := b.lane[r]; !ok {
				b.lane[r] = len(d.Lanes)
				d.Lanes = append(d.Lanes, chart.Lane{Kind: chart.LaneNode, Name: r, Label: tr(lang, "p.node", r), Sub: tr(lang, "p.node.promoted", n), Color: -1})
			}
		}
	}
	for _, r := range writeResources(in.History) {
		b.res[r] = len(d.Lanes)
		d.Lanes = append(d.Lanes, chart.Lane{Kind: chart.LaneResource, Name: "resource " + r, Label: b.resourceLabel(r), Color: -1})
	}
	b.bands()
	b.faults()
	b.messages() // under the bars and marks
	b.leases()
	b.permits()
	if s := b.endLegend(); s != "" {
		b.legendOnce(chart.ShEnd, chart.Legend{Kind: chart.ShEnd, Color: -1, Text: s})
	}
	b.clocks()
	b.tries()
	b.writes()
	if len(d.Shapes) > chart.MaxLabelled {
		d.Labels = slices.DeleteFunc(d.Labels, func(l chart.Label) bool { return l.Prio < chart.PrFault })
	}
	return d
}

// replicaLanes are the replicas that get a row under their node, by
// node, in name order: each promoted one (a key life lives on the server
// that was its node's master then, account.ServersOf) and each a fault
// acted on (a crash of n1r1 is drawn on n1r1's row; without one it
// shaded every row, as if everything was down, issue 27).
func replicaLanes(h history.History, nodes []string) map[string][]string {
	out := map[string][]string{}
	add := func(group, r string) {
		if r != "" && containsStr(nodes, group) && !containsStr(nodes, r) && !containsStr(out[group], r) {
			out[group] = append(out[group], r)
		}
	}
	for _, op := range h.Ops {
		if op.F != history.Fault || op.Value.Fault == nil {
			continue
		}
		st := op.Value.Fault
		for _, p := range st.Promotions {
			add(p.Group, p.Promoted)
		}
		for _, t := range st.Nodes {
			for _, n := range nodes {
				if history.IsReplicaOf(t, n) {
					add(n, t)
				}
			}
		}
	}
	for _, rs := range out {
		slices.Sort(rs)
	}
	return out
}

// nodeLanes are the nodes that get a lane: none when the algorithm keeps
// no key on any node (the controls, history.Header.KeepsNoKey), whose
// node lanes stayed empty (a teacher's review of lesson 42), unless a
// fault acted on a node, which is drawn on its lane.
func nodeLanes(h history.History, nodes []string) []string {
	if !h.Header.KeepsNoKey() {
		return nodes
	}
	for _, op := range h.Ops {
		if op.F == history.Fault && op.Value.Fault != nil && len(op.Value.Fault.Nodes) > 0 {
			return nodes
		}
	}
	return nil
}

// timelineLanes is the number of lanes a history's timeline has: its
// clients, its nodes and, when it wrote to the resource, the resource.
func timelineLanes(h history.History) int {
	m := newModel(h, nil)
	n := len(m.clients) + len(nodeLanes(h, m.nodes))
	for _, rs := range replicaLanes(h, m.nodes) {
		n += len(rs)
	}
	return n + len(writeResources(h))
}

// at is "t=12.345s" in scenario time, in the drawing's language (a tip's
// precision: instantMs).
func (b *builder) at(ns int64) string { return "t=" + instantMs(b.m.sec(ns)).in(b.lang) + "s" }

// bands: violation windows over every lane, informational waste on its
// clients' lanes.
func (b *builder) bands() {
	m, lang, d := b.m, b.lang, b.d
	as := allAnomalies(b.in.Results)
	bands := mergeBands(as, d.End*0.01)
	for _, bd := range bands {
		var words, tips []string
		for _, k := range bd.kinds {
			words = append(words, m.kindWord(lang, k))
		}
		// The tip gives the anomalies' own window: the band is drawn wider
		// where an instant needs room to be seen.
		s, e := bd.e, bd.s
		var refs []string
		for n, a := range as {
			from, to := violationWindow(a)
			if !a.Informational && to >= bd.s && from <= bd.e && containsStr(bd.kinds, anomalyLabel(a)) {
				tips = append(tips, m.anomalyWord(lang, a)+": "+m.describeAnomaly(lang, a))
				s, e = min(s, from), max(e, to)
				refs = append(refs, anomalyRef(n))
			}
		}
		r := strings.Join(refs, " ")
		if s > e {
			s, e = bd.s, bd.e
		}
		b.shape(chart.Shape{Kind: chart.ShBand, Lane: 0, Lane2: len(d.Lanes) - 1, X0: bd.s, X1: min(bd.e, max(d.End, e)), Y0: -0.5, Y1: 0.5, Color: -1,
			Tip: tr(lang, "tip.band", instant(s), instant(e)) + "\n" + strings.Join(tips, "\n"), Ref: r})
		text := chart.BandWords(tr(lang, "p.violation")+": ", words, func(n int) string { return tr(lang, "p.violation.more", n) })
		b.label(chart.Label{Lane: -1, X: bd.s, Dy: 0, Text: text, Style: chart.LbBand, Prio: chart.PrBand, Ref: r})
	}
	if len(bands) > 0 {
		b.legendOnce(chart.ShBand, chart.Legend{Kind: chart.ShBand, Color: -1, Text: tr(lang, "p.violation")})
	}
	for n, a := range as {
		if a.Kind != checker.KindDuplicateWork {
			continue
		}
		e := max(a.EndS, a.StartS+d.End*0.004)
		for _, c := range a.Clients {
			if i := b.laneOf(c); i >= 0 {
				b.shape(chart.Shape{Kind: chart.ShWaste, Lane: i, Lane2: i, X0: a.StartS, X1: e, Y0: -0.45, Y1: 0.45, Color: -1, Tip: m.describeAnomaly(lang, a), Ref: anomalyRef(n)})
				b.legendOnce(chart.ShWaste, chart.Legend{Kind: chart.ShWaste, Color: -1, Text: tr(lang, "p.waste")})
			}
		}
	}
}

// nodeFaultDy is where a fault's words go on a node's lane (lane heights
// below its centre): at its foot, so they neither hide nor stand for the
// name of the key bar at its centre.
const nodeFaultDy = 0.39

// faults: node and link faults shade their lanes; pauses are drawn over
// the client's bars (after the leases); clock faults become clock strips.
func (b *builder) faults() {
	m, lang, d := b.m, b.lang, b.d
	for _, w := range m.faults {
		st := w.Step
		on, off := w.Active()
		s, e := m.sec(on), m.sec(off)
		if e-s < d.End*0.004 {
			e = s + d.End*0.004
		}
		if st.Effect == history.EffectFreezeClient {
			continue // drawn over the hold bars (pauses)
		}
		dur := m.faultDur(lang, w)
		tip := b.at(on) + " → " + b.at(off) + ": " + byHand(lang, st, m.faultSentence(lang, w, dur))
		fr := ref(claim.Fault, w.Op, "")
		short := faultWord(lang, st)
		if (st.Effect == history.EffectNodeClock || st.Effect == history.EffectClientClock) && st.Rate == 0 {
			short += " " + jump(m.sdur(st.Delta)).in(lang)
		}
		b.legendOnce("f:"+st.Kind, chart.Legend{Kind: chart.ShShade, Sub: st.Effect, Color: -1, Text: faultLegendWord(lang, st)})
		shaded := false
		for _, t := range append(slices.Clone(st.Clients), st.Nodes...) {
			i := b.laneOf(t)
			if i < 0 {
				continue
			}
			shaded = true
			b.shape(chart.Shape{Kind: chart.ShShade, Sub: st.Effect, Lane: i, Lane2: i, X0: s, X1: e, Y0: -0.46, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1, Ref: fr})
			switch {
			case d.Lanes[i].Kind != chart.LaneNode:
				b.label(chart.Label{Lane: i, X: s, Dy: -0.33, Text: short, Style: chart.LbFault, Prio: chart.PrFault, Ref: fr})
			case st.Effect != history.EffectNodeClock: // a clock's strip has its words there (clocks)
				b.label(chart.Label{Lane: i, X: s, Dy: nodeFaultDy, Text: short, Style: chart.LbFault, Prio: chart.PrFault, Ref: fr})
			}
		}
		// A link fault a→b shades b's lane ("cut from a") and draws a
		// strip at the bottom of a's lane ("cut from b, c").
		linkWord := "p.cut"
		switch st.Effect {
		case history.EffectSlowLinks:
			linkWord = "p.slow"
		case history.EffectResetLinks:
			linkWord = "p.reset"
		}
		// A replication link (replication-lag): the master's lane says
		// whose stream it held back, the replica's where from; no one was
		// cut off from anyone.
		nodeWord, clientWord := linkWord, linkWord
		if w := cutWay(st); st.Effect == history.EffectCutLinks && w != "" {
			// One way only (reader 15: "cut from w1" of a cut that lost
			// n1's replies, while w1's commands still ran on n1).
			nodeWord, clientWord = "p.cut."+w+".node", "p.cut."+w+".client"
		}
		if replicationLinks(st) {
			nodeWord, clientWord = "p.repl.stop.master", "p.repl.stop.replica"
			if st.Effect == history.EffectSlowLinks {
				nodeWord, clientWord = "p.repl.slow.master", "p.repl.slow.replica"
			}
		}
		// Each cut node's lane says every client it was cut from; each
		// client's lane, at its foot, every node it was cut from.
		from, to := linkGroups(st.Links)
		var cutNodes []string
		cutFrom := map[string][]string{}
		for _, a := range from {
			for _, n := range to[a] {
				if _, ok := cutFrom[n]; !ok {
					cutNodes = append(cutNodes, n)
				}
				cutFrom[n] = appendNew(cutFrom[n], a)
			}
		}
		for _, n := range cutNodes {
			if bi := b.laneOf(n); bi >= 0 {
				shaded = true
				b.shape(chart.Shape{Kind: chart.ShShade, Sub: st.Effect, Lane: bi, Lane2: bi, X0: s, X1: e, Y0: -0.46, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1, Ref: fr})
				// At the lane's foot, clear of the key bars and their
				// owners' names (at the centre): at -0.33 its words
				// hid a key's name and sat on its bar as if they were
				// the bar's label (issue 31).
				b.label(chart.Label{Lane: bi, X: s, Dy: nodeFaultDy, Text: tr(lang, nodeWord, strings.Join(cutFrom[n], ", ")), Style: chart.LbFault, Prio: chart.PrFault, Ref: fr})
			}
		}
		for _, a := range from {
			if ai := b.laneOf(a); ai >= 0 {
				shaded = true
				b.shape(chart.Shape{Kind: chart.ShStrip, Sub: st.Effect, Lane: ai, Lane2: ai, X0: s, X1: e, Y0: 0.3, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1, Ref: fr})
				b.label(chart.Label{Lane: ai, X: s, Dy: 0.38, Text: tr(lang, clientWord, strings.Join(to[a], ", ")), Style: chart.LbSmall, Prio: chart.PrStrip, Ref: fr})
			}
		}
		if !shaded {
			b.shape(chart.Shape{Kind: chart.ShShade, Sub: st.Effect, Lane: 0, Lane2: len(d.Lanes) - 1, X0: s, X1: e, Y0: -0.5, Y1: 0.5, Color: -1, Tip: tip, Op: w.Op + 1, Ref: fr})
			// Over every row, it names what it acted on: without, it
			// looked as if everything was down (issue 27).
			if ts := targetsOf(st); len(ts) > 0 {
				b.label(chart.Label{Lane: 0, X: s, Dy: -0.33, Text: tr(lang, "p.fault.of", short, joinAnd(lang, ts)), Style: chart.LbFault, Prio: chart.PrFault, Ref: fr})
			}
		}
	}
}

// leases: hold bars on client lanes, the time a client went on believing
// after its lock was lost and the instant it was lost; then every life of
// a lock key on the nodes (keyLives) and the pauses over the bars.
func (b *builder) leases() {
	m, lang := b.m, b.lang
	multiKey := len(m.keys) > 1
	believed := false
	rows := b.holdRows()
	for li, l := range m.leases {
		ci := b.laneOf(l.Client)
		if ci < 0 || m.laneOf(l.Client) < 0 {
			continue
		}
		_, _, _, practice := m.heldInPractice(&l) // its crashed nodes stayed down: no quorum was lost to anyone
		s, held := b.holdSpan(l, practice)
		name := m.tokenLabel(lang, l)
		if multiKey {
			name = l.Key + " " + name
		}
		tip := func() string { return b.leaseTip(l) }
		hr := b.holdRef(l)
		hy := rows[li]
		b.shape(chart.Shape{Kind: chart.ShHold, Lane: ci, Lane2: ci, X0: s, X1: held, Y0: hy.y0, Y1: hy.y1, Color: m.laneOf(l.Client), Tipf: tip, Op: l.Op + 1, Ref: hr})
		switch {
		case hy.rows > 1 && hy.row == hy.rows-1:
			// The bottom one of a client's holds at once: its words
			// under it, the top one's over it (holdRows).
			b.label(chart.Label{Lane: ci, X: s, Dy: holdWordsUnder, Text: name, Style: chart.LbPlain, Prio: chart.PrWrite, Pin: true, Ref: hr})
		case hy.rows > 1 && hy.row > 0:
			// A middle one: its words on it, as a node row's keys (keyBars).
			b.label(chart.Label{Lane: ci, X: s, Dy: hy.centre(), Text: name, Style: chart.LbSmall, Width: hy.e - s, Prio: chart.PrHold, Ref: hr})
		default:
			// Pinned: slid along their row they read as a hold elsewhere
			// (reader 11). The top one of a client's holds at once too.
			b.label(chart.Label{Lane: ci, X: s, Dy: -0.36, Text: name, Style: chart.LbPlain, Prio: chart.PrHold, Pin: true, Ref: hr})
		}
		b.legendOnce("hold:"+l.Client, chart.Legend{Kind: chart.ShHold, Color: m.laneOf(l.Client), Text: tr(lang, b.holdKey(), l.Client)})
		if be := m.sec(l.BelievedEnd); l.BelievedEnd > l.KeyEnd && be > held {
			believed = true
			gone := be
			if r, ok := m.resurrectionOf(l); ok && m.sec(r.After.Start) < be {
				// Its token came back on the key (its own renewal or extend
				// set it again): from then on the key is its own once more.
				gone = max(m.sec(r.After.Start), held)
				b.shape(chart.Shape{Kind: chart.ShHold, Lane: ci, Lane2: ci, X0: gone, X1: be, Y0: hy.y0, Y1: hy.y1, Color: m.laneOf(l.Client), Tipf: tip, Op: r.After.Set + 1, Ref: hr})
				b.label(chart.Label{Lane: ci, X: gone, Dy: -0.36, Text: tr(lang, "p.resurrected"), Style: chart.LbBad, Prio: chart.PrEnd,
					Ref: ref(claim.KeyLife, r.After.Set, r.After.Node)})
			}
			b.shape(chart.Shape{Kind: chart.ShBelieved, Lane: ci, Lane2: ci, X0: held, X1: gone, Y0: hy.y0, Y1: hy.y1, Color: -1, Tipf: tip, Op: l.Op + 1, Ref: hr})
		}
		// Where the client's lock was lost, on its own lane: only when the
		// account's cause says its key was gone (expired, lost with its
		// node), taken or purged — a release or a foreign DEL is told by
		// its own command — and never for the final probe, which holds
		// the lock for an instant to see that it can.
		if !l.lost() || practice || l.KeyEnd > m.end || b.in.History.Ops[l.Op].F == history.Probe {
			continue
		}
		if !(l.Cause.Gone() || l.Cause.Kind == account.EndTaken || l.Cause.Kind == account.EndPurged) {
			continue
		}
		word := endWord(lang, l.Cause)
		quorum := len(l.Lives) > 1 && len(m.nodes) > 1
		if quorum {
			word = tr(lang, "p.quorum.lost.how", word, l.CauseNode)
		}
		x := m.sec(l.KeyEnd)
		er := lostRef(l, hr)
		b.shape(chart.Shape{Kind: chart.ShEnd, Lane: ci, Lane2: ci, X0: x, X1: x, Y0: hy.t0, Y1: hy.t1, Color: -1, Tipf: tip, Op: l.Op + 1, Ref: er})
		b.label(chart.Label{Lane: ci, X: x, Dy: -0.36, Text: word, Style: chart.LbPlain, Prio: chart.PrEnd, Ref: er})
		if quorum {
			b.quorumEnds = appendNew(b.quorumEnds, word)
		} else {
			b.endWords = appendNew(b.endWords, word)
		}
	}
	if believed {
		b.legendOnce(chart.ShBelieved, chart.Legend{Kind: chart.ShBelieved, Color: -1, Text: tr(lang, b.believedKey())})
	}
	b.keyLives()
	b.pauses()
}

// pauses: each client pause over its lane (over the hold bars).
func (b *builder) pauses() {
	m, lang, d := b.m, b.lang, b.d
	for _, w := range m.faults {
		if w.Step.Effect != history.EffectFreezeClient {
			continue
		}
		s, e := m.sec(w.Start), m.sec(w.End)
		if e-s < d.End*0.004 {
			e = s + d.End*0.004
		}
		dur := m.faultDur(lang, w)
		for _, c := range w.Step.Clients {
			i := b.laneOf(c)
			if i < 0 {
				continue
			}
			pt := m.pausePoint(lang, w.Step, b.faultClaim(w))
			tip := b.at(w.Start) + " → " + b.at(w.End) + ": " + byHand(lang, w.Step, tr(lang, causeKey("n.pause", w.Step), c, dur, pt))
			fr := ref(claim.Fault, w.Op, "")
			b.shape(chart.Shape{Kind: chart.ShPause, Lane: i, Lane2: i, X0: s, X1: e, Y0: -0.27, Y1: 0.27, Color: -1, Tip: tip, Op: w.Op + 1, Ref: fr})
			b.label(chart.Label{Lane: i, X: (s + e) / 2, Dy: 0, Text: tr(lang, "p.paused", c, tr(lang, causeKey("p.pause.word", w.Step)), dur), Style: chart.LbOn, Mid: true, Width: e - s, Prio: chart.PrPause, Ref: fr})
			b.legendOnce("f:pause:"+w.Step.Cause, chart.Legend{Kind: chart.ShPause, Color: -1, Text: tr(lang, causeKey("p.pause", w.Step))})
		}
	}
}

func appendNew(xs []string, s string) []string {
	if containsStr(xs, s) {
		return xs
	}
	return append(xs, s)
}

// holdKey is the legend's words for a hold bar: a permit, or the
// workload's own words for its lock ("p.hold.<workload>"), or the lock.
func (b *builder) holdKey() string {
	w := b.in.History.Header.Workload
	if b.in.History.Header.NoLock() {
		return "p.hold.nolock" // nothing is held: the control let it in
	}
	if workload.Of(b.in.History.Header).Permits {
		return "p.hold.permit"
	}
	if _, ok := messages[English]["p.hold."+w]; ok {
		return "p.hold." + w
	}
	return "p.hold"
}

// believedKey is the legend's words for a belief that outlived the lock:
// a permit, a quorum of nodes, or the key.
func (b *builder) believedKey() string {
	switch {
	case workload.Of(b.in.History.Header).Permits:
		return "p.believed.permit"
	case len(b.m.nodes) > 1:
		return "p.believed.quorum"
	}
	return "p.believed"
}

// keptKey is the words of a lock no key's end took away: its key was
// still in Redis, or — for a lock that keeps no key (the header's traits)
// — an in-process mutex held until released, or no lock at all.
func (b *builder) keptKey() string {
	switch h := b.in.History.Header; {
	case h.InProcess():
		return "tip.kept.mutex"
	case h.NoLock():
		return "tip.kept.nolock"
	}
	return "tip.kept"
}

// leaseTip tells one lock: who held it with which token, which nodes
// granted it, when and how it was lost and when its client stopped
// believing it held it — every fact the account's.
func (b *builder) leaseTip(l lease) string {
	m, lang := b.m, b.lang
	var lines []string
	tt := m.tokenText(lang, l.Fence, l.Token)
	if b.in.History.Header.KeepsNoKey() {
		lines = append(lines, tr(lang, "tip.hold.nokey", l.Client, l.Key, tt, b.at(l.Start))) // no TTL stood for it
	} else {
		// A semaphore's holder holds a permit, as its legend says
		// (reader 16, F5: "w1 held the lock on sem-1").
		lines = append(lines, tr(lang, pick(workload.Of(b.in.History.Header).Permits, "tip.hold.permit", "tip.hold"), l.Client, l.Key, tt, m.sdur(l.TTL), b.at(l.Start)))
	}
	if len(m.nodes) > 1 && len(l.Nodes) > 0 {
		lines = append(lines, tr(lang, "tip.hold.nodes", joinAnd(lang, l.Nodes), len(l.Nodes), len(m.nodes)))
	}
	if l.Token != "" && m.tokens[l.Token] != l.Token {
		lines = append(lines, tr(lang, "tip.token", l.Token))
	}
	ns, left, upAt, practice := m.heldInPractice(&l)
	if practice {
		lines = append(lines, tr(lang, "tip.crash.held", joinAnd(lang, ns), b.at(l.KeyEnd), left, len(m.nodes), b.at(upAt), l.Client))
	} else if left := m.releasedCopies(l); l.KeyEnd <= m.end && len(left) > 0 {
		// Its own release deleting it node by node: given up, not lost.
		lines = append(lines, tr(lang, "tip.quorum.released", l.Client, b.at(l.KeyEnd), len(left), len(m.nodes), joinAnd(lang, left)))
		if last := lastCopyEnd(l); last <= m.end {
			lines = append(lines, tr(lang, "tip.quorum.last", b.at(last)))
		}
	} else if left := m.copiesAfter(l); l.lost() && l.KeyEnd <= m.end && len(left) > 0 {
		// Its quorum lost while copies stood: say how many, and when the
		// last left, not that its key left Redis (a fresh reader of
		// redlock-clock-jump: n1 and n2 kept w1's key).
		lines = append(lines, tr(lang, "tip.quorum.lost", b.at(l.KeyEnd), len(left), len(m.nodes), joinAnd(lang, left), m.a.Quorum()))
		if last := lastCopyEnd(l); last <= m.end {
			lines = append(lines, tr(lang, "tip.quorum.last", b.at(last)))
		}
	} else if l.lost() && l.KeyEnd <= m.end {
		why := endWord(lang, l.Cause)
		if r, ok := m.copyLostOf(l.Cause.Step, l.Client); ok && l.Cause.Kind == account.EndFailover {
			// Its last copy went with the replica that had acknowledged
			// it, not with its master (reader 13, failover-wait-two-replicas).
			why = tr(lang, "p.failover.copy", r)
		}
		if len(l.Lives) > 1 && len(m.nodes) > 1 {
			why = tr(lang, "tip.quorum", len(m.nodes)/2+1)
		}
		lines = append(lines, tr(lang, "tip.lost", b.at(l.KeyEnd), why))
	} else {
		lines = append(lines, tr(lang, b.keptKey()))
	}
	if l.EndHow != "" {
		lines = append(lines, tr(lang, "tip.belief."+l.EndHow, l.Client, b.at(l.BelievedEnd)))
		if l.BelievedEnd > l.KeyEnd && l.lost() && !practice {
			lines = append(lines, tr(lang, "tip.belief.after", l.Client, span(m.sec(l.BelievedEnd)-m.sec(l.KeyEnd))))
		}
	}
	return strings.Join(lines, "\n")
}

// keyTip tells one key life: where, whose, when it was set and how it
// left the node (the account's), with the server that held it after a
// failover and whether it was observed or inferred.
func (b *builder) keyTip(k account.KeyLife, l *lease) string {
	m, lang := b.m, b.lang
	owner := k.Owner
	if owner == "" {
		owner = "?"
	}
	tok := m.tokenText(lang, 0, k.Value)
	if l != nil {
		tok = m.tokenText(lang, l.Fence, l.Token)
	}
	stints := m.a.ServersOf(k)
	lines := []string{b.keySetLine(k, stints[0].Server, owner, tok)}
	for _, st := range stints {
		if st.Server != k.Node {
			lines = append(lines, tr(lang, "tip.key.server", st.Server, k.Node, b.at(st.Start)))
		}
	}
	if l == nil {
		lines = append(lines, tr(lang, "tip.key.nogrant", owner))
	}
	if k.End <= m.end && k.Ended.Kind != account.EndHeld {
		how := endWord(lang, k.Ended)
		if k.Ended.By != "" && k.Ended.Kind != account.EndReleased {
			how += " (" + k.Ended.By + ")"
		}
		lines = append(lines, tr(lang, "tip.key.end", b.at(k.End), how))
	} else {
		lines = append(lines, tr(lang, "tip.key.held"))
	}
	if !k.Observed {
		lines = append(lines, tr(lang, "tip.key.inferred"))
	}
	return strings.Join(lines, "\n")
}

// permits draws a semaphore's permits (the account's sorted-set members)
// on their node's lane, one thin row per permit slot, each in its owner's
// colour from the ZADD to its end; a purge ends one with a tick.
func (b *builder) permits() {
	m, lang, d := b.m, b.lang, b.d
	lockKeys := map[string]bool{}
	for _, k := range m.keys {
		lockKeys[k] = true
	}
	// The permits that backed a grant, on the lock's own key (a fair
	// semaphore's owner set is its twin; a refused attempt's member lives
	// for an instant and backs nothing).
	var ms []account.MemberLife
	for _, ml := range m.a.Members() {
		if lockKeys[ml.Key] && ml.Grant >= 0 {
			ms = append(ms, ml)
		}
	}
	if len(ms) == 0 {
		return
	}
	rows := map[string][]int64{} // node → end of the last permit in each row
	slot := make([]int, len(ms))
	for i, ml := range ms {
		r := rows[ml.Node]
		j := 0
		for j < len(r) && r[j] > ml.Start {
			j++
		}
		if j == len(r) {
			r = append(r, 0)
		}
		r[j] = ml.End
		rows[ml.Node] = r
		slot[i] = j
	}
	purged := false
	for i, ml := range ms {
		ni := b.laneOf(ml.Node)
		if ni < 0 || d.Lanes[ni].Kind != chart.LaneNode {
			continue
		}
		n := max(len(rows[ml.Node]), 1)
		hgt := 0.8 / float64(n)
		y0 := -0.4 + float64(slot[i])*hgt
		s, e := m.sec(ml.Start), m.sec(ml.End)
		if ml.End > m.end {
			e = d.End
		}
		if e <= s {
			e = s + d.End*0.003
		}
		tip := tr(lang, "tip.permit", ml.Node, ml.Key, ml.Owner, b.at(ml.Start))
		if ml.End <= m.end && ml.Ended.Kind != account.EndHeld {
			tip += "\n" + tr(lang, "tip.key.end", b.at(ml.End), endWord(lang, ml.Ended))
		}
		pr := ref(claim.Permit, ml.Set, ml.Node)
		b.shape(chart.Shape{Kind: chart.ShPermit, Lane: ni, Lane2: ni, X0: s, X1: e, Y0: y0 + hgt*0.1, Y1: y0 + hgt*0.9, Color: max(m.laneOf(ml.Owner), 0), Tip: tip, Op: ml.Grant + 1, Ref: pr})
		if ml.Ended.Kind == account.EndPurged && ml.End <= m.end {
			purged = true
			b.shape(chart.Shape{Kind: chart.ShEnd, Lane: ni, Lane2: ni, X0: e, X1: e, Y0: y0, Y1: y0 + hgt, Color: -1, Tip: tip, Op: ml.Grant + 1, Ref: pr})
		}
	}
	b.legendOnce(chart.ShPermit, chart.Legend{Kind: chart.ShPermit, Color: 0, Text: tr(lang, "p.permit")})
	if purged {
		b.endWords = appendNew(b.endWords, endWord(lang, account.End{Kind: account.EndPurged}))
	}
}

// clocks draws each node's (and client's) clock offset from the instant
// a clock fault set it: "clock +15s" from the jump on, "clock ×1.5"
// while a drift lasts.
func (b *builder) clocks() {
	m, lang, d := b.m, b.lang, b.d
	offset := map[string]int64{} // name → offset so far, wall ns
	// next: a jump (its position in m.faults) and a clock it set → when
	// that clock next jumped: its offset's strip ends there.
	type jumpOf struct {
		w    int
		name string
	}
	next := map[jumpOf]int64{}
	lastJump := map[string]int{}
	for wi, w := range m.faults {
		st := w.Step
		if st.Rate != 0 || (st.Effect != history.EffectNodeClock && st.Effect != history.EffectClientClock) {
			continue
		}
		for _, n := range clockNames(st) {
			if p, ok := lastJump[n]; ok {
				next[jumpOf{p, n}] = w.Start
			}
			lastJump[n] = wi
		}
	}
	for wi, w := range m.faults {
		st := w.Step
		if st.Effect != history.EffectNodeClock && st.Effect != history.EffectClientClock {
			continue
		}
		names := clockNames(st)
		for _, n := range names {
			i := b.laneOf(n)
			if i < 0 {
				continue
			}
			s := m.sec(w.Start)
			var text, tip string
			e := d.End
			r := ref(claim.ClockOffset, w.Op, n)
			if t, ok := next[jumpOf{wi, n}]; ok {
				e = m.sec(t) // the next jump of this clock
			}
			if st.Rate != 0 {
				e = max(m.sec(w.End), s+d.End*0.004)
				r = ref(claim.Fault, w.Op, "")
				text = tr(lang, "p.clock.rate", fmtRate(st.Rate))
				tip = tr(lang, "tip.clock.rate", n, fmtRate(st.Rate), b.at(w.Start), b.at(w.End))
			} else {
				offset[n] += st.Delta
				text = tr(lang, "p.clock.offset", jump(m.sdur(offset[n])))
				tip = tr(lang, "tip.clock.jump", n, jump(m.sdur(st.Delta)), b.at(w.Start), jump(m.sdur(offset[n])))
				d.Lanes[i].Sub = text
			}
			b.shape(chart.Shape{Kind: chart.ShClock, Lane: i, Lane2: i, X0: s, X1: e, Y0: 0.3, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1, Ref: r})
			b.label(chart.Label{Lane: i, X: s, Dy: 0.38, Text: text, Style: chart.LbFault, Prio: chart.PrFault, Ref: r})
			// A rate alone sets no offset: its entry says what it drew.
			id, legend := chart.ShClock, "p.clock.legend"
			if st.Rate != 0 {
				id, legend = chart.ShClock+"-rate", "p.clock.legend.rate"
			}
			b.legendOnce(id, chart.Legend{Kind: chart.ShClock, Color: -1, Text: tr(lang, legend)})
		}
	}
}

// fmtRate is a clock's rate with every digit the plan gave: 1.005 is no
// 1 (a rounded "×1" said the clock kept time).
func fmtRate(r float64) decimal { return decimal{r, -1} }

// clockNames are the clocks a clock fault sets: its nodes', or its
// clients'.
func clockNames(st history.FaultStep) []string {
	if st.Effect == history.EffectClientClock {
		return st.Clients
	}
	return st.Nodes
}

// lostRef names the claim of where lease l was lost: the end of its key's
// life on the node that cost it the lock, else its hold (hr).
func lostRef(l lease, hr string) string {
	for _, k := range l.Lives {
		if k.Node == l.CauseNode && k.LostAt() == l.KeyEnd {
			return either(ref(claim.KeyLife, k.Set, k.Node), hr)
		}
	}
	return hr
}

// holdRef names the claims a lease's bar draws: the account's hold that
// its grant began; for a grant the account has no belief of (the final
// probe's), the key lives (or permits) that backed it.
func (b *builder) holdRef(l lease) string {
	if b.held == nil {
		b.held = map[int]bool{}
		for _, h := range b.m.a.Holds {
			b.held[h.Acquire] = true
		}
	}
	if b.held[l.Op] {
		r := ref(claim.Hold, l.Op, l.Client)
		if len(b.m.copiesLeft(l)) > 0 {
			r += " " + livesRef(l) // its tip tells the copies its lost quorum (or its release) left
		}
		return r
	}
	var rs []string
	for _, k := range l.Lives {
		rs = append(rs, ref(claim.KeyLife, k.Set, k.Node))
	}
	for _, ml := range b.m.a.Members() { // a semaphore's permits
		if ml.Grant == l.Op {
			rs = append(rs, ref(claim.Permit, ml.Set, ml.Node))
		}
	}
	if len(rs) == 0 {
		// A grant that set no key (the no-lock control's final probe: the
		// control takes nothing) rests on its operation's outcome.
		return either(ref(claim.Hold, l.Op, l.Client), ref(claim.Outcome, l.Op, ""))
	}
	return strings.Join(rs, " ")
}
