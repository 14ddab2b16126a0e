package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// The drawing model. A drawing is the timeline of a run as shapes on lanes
// over scenario seconds, each shape with its words and the fact behind it
// (its tip): what index.html's SVG timeline (svg.go) and timeline.png
// (timeline.go) both draw, so neither has a layout of its own. It is built
// from the model only (the run's account, the checkers' anomalies, the
// history's operations and node events); it decides nothing about pixels:
// a renderer places the labels and drops any that would overprint
// another.
//
// Lanes, top to bottom: one per client (w1, w2, …, the final probe), one
// per Redis node (with its clock offset when a clock fault applies) and,
// when the run wrote to it, one for the protected resource (its accepted
// and refused writes and the highest fencing token it has seen).
type drawing struct {
	Lang     Lang
	Title    string // "scenario — VERDICT" (and emulated / aborted)
	Headline string
	// Start and End are the x range, scenario s: the whole run, or a
	// window of a busy one (Note says so).
	Start, End float64
	Note       string
	Lanes      []dLane
	Shapes     []dShape // in drawing order (later over earlier)
	Labels     []dLabel
	Legend     []dLegend
}

// Lane kinds.
const (
	laneClient   = "client"
	laneNode     = "node"
	laneResource = "resource"
)

// dLane is one row of the timeline.
type dLane struct {
	Kind  string // laneClient, laneNode, laneResource
	Name  string // w1, n3, the resource's name
	Label string // what the row is called: "w1", "node n3"
	Sub   string // a second line: "clock +15s" (the node's offset at the end)
	Color int    // a client's palette index; -1 for the others
}

// Shape kinds: each is a CSS class of the SVG and a style of the PNG
// (styles.go), and each has a legend text.
const (
	shBand     = "band"     // a violation window over every lane
	shWaste    = "waste"    // wasted work (informational) on a client lane
	shShade    = "shade"    // a fault on a lane (Sub: its effect)
	shStrip    = "strip"    // a link fault's strip on the cut client's lane
	shPause    = "pause"    // a client frozen (over its bars)
	shHold     = "hold"     // a lock (or permit) held by a client
	shBelieved = "believed" // still believed held after it was lost
	shKey      = "key"      // the lock key on a node
	shPermit   = "permit"   // a semaphore permit (sorted-set member) on a node
	shEnd      = "end"      // a tick where a key (or a lock) was lost
	shClock    = "clock"    // a node's (or client's) clock offset
	shTry      = "try"      // a refused acquire attempt
	shWriteOK  = "w-ok"     // an accepted effect
	shWriteBad = "w-bad"    // an accepted write a checker names as the violation
	shWriteRef = "w-ref"    // a write the resource refused
	shWriteOth = "w-oth"    // another accepted write (claim, mark-paid, exit)
	shSeen     = "seen"     // the highest fencing token the resource has seen
	shMsg      = "msg"      // a command to a node and its reply (Sub: msgCmd …)
)

// Message arrow kinds (dShape.Sub of shMsg).
const (
	msgCmd   = "cmd"   // a command the node executed
	msgReply = "reply" // its reply
	msgLost  = "lost"  // a command that never reached the node: cut arrow
	msgNoRep = "norep" // a reply that never reached the client: cut arrow
)

// dShape is one mark of the timeline. X is scenario seconds; Y is an
// offset from the lane's centre in lane heights, downwards positive.
type dShape struct {
	Kind   string
	Sub    string // the effect of a shade, the kind of a message
	Lane   int
	Lane2  int     // a band's last lane, an arrow's target lane
	X0, X1 float64 // scenario s; X1 = X0 for a point
	Y0, Y1 float64
	Color  int    // a client's palette index, -1 none
	Tip    string // hover: the whole operation and the fact behind it
	// Tipf, when Tip is empty, makes the tip on demand: a busy run's
	// drawing has tens of thousands of shapes and its SVG shows a window.
	Tipf func() string
	Op   int // history index of the operation it draws (+1); 0 none
	// Claim is the id of the claim (Results.Claims) the mark draws, ""
	// none (markClaims).
	Claim string
}

// tip is the shape's hover text.
func (s dShape) tip() string {
	if s.Tip == "" && s.Tipf != nil {
		return s.Tipf()
	}
	return s.Tip
}

// Label styles (dLabel.Style).
const (
	lbPlain = "lb"     // black
	lbBand  = "lb-bad" // a violation's words (dark red)
	lbOK    = "lb-ok"  // an accepted effect (dark green)
	lbBad   = "lb-bad" // the violating write
	lbFault = "lb-f"   // a fault's words (dark purple)
	lbSmall = "lb-s"   // small, black
	lbOn    = "lb-on"  // white, bold, centred on a dark pause
)

// dLabel is a word placed on a lane: at X (scenario s), at Dy lane heights
// below the lane's centre, left-aligned unless Mid. Prio orders the labels
// a renderer keeps when two would overlap (higher kept first).
type dLabel struct {
	Lane  int
	X, Dy float64
	Text  string
	Style string
	Mid   bool
	// Width, when > 0, is the room the label must fit in (scenario s):
	// a renderer drops a label wider than it (a name inside its bar).
	Width float64
	Prio  int
}

// dLegend is one entry of the legend: a swatch of a shape kind (and
// colour) with its words.
type dLegend struct {
	Kind, Sub string
	Color     int
	Text      string
}

// Label priorities.
const (
	prBand  = 9
	prWrite = 7
	prPause = 8
	// A write a checker names as the violation keeps its label over a
	// legitimate write's beside it (two charges 7 ms apart: the red mark
	// must not carry the other client's name).
	prViolWrite = 8
	prFault     = 6
	prEnd       = 5
	prHold      = 4
	prKey       = 3
	prSeen      = 2
	prStrip     = 1
	prLowest    = 0
)

// maxLabelled bounds the shapes of a drawing that get words: a busy run's
// timeline keeps its marks (and their tips) and drops its labels.
const maxLabelled = 3000

// builder accumulates a drawing.
type builder struct {
	m      *model
	in     Input
	lang   Lang
	d      *drawing
	lane   map[string]int // lane name (client or node) → lane
	res    int            // the resource lane, -1 none
	legend map[string]bool
	// endWords are the words of the key-end ticks drawn, for the legend.
	endWords []string
}

func (b *builder) shape(s dShape) { b.d.Shapes = append(b.d.Shapes, s) }

func (b *builder) label(l dLabel) { b.d.Labels = append(b.d.Labels, l) }

func (b *builder) legendOnce(id string, e dLegend) {
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
func buildDrawing(in Input, m *model, headline string) *drawing {
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
	d := &drawing{Lang: lang, Title: title, Headline: headline, End: end}
	b := &builder{m: m, in: in, lang: lang, d: d, lane: map[string]int{}, res: -1, legend: map[string]bool{}}
	for i, c := range m.clients {
		b.lane[c] = len(d.Lanes)
		d.Lanes = append(d.Lanes, dLane{Kind: laneClient, Name: c, Label: c, Color: i})
	}
	// A node's promoted replicas follow it: a key life lives on the
	// server that was its node's master then (account.ServersOf).
	promoted := map[string][]string{}
	for _, w := range m.a.Faults {
		for _, p := range w.Step.Promotions {
			if p.Promoted != "" && !containsStr(m.nodes, p.Promoted) && !containsStr(promoted[p.Group], p.Promoted) {
				promoted[p.Group] = append(promoted[p.Group], p.Promoted)
			}
		}
	}
	for _, n := range m.nodes {
		b.lane[n] = len(d.Lanes)
		d.Lanes = append(d.Lanes, dLane{Kind: laneNode, Name: n, Label: tr(lang, "p.node", n), Color: -1})
		for _, r := range promoted[n] {
			if _, ok := b.lane[r]; !ok {
				b.lane[r] = len(d.Lanes)
				d.Lanes = append(d.Lanes, dLane{Kind: laneNode, Name: r, Label: tr(lang, "p.node", r), Sub: tr(lang, "p.node.promoted", n), Color: -1})
			}
		}
	}
	for _, o := range in.History.Ops {
		if o.F == history.Write {
			b.res = len(d.Lanes)
			d.Lanes = append(d.Lanes, dLane{Kind: laneResource, Name: "resource", Label: b.resourceName(), Color: -1})
			break
		}
	}
	b.bands()
	b.faults()
	b.messages() // under the bars and marks
	b.leases()
	b.permits()
	if len(b.endWords) > 0 {
		b.legendOnce(shEnd, dLegend{Kind: shEnd, Color: -1, Text: tr(lang, "p.ended", strings.Join(b.endWords, ", "))})
	}
	b.clocks()
	b.tries()
	b.writes()
	if len(d.Shapes) > maxLabelled {
		d.Labels = slices.DeleteFunc(d.Labels, func(l dLabel) bool { return l.Prio < prFault })
	}
	return d
}

// timelineLanes is the number of lanes a history's timeline has: its
// clients, its nodes and, when it wrote to the resource, the resource.
func timelineLanes(h history.History) int {
	m := newModel(h, nil)
	n := len(m.clients) + len(m.nodes)
	for _, o := range h.Ops {
		if o.F == history.Write {
			return n + 1
		}
	}
	return n
}

// resourceName is the resource lane's name, by workload.
func (b *builder) resourceName() string {
	w := b.in.History.Header.Workload
	if _, ok := messages[English]["lane.resource."+w]; ok {
		return tr(b.lang, "lane.resource."+w)
	}
	return tr(b.lang, "lane.resource")
}

// at is "t=12.3s" in scenario time.
func (b *builder) at(ns int64) string { return "t=" + fmtT3(b.m.sec(ns)) + "s" }

// fmtT3 is a scenario instant with up to three decimals (a tip's
// precision: node events microseconds apart stay apart).
func fmtT3(s float64) string {
	v := fmt.Sprintf("%.3f", s)
	v = strings.TrimRight(v, "0")
	if strings.HasSuffix(v, ".") {
		v += "0"
	}
	return v
}

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
		for _, a := range as {
			if !a.Informational && a.EndS >= bd.s && a.StartS <= bd.e && containsStr(bd.kinds, a.Kind) {
				tips = append(tips, m.kindWord(lang, a.Kind)+": "+m.describeAnomaly(lang, a))
				s, e = min(s, a.StartS), max(e, a.EndS)
			}
		}
		if s > e {
			s, e = bd.s, bd.e
		}
		b.shape(dShape{Kind: shBand, Lane: 0, Lane2: len(d.Lanes) - 1, X0: bd.s, X1: min(bd.e, max(d.End, e)), Y0: -0.5, Y1: 0.5, Color: -1,
			Tip: tr(lang, "tip.band", fmtT(s), fmtT(e)) + "\n" + strings.Join(tips, "\n")})
		b.label(dLabel{Lane: -1, X: bd.s, Dy: 0, Text: tr(lang, "p.violation") + ": " + strings.Join(words, ", "), Style: lbBand, Prio: prBand})
	}
	if len(bands) > 0 {
		b.legendOnce(shBand, dLegend{Kind: shBand, Color: -1, Text: tr(lang, "p.violation")})
	}
	for _, a := range as {
		if a.Kind != checker.KindDuplicateWork {
			continue
		}
		e := max(a.EndS, a.StartS+d.End*0.004)
		for _, c := range a.Clients {
			if i := b.laneOf(c); i >= 0 {
				b.shape(dShape{Kind: shWaste, Lane: i, Lane2: i, X0: a.StartS, X1: e, Y0: -0.45, Y1: 0.45, Color: -1, Tip: m.describeAnomaly(lang, a)})
				b.legendOnce(shWaste, dLegend{Kind: shWaste, Color: -1, Text: tr(lang, "p.waste")})
			}
		}
	}
}

// faults: node and link faults shade their lanes; pauses are drawn over
// the client's bars (after the leases); clock faults become clock strips.
func (b *builder) faults() {
	m, lang, d := b.m, b.lang, b.d
	for _, w := range m.faults {
		st := w.Step
		s, e := m.sec(w.Start), m.sec(w.End)
		if e-s < d.End*0.004 {
			e = s + d.End*0.004
		}
		if st.Effect == history.EffectFreezeClient {
			continue // drawn over the hold bars (pauses)
		}
		dur := m.faultDur(lang, w)
		tip := b.at(w.Start) + " → " + b.at(w.End) + ": " + byHand(lang, st, m.faultSentence(lang, w, dur))
		short := faultWord(lang, st)
		if (st.Effect == history.EffectNodeClock || st.Effect == history.EffectClientClock) && st.Rate == 0 {
			short += " " + signedDur(m.sdur(st.Delta))
		}
		b.legendOnce("f:"+st.Kind, dLegend{Kind: shShade, Sub: st.Effect, Color: -1, Text: faultLegendWord(lang, st)})
		shaded := false
		for _, t := range append(slices.Clone(st.Clients), st.Nodes...) {
			i := b.laneOf(t)
			if i < 0 {
				continue
			}
			shaded = true
			b.shape(dShape{Kind: shShade, Sub: st.Effect, Lane: i, Lane2: i, X0: s, X1: e, Y0: -0.46, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1})
			b.label(dLabel{Lane: i, X: s, Dy: -0.33, Text: short, Style: lbFault, Prio: prFault})
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
				b.shape(dShape{Kind: shShade, Sub: st.Effect, Lane: bi, Lane2: bi, X0: s, X1: e, Y0: -0.46, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1})
				b.label(dLabel{Lane: bi, X: s, Dy: -0.33, Text: tr(lang, linkWord, strings.Join(cutFrom[n], ", ")), Style: lbFault, Prio: prFault})
			}
		}
		for _, a := range from {
			if ai := b.laneOf(a); ai >= 0 {
				shaded = true
				b.shape(dShape{Kind: shStrip, Sub: st.Effect, Lane: ai, Lane2: ai, X0: s, X1: e, Y0: 0.3, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1})
				b.label(dLabel{Lane: ai, X: s, Dy: 0.38, Text: tr(lang, linkWord, strings.Join(to[a], ", ")), Style: lbSmall, Prio: prStrip})
			}
		}
		if !shaded {
			b.shape(dShape{Kind: shShade, Sub: st.Effect, Lane: 0, Lane2: len(d.Lanes) - 1, X0: s, X1: e, Y0: -0.5, Y1: 0.5, Color: -1, Tip: tip, Op: w.Op + 1})
		}
	}
}

// leases: hold bars on client lanes, the time a client went on believing
// after its lock was lost and the instant it was lost; then every life of
// a lock key on the nodes (keyLives) and the pauses over the bars.
func (b *builder) leases() {
	m, lang, d := b.m, b.lang, b.d
	multiKey := len(m.keys) > 1
	believed := false
	for _, l := range m.leases {
		ci := b.laneOf(l.Client)
		if ci < 0 || m.laneOf(l.Client) < 0 {
			continue
		}
		s, held := m.sec(l.Start), m.sec(min(l.KeyEnd, l.BelievedEnd))
		if l.KeyEnd > m.end && l.BelievedEnd >= m.end {
			held = d.End
		}
		if held <= s {
			held = s + d.End*0.003
		}
		name := m.tokenLabel(lang, l)
		if multiKey {
			name = l.Key + " " + name
		}
		tip := func() string { return b.leaseTip(l) }
		b.shape(dShape{Kind: shHold, Lane: ci, Lane2: ci, X0: s, X1: held, Y0: -0.2, Y1: 0.2, Color: m.laneOf(l.Client), Tipf: tip, Op: l.Op + 1})
		b.label(dLabel{Lane: ci, X: s, Dy: -0.36, Text: name, Style: lbPlain, Prio: prHold})
		b.legendOnce("hold:"+l.Client, dLegend{Kind: shHold, Color: m.laneOf(l.Client), Text: tr(lang, b.holdKey(), l.Client)})
		if be := m.sec(l.BelievedEnd); l.BelievedEnd > l.KeyEnd && be > held {
			believed = true
			gone := be
			if r, ok := m.resurrectionOf(l); ok && m.sec(r.After.Start) < be {
				// Its token came back on the key (its own renewal or extend
				// set it again): from then on the key is its own once more.
				gone = max(m.sec(r.After.Start), held)
				b.shape(dShape{Kind: shHold, Lane: ci, Lane2: ci, X0: gone, X1: be, Y0: -0.2, Y1: 0.2, Color: m.laneOf(l.Client), Tipf: tip, Op: r.After.Set + 1})
				b.label(dLabel{Lane: ci, X: gone, Dy: -0.36, Text: tr(lang, "p.resurrected"), Style: lbBad, Prio: prEnd})
			}
			b.shape(dShape{Kind: shBelieved, Lane: ci, Lane2: ci, X0: held, X1: gone, Y0: -0.2, Y1: 0.2, Color: -1, Tipf: tip, Op: l.Op + 1})
		}
		// Where the client's lock was lost, on its own lane: only when the
		// account's cause says its key was gone (expired, lost with its
		// node), taken or purged — a release or a foreign DEL is told by
		// its own command — and never for the final probe, which holds
		// the lock for an instant to see that it can.
		if !l.lost() || l.KeyEnd > m.end || b.in.History.Ops[l.Op].F == history.Probe {
			continue
		}
		if !(l.Cause.Gone() || l.Cause.Kind == account.EndTaken || l.Cause.Kind == account.EndPurged) {
			continue
		}
		word := endWord(lang, l.Cause)
		if len(l.Lives) > 1 && len(m.nodes) > 1 {
			word = tr(lang, "p.quorum.lost.how", endWord(lang, l.Cause), l.CauseNode)
		}
		x := m.sec(l.KeyEnd)
		b.shape(dShape{Kind: shEnd, Lane: ci, Lane2: ci, X0: x, X1: x, Y0: -0.32, Y1: 0.32, Color: -1, Tipf: tip, Op: l.Op + 1})
		b.label(dLabel{Lane: ci, X: x, Dy: -0.36, Text: word, Style: lbPlain, Prio: prEnd})
		b.endWords = appendNew(b.endWords, word)
	}
	if believed {
		b.legendOnce(shBelieved, dLegend{Kind: shBelieved, Color: -1, Text: tr(lang, b.believedKey())})
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
			pt := ""
			if w.Step.Trigger.Kind == history.TriggerPoint {
				pt = tr(lang, "n.pause.point", pointWord(lang, w.Step.Trigger.Point))
			}
			tip := b.at(w.Start) + " → " + b.at(w.End) + ": " + byHand(lang, w.Step, tr(lang, causeKey("n.pause", w.Step), c, dur, pt))
			b.shape(dShape{Kind: shPause, Lane: i, Lane2: i, X0: s, X1: e, Y0: -0.27, Y1: 0.27, Color: -1, Tip: tip, Op: w.Op + 1})
			b.label(dLabel{Lane: i, X: (s + e) / 2, Dy: 0, Text: tr(lang, "p.paused", c, tr(lang, causeKey("p.pause.word", w.Step)), dur), Style: lbOn, Mid: true, Width: e - s, Prio: prPause})
			b.legendOnce("f:pause:"+w.Step.Cause, dLegend{Kind: shPause, Color: -1, Text: tr(lang, causeKey("p.pause", w.Step))})
		}
	}
}

// keyLives draws every life of a lock key on the node (the server) that
// held it, from the account: in its owner's colour, solid where the
// node's commands were observed and a dashed outline where the account
// inferred it from the clients' outcomes; a tick where the key was gone
// (expired, lost with its node), taken or purged.
func (b *builder) keyLives() {
	m, lang, d := b.m, b.lang, b.d
	lockKeys := map[string]bool{}
	for _, k := range m.keys {
		for _, lk := range m.a.LockKeysOf(k) { // the key, and one a lock derived from it
			lockKeys[lk] = true
		}
	}
	multiKey := len(m.keys) > 1
	inferred := false
	for _, k := range m.a.Keys() {
		if !lockKeys[k.Key] {
			continue
		}
		var l *lease
		if i, ok := m.byOp[k.Grant]; ok && k.Grant >= 0 {
			l = &m.leases[i]
		}
		val := k.Value
		if _, ok := m.tokens[val]; !ok {
			val = shortTok(val) // a value no acquire recorded: the tip has it whole
		}
		name := k.Owner + " " + m.tokenLabel(lang, lease{Token: val})
		if l != nil {
			name = k.Owner + " " + m.tokenLabel(lang, *l)
		}
		if multiKey {
			name = k.Key + " " + name
		}
		sub := ""
		if !k.Observed {
			sub, inferred = "inferred", true
		}
		tip := func() string { return b.keyTip(k, l) }
		stints := m.a.ServersOf(k)
		for si, st := range stints {
			ni := b.laneOf(st.Server)
			if ni < 0 || d.Lanes[ni].Kind != laneNode {
				continue
			}
			ks, ke := m.sec(st.Start), m.sec(st.End)
			if st.End > m.end {
				ke = d.End
			}
			if ke <= ks {
				ke = ks + d.End*0.003
			}
			op := k.Grant + 1
			if k.Grant < 0 {
				op = k.Set + 1
			}
			b.shape(dShape{Kind: shKey, Sub: sub, Lane: ni, Lane2: ni, X0: ks, X1: ke, Y0: -0.2, Y1: 0.2, Color: max(m.laneOf(k.Owner), 0), Tipf: tip, Op: op})
			b.label(dLabel{Lane: ni, X: ks, Dy: 0, Text: name, Style: lbSmall, Width: ke - ks, Prio: prKey})
			if si < len(stints)-1 || k.End > m.end {
				continue
			}
			switch {
			case k.Ended.Kind == account.EndDeleted && k.Ended.By != "":
				// A foreign unlock: whose command removed whose key.
				b.label(dLabel{Lane: ni, X: ke, Dy: -0.36, Text: tr(lang, "p.removed.by", k.Ended.By), Style: lbBad, Prio: prEnd})
			case k.Ended.Kind == account.EndRestored && k.Ended.By != "" && k.Ended.By != k.Owner:
				b.label(dLabel{Lane: ni, X: ke, Dy: -0.36, Text: tr(lang, "p.restored.by", k.Ended.By), Style: lbBad, Prio: prEnd})
			}
			if k.Ended.Gone() || k.Ended.Kind == account.EndTaken || k.Ended.Kind == account.EndPurged {
				b.shape(dShape{Kind: shEnd, Lane: ni, Lane2: ni, X0: ke, X1: ke, Y0: -0.32, Y1: 0.32, Color: -1, Tipf: tip, Op: op})
				b.endWords = appendNew(b.endWords, endWord(lang, k.Ended))
			}
		}
		b.legendOnce(shKey, dLegend{Kind: shKey, Color: 0, Text: tr(lang, "p.key")})
	}
	if inferred {
		b.legendOnce("key:inferred", dLegend{Kind: shKey, Sub: "inferred", Color: 0, Text: tr(lang, "p.key.inferred")})
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

// leaseTip tells one lock: who held it with which token, which nodes
// granted it, when and how it was lost and when its client stopped
// believing it held it — every fact the account's.
func (b *builder) leaseTip(l lease) string {
	m, lang := b.m, b.lang
	var lines []string
	tt := m.tokenText(lang, l.Fence, l.Token)
	lines = append(lines, tr(lang, "tip.hold", l.Client, l.Key, tt, m.sdur(l.TTL).String(), b.at(l.Start)))
	if len(m.nodes) > 1 && len(l.Nodes) > 0 {
		lines = append(lines, tr(lang, "tip.hold.nodes", joinAnd(lang, l.Nodes), len(l.Nodes), len(m.nodes)))
	}
	if l.Token != "" && m.tokens[l.Token] != l.Token {
		lines = append(lines, tr(lang, "tip.token", l.Token))
	}
	if l.lost() && l.KeyEnd <= m.end {
		why := endWord(lang, l.Cause)
		if len(l.Lives) > 1 && len(m.nodes) > 1 {
			why = tr(lang, "tip.quorum", len(m.nodes)/2+1)
		}
		lines = append(lines, tr(lang, "tip.lost", b.at(l.KeyEnd), why))
	} else {
		lines = append(lines, tr(lang, "tip.kept"))
	}
	if l.EndHow != "" {
		lines = append(lines, tr(lang, "tip.belief."+l.EndHow, l.Client, b.at(l.BelievedEnd)))
		if l.BelievedEnd > l.KeyEnd && l.lost() {
			lines = append(lines, tr(lang, "tip.belief.after", l.Client, fmtDur(m.sec(l.BelievedEnd)-m.sec(l.KeyEnd))))
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
	lines := []string{tr(lang, "tip.key", stints[0].Server, k.Key, owner, tok, b.at(k.Start))}
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
		if ni < 0 || d.Lanes[ni].Kind != laneNode {
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
		b.shape(dShape{Kind: shPermit, Lane: ni, Lane2: ni, X0: s, X1: e, Y0: y0 + hgt*0.1, Y1: y0 + hgt*0.9, Color: max(m.laneOf(ml.Owner), 0), Tip: tip, Op: ml.Grant + 1})
		if ml.Ended.Kind == account.EndPurged && ml.End <= m.end {
			purged = true
			b.shape(dShape{Kind: shEnd, Lane: ni, Lane2: ni, X0: e, X1: e, Y0: y0, Y1: y0 + hgt, Color: -1, Tip: tip, Op: ml.Grant + 1})
		}
	}
	b.legendOnce(shPermit, dLegend{Kind: shPermit, Color: 0, Text: tr(lang, "p.permit")})
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
	for _, w := range m.faults {
		st := w.Step
		if st.Effect != history.EffectNodeClock && st.Effect != history.EffectClientClock {
			continue
		}
		names := st.Nodes
		if st.Effect == history.EffectClientClock {
			names = st.Clients
		}
		for _, n := range names {
			i := b.laneOf(n)
			if i < 0 {
				continue
			}
			s := m.sec(w.Start)
			var text, tip string
			e := d.End
			if st.Rate != 0 {
				e = max(m.sec(w.End), s+d.End*0.004)
				text = tr(lang, "p.clock.rate", fmtRate(st.Rate))
				tip = tr(lang, "tip.clock.rate", n, fmtRate(st.Rate), b.at(w.Start), b.at(w.End))
			} else {
				offset[n] += st.Delta
				text = tr(lang, "p.clock.offset", signedDur(m.sdur(offset[n])))
				tip = tr(lang, "tip.clock.jump", n, signedDur(m.sdur(st.Delta)), b.at(w.Start), signedDur(m.sdur(offset[n])))
				d.Lanes[i].Sub = text
			}
			b.shape(dShape{Kind: shClock, Lane: i, Lane2: i, X0: s, X1: e, Y0: 0.3, Y1: 0.46, Color: -1, Tip: tip, Op: w.Op + 1})
			b.label(dLabel{Lane: i, X: s, Dy: 0.38, Text: text, Style: lbFault, Prio: prFault})
			b.legendOnce(shClock, dLegend{Kind: shClock, Color: -1, Text: tr(lang, "p.clock.legend")})
		}
	}
}

func fmtRate(r float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", r), "0"), ".")
}

// tries: refused acquire attempts, small marks at the bottom of a client
// lane.
func (b *builder) tries() {
	m, lang := b.m, b.lang
	n := 0
	for i, o := range b.in.History.Ops {
		if o.F != history.Acquire || o.Type != history.Fail {
			continue
		}
		li := b.laneOf(o.Client)
		if li < 0 || m.laneOf(o.Client) < 0 {
			continue
		}
		x := m.sec(o.Invoke)
		b.shape(dShape{Kind: shTry, Lane: li, Lane2: li, X0: x, X1: x, Y0: 0.38, Y1: 0.38, Color: -1,
			Tipf: func() string { return b.at(o.Invoke) + ": " + tr(lang, m.refusalKey(o)+".one", o.Client, o.Key) }, Op: i + 1})
		n++
	}
	if n > 0 {
		b.legendOnce(shTry, dLegend{Kind: shTry, Color: -1, Text: tr(lang, "p.acquire.fail")})
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
					inViolation[i] = a.Kind
				}
			}
		}
	}
	var actions []string // the effect actions drawn, for the legend
	var others []string  // the other actions drawn
	seen := map[string]int64{}
	type seenStep struct {
		at    float64
		value int64
		key   string
	}
	var steps []seenStep
	fenced := false
	// Other writes (a claim, a mark-paid) are drawn under the effects: a
	// mark-paid right after its charge must not hide the charge's mark.
	first := len(b.d.Shapes)
	defer func() {
		ws := b.d.Shapes[first:]
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].Kind == shWriteOth && ws[j].Kind != shWriteOth })
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
		tip := func() string { return b.writeTip(i, o, fence, violation) }
		var kind, style, word string
		switch o.Type {
		case history.OK:
			switch {
			case inViolation[o.Index] != "":
				// A write a checker names as the violation is drawn as
				// one, whatever its action (a stale failure record too).
				kind, style, word = shWriteBad, lbBad, actWord(lang, o)
			case !effectAction(o.Value.Action):
				kind = shWriteOth
				if !containsStr(others, o.Value.Action) {
					others = append(others, o.Value.Action)
				}
			default:
				kind, style, word = shWriteOK, lbOK, actWord(lang, o)
			}
			if kind != shWriteOth && !containsStr(actions, o.Value.Action) {
				actions = append(actions, o.Value.Action)
			}
			if fence > 0 && fence > seen[o.Key] {
				seen[o.Key] = fence
				steps = append(steps, seenStep{x, fence, o.Key})
			}
		case history.Fail:
			kind, style, word = shWriteRef, lbBad, tr(lang, "p.refused")
			if sf := o.Value.SeenFence; sf > seen[o.Key] {
				seen[o.Key] = sf
				steps = append(steps, seenStep{x, sf, o.Key})
			}
		default:
			continue
		}
		if fence > 0 {
			fenced = true
			if word != "" {
				word += " " + tr(lang, "p.token.short", fence)
			}
		}
		b.shape(dShape{Kind: kind, Lane: li, Lane2: li, X0: x, X1: x, Color: -1, Tipf: tip, Op: i + 1})
		prio := prWrite
		if kind == shWriteBad {
			prio = prViolWrite
		}
		if b.res >= 0 {
			b.shape(dShape{Kind: kind, Lane: b.res, Lane2: b.res, X0: x, X1: x, Color: -1, Tipf: tip, Op: i + 1})
			if word != "" {
				b.label(dLabel{Lane: b.res, X: x, Dy: -0.3, Text: o.Client + " " + word, Style: style, Prio: prio})
			}
		}
		if word != "" {
			b.label(dLabel{Lane: li, X: x, Dy: 0.3, Text: word, Style: style, Prio: prio - 1})
		}
	}
	// The highest token seen, per key, as a line on the resource lane.
	if b.res >= 0 && fenced {
		multiKey := len(m.keys) > 1
		next := map[int]float64{}
		for i, s := range steps {
			next[i] = b.d.End
			for j := i + 1; j < len(steps); j++ {
				if steps[j].key == s.key {
					next[i] = steps[j].at
					break
				}
			}
		}
		for i, s := range steps {
			text := tr(lang, "p.seen", s.value)
			if multiKey {
				text = s.key + ": " + text
			}
			b.shape(dShape{Kind: shSeen, Lane: b.res, Lane2: b.res, X0: s.at, X1: next[i], Y0: 0.3, Y1: 0.3, Color: -1,
				Tip: tr(lang, pick(b.m.h.Header.FencingEnforced, "tip.seen", "tip.seen.unchecked"), s.key, s.value, "t="+fmtT3(s.at)+"s")})
			b.label(dLabel{Lane: b.res, X: s.at, Dy: 0.38, Text: text, Style: lbSmall, Prio: prSeen})
		}
		if len(steps) > 0 {
			b.legendOnce(shSeen, dLegend{Kind: shSeen, Color: -1, Text: tr(lang, "p.seen.legend")})
		}
	}
	if len(actions) > 0 {
		b.legendOnce(shWriteOK, dLegend{Kind: shWriteOK, Color: -1, Text: tr(lang, "p.effect.accepted", actionLegendWords(lang, actions))})
	}
	for _, s := range b.d.Shapes {
		if s.Kind == shWriteBad {
			b.legendOnce(shWriteBad, dLegend{Kind: shWriteBad, Color: -1, Text: tr(lang, "p.effect.violation")})
		}
		if s.Kind == shWriteRef {
			b.legendOnce(shWriteRef, dLegend{Kind: shWriteRef, Color: -1, Text: tr(lang, "p.write.refused")})
		}
	}
	if len(others) > 0 {
		b.legendOnce(shWriteOth, dLegend{Kind: shWriteOth, Color: -1, Text: tr(lang, "p.other.accepted", actionLegendWords(lang, others))})
	}
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
func (b *builder) writeTip(i int, o history.Op, fence int64, violation string) string {
	m, lang := b.m, b.lang
	act := actionLegendWord(lang, o.Value.Action)
	tok := ""
	if fence > 0 {
		tok = tr(lang, "n.with.token", fence)
	}
	var lines []string
	switch o.Type {
	case history.OK:
		lines = append(lines, tr(lang, "tip.write.ok", b.at(o.Invoke), o.Client, act, o.Key, tok, b.resourceName()))
	case history.Fail:
		lines = append(lines, tr(lang, "tip.write.refused", b.at(o.Invoke), o.Client, act, o.Key, tok, b.resourceName(), refusalText(lang, o)))
	}
	if o.Value.Num != nil {
		lines = append(lines, tr(lang, "tip.num", *o.Value.Num))
	}
	if l, ok := m.leaseAt(o.Client, o.Key, o.Invoke); ok {
		if l.lost() && l.KeyEnd <= o.Invoke {
			lines = append(lines, tr(lang, "tip.write.lost", o.Client, b.at(l.KeyEnd)))
		} else {
			lines = append(lines, tr(lang, "tip.write.held", o.Client))
		}
	}
	if violation != "" {
		lines = append(lines, tr(lang, "tip.write.violation", m.kindWord(lang, violation)))
	}
	_ = i
	return strings.Join(lines, "\n")
}

// messages: the node events as arrows between a client's lane and a
// node's. A command the node executed is an arrow to the node at the
// instant the node executed it, its reply an arrow back (both drawn at
// that instant: the slant shows the direction, not a latency). A command
// whose connection got no answer (a Stalled record with no outcome) is a
// cut arrow: stopped half-way when the node never executed it, or, when
// it did, a cut reply. A command answered late is drawn from its send to
// the node and back to its answer, in real time.
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
			inner[p] = append(inner[p], strings.Join(o.Value.Cmd, " "))
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
		if ci < 0 || ni < 0 || b.d.Lanes[ni].Kind != laneNode || b.d.Lanes[ci].Kind != laneClient {
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
			b.shape(dShape{Kind: shMsg, Sub: msgCmd, Lane: ci, Lane2: ni, X0: s, X1: x, Color: -1,
				Tip: tr(lang, "tip.msg.cmd", o.Client, o.Value.Node, full, b.at(ops[exec].Invoke)) + b.parentTip(o.Client, ops[exec]), Op: exec + 1})
			b.shape(dShape{Kind: shMsg, Sub: msgNoRep, Lane: ni, Lane2: ci, X0: x, X1: e, Color: -1,
				Tip: tr(lang, "tip.msg.norep", o.Value.Node, o.Client, full, b.at(o.Invoke), b.at(end)) + why, Op: i + 1})
			cut++
		case exec >= 0:
			used[exec] = true
			x := m.sec(ops[exec].Invoke)
			full := b.cmdText(ops[exec], inner[exec])
			b.shape(dShape{Kind: shMsg, Sub: msgCmd, Lane: ci, Lane2: ni, X0: s, X1: x, Color: -1,
				Tip: tr(lang, "tip.msg.late", o.Client, o.Value.Node, full, b.at(o.Invoke), b.at(ops[exec].Invoke), b.at(end)) + b.parentTip(o.Client, ops[exec]), Op: exec + 1})
			b.shape(dShape{Kind: shMsg, Sub: msgReply, Lane: ni, Lane2: ci, X0: x, X1: e, Color: -1,
				Tip: tr(lang, "tip.msg.late", o.Client, o.Value.Node, full, b.at(o.Invoke), b.at(ops[exec].Invoke), b.at(end)), Op: exec + 1})
		case o.Type == history.Info:
			key := "tip.msg.lost"
			if !m.a.ObservedAt(o.Value.Node, o.Invoke) || !m.a.ObservedAt(o.Value.Node, end) {
				key = "tip.msg.noanswer"
			}
			b.shape(dShape{Kind: shMsg, Sub: msgLost, Lane: ci, Lane2: ni, X0: s, X1: s, Color: -1,
				Tip: tr(lang, key, o.Client, o.Value.Node, cmdWords, b.at(o.Invoke), b.at(end)) + why, Op: i + 1})
			cut++
		default:
			continue
		}
		drawn++
	}
	for k, list := range cmds {
		ci, ni := b.laneOf(k.client), b.laneOf(k.node)
		if ci < 0 || ni < 0 || b.d.Lanes[ni].Kind != laneNode || b.d.Lanes[ci].Kind != laneClient {
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
				return tr(lang, "tip.msg.cmd", o.Client, o.Value.Node, full, b.at(o.Invoke)) + b.parentTip(o.Client, o)
			}
			b.shape(dShape{Kind: shMsg, Sub: msgCmd, Lane: ci, Lane2: ni, X0: x, X1: x, Color: -1, Tipf: tip, Op: j + 1})
			b.shape(dShape{Kind: shMsg, Sub: msgReply, Lane: ni, Lane2: ci, X0: x, X1: x, Color: -1, Tipf: tip, Op: j + 1})
			drawn++
		}
	}
	if drawn > 0 {
		b.legendOnce("msg", dLegend{Kind: shMsg, Sub: msgCmd, Color: -1, Text: tr(lang, "p.msg")})
	}
	if cut > 0 {
		b.legendOnce("msg:cut", dLegend{Kind: shMsg, Sub: msgLost, Color: -1, Text: tr(lang, "p.msg.cut")})
	}
	// Arrows in time order, so a renderer draws later ones over earlier.
	first := len(b.d.Shapes)
	for first > 0 && b.d.Shapes[first-1].Kind == shMsg {
		first--
	}
	msgs := b.d.Shapes[first:]
	sort.SliceStable(msgs, func(i, j int) bool { return msgs[i].X0 < msgs[j].X0 })
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

// parentTip names the client operation a node event was part of: the
// client's acquire, release or extend whose window holds it.
func (b *builder) parentTip(client string, ev history.Op) string {
	m, lang := b.m, b.lang
	for _, i := range m.opsByKey[ev.Key] {
		o := m.h.Ops[i]
		if o.Client != client || o.Process == history.NodeProcess {
			continue
		}
		switch o.F {
		case history.Acquire, history.Release, history.Extend, history.Probe:
		default:
			continue
		}
		if o.Invoke <= ev.Invoke && ev.Invoke <= opEnd(o, m.end) {
			return "\n" + tr(lang, "tip.msg.part", tr(lang, "f."+string(o.F)), o.Client, o.Key, b.at(o.Invoke), tr(lang, "outcome."+string(o.Type)))
		}
	}
	return ""
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

// maxSVGShapes bounds the shapes of index.html's SVG timeline: beyond it
// the page shows the busiest stretch around the first anomaly (window).
const maxSVGShapes = 4000

// windowed is d narrowed to at most limit shapes around focus (window),
// leaving d itself whole for timeline.png.
func (d *drawing) windowed(limit int, focus float64) *drawing {
	if len(d.Shapes) <= limit {
		return d
	}
	c := *d
	c.Shapes = slices.Clone(d.Shapes)
	c.Labels = slices.Clone(d.Labels)
	c.window(limit, focus)
	return &c
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

// window narrows a drawing of more than max shapes to the busiest stretch
// of max shapes around focus (scenario s): a browser cannot show a
// hundred thousand marks, and a reader could not read them. Shapes that
// overlap the window are kept; Note says what is shown.
func (d *drawing) window(limit int, focus float64) {
	if len(d.Shapes) <= limit {
		return
	}
	xs := make([]float64, 0, len(d.Shapes))
	for _, s := range d.Shapes {
		xs = append(xs, s.X0)
	}
	sort.Float64s(xs)
	fi := sort.SearchFloat64s(xs, focus)
	fi = min(fi, len(xs)-1)
	bestLo, bestSpan := 0, xs[len(xs)-1]-xs[0]+1
	for lo := max0(fi - limit + 1); lo <= fi && lo+limit <= len(xs); lo++ {
		if w := xs[lo+limit-1] - xs[lo]; w < bestSpan {
			bestLo, bestSpan = lo, w
		}
	}
	a, z := xs[bestLo], xs[min(bestLo+limit-1, len(xs)-1)]
	pad := (z - a) * 0.02
	a, z = max(a-pad, d.Start), min(z+pad, d.End)
	total := len(d.Shapes)
	d.Shapes = slices.DeleteFunc(d.Shapes, func(s dShape) bool { return s.X1 < a || s.X0 > z })
	d.Labels = slices.DeleteFunc(d.Labels, func(l dLabel) bool { return l.X < a || l.X > z })
	d.Note = tr(d.Lang, "tl.window", total, len(d.Shapes), fmtT(a), fmtT(z))
	d.Start, d.End = a, z
}

func max0(i int) int { return max(i, 0) }
