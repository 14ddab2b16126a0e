package chart

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"

	"github.com/locksim/locksim/internal/history"
)

// The drawing model. A drawing is the timeline of a run as shapes on lanes
// over scenario seconds, each shape with its words and the fact behind it
// (its tip): what index.html's SVG timeline (svg.go) and timeline.png
// (timeline.go) both draw, so neither has a layout of its own. Package
// report builds it from its model of the run only (the run's account, the
// checkers' anomalies, the history's operations and node events); it
// decides nothing about pixels:
// a renderer places the labels and drops any that would overprint
// another.
//
// Lanes, top to bottom: one per client (w1, w2, …, the final probe), one
// per Redis node (with its clock offset when a clock fault applies) and,
// when the run wrote to it, one for the protected resource (its accepted
// and refused writes and the highest fencing token it has seen).
type Drawing struct {
	// Say renders one of the report's messages in the drawing's language
	// (fmt verbs and arguments as the message's own).
	Say func(key string, args ...any) string
	// Comma is whether the drawing's language writes a decimal comma
	// ("2,5"): its axis numbers are written so.
	Comma    bool
	Title    string // "scenario — VERDICT" (and emulated / aborted)
	Headline string
	// Start and End are the x range, scenario s: the whole run, or a
	// window of a busy one (Note says so).
	Start, End float64
	Note       string
	Lanes      []Lane
	Shapes     []Shape // in drawing order (later over earlier)
	Labels     []Label
	Legend     []Legend
}

// Lane kinds.
const (
	LaneClient   = "client"
	LaneNode     = "node"
	LaneResource = "resource"
)

// dLane is one row of the timeline.
type Lane struct {
	Kind  string // laneClient, laneNode, laneResource
	Name  string // w1, n3, the resource's name
	Label string // what the row is called: "w1", "node n3"
	Sub   string // a second line: "clock +15s" (the node's offset at the end)
	Color int    // a client's palette index; -1 for the others
}

// Shape kinds: each is a CSS class of the SVG and a style of the PNG
// (styles.go), and each has a legend text.
const (
	ShBand     = "band"     // a violation window over every lane
	ShWaste    = "waste"    // wasted work (informational) on a client lane
	ShShade    = "shade"    // a fault on a lane (Sub: its effect)
	ShStrip    = "strip"    // a link fault's strip on the cut client's lane
	ShPause    = "pause"    // a client frozen (over its bars)
	ShHold     = "hold"     // a lock (or permit) held by a client
	ShBelieved = "believed" // still believed held after it was lost
	ShKey      = "key"      // the lock key on a node
	ShPermit   = "permit"   // a semaphore permit (sorted-set member) on a node
	ShEnd      = "end"      // a tick where a key (or a lock) was lost
	ShClock    = "clock"    // a node's (or client's) clock offset
	ShTry      = "try"      // a refused acquire attempt
	ShWriteOK  = "w-ok"     // an accepted effect
	ShWriteBad = "w-bad"    // an accepted write a checker names as the violation
	ShWriteRef = "w-ref"    // a write the resource refused
	ShWriteOth = "w-oth"    // another accepted write (claim, mark-paid, exit)
	ShWriteUnk = "w-unk"    // a write of unknown outcome (no answer came)
	ShSeen     = "seen"     // the highest fencing token the resource has seen
	ShMsg      = "msg"      // a command to a node and its reply (Sub: msgCmd …)
)

// Message arrow kinds (dShape.Sub of shMsg).
const (
	MsgCmd   = "cmd"   // a command the node executed
	MsgReply = "reply" // its reply
	MsgLost  = "lost"  // a command that never reached the node: cut arrow
	MsgNoRep = "norep" // a reply that never reached the client: cut arrow
)

// dShape is one mark of the timeline. X is scenario seconds; Y is an
// offset from the lane's centre in lane heights, downwards positive.
type Shape struct {
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
	// none (report's markClaims); several, space-separated, for a mark
	// that draws several (a violation band's anomalies).
	Claim string
	// Ref is the report's own name of the claim the mark draws, which
	// markClaims turns into Claim; not rendered.
	Ref string
}

// TipText is the shape's hover text.
func (s Shape) TipText() string {
	if s.Tip == "" && s.Tipf != nil {
		return s.Tipf()
	}
	return s.Tip
}

// Label styles (dLabel.Style).
const (
	LbPlain = "lb"     // black
	LbBand  = "lb-bad" // a violation's words (dark red)
	LbOK    = "lb-ok"  // an accepted effect (dark green)
	LbBad   = "lb-bad" // the violating write
	LbFault = "lb-f"   // a fault's words (dark purple)
	LbSmall = "lb-s"   // small, black
	LbOn    = "lb-on"  // white, bold, centred on a dark pause
)

// dLabel is a word placed on a lane: at X (scenario s), at Dy lane heights
// below the lane's centre, left-aligned unless Mid. Prio orders the labels
// a renderer keeps when two would overlap (higher kept first).
type Label struct {
	Lane  int
	X, Dy float64
	Text  string
	Style string
	Mid   bool
	// Width, when > 0, is the room the label must fit in (scenario s):
	// a renderer drops a label wider than it (a name inside its bar).
	Width float64
	Prio  int
	// Pin: the words name the bar at X among bars close together (an
	// operation of porcupine's history.html): they may take another row
	// of their lane, never slide along one, for words slid by their own
	// width sit beside another operation's bar, out of order, or over a
	// pause (reader 7, F16). Words with no room are hidden: hovering the
	// bar tells the operation.
	Pin bool
	// Claim and Ref: as a Shape's, for the words.
	Claim, Ref string
}

// dLegend is one entry of the legend: a swatch of a shape kind (and
// colour) with its words.
type Legend struct {
	Kind, Sub string
	Color     int
	Text      string
}

// Label priorities.
const (
	PrBand  = 9
	PrWrite = 7
	PrPause = 8
	// A write a checker names as the violation keeps its label over a
	// legitimate write's beside it (two charges 7 ms apart: the red mark
	// must not carry the other client's name).
	PrViolWrite = 8
	PrFault     = 6
	PrEnd       = 5
	PrHold      = 4
	PrKey       = 3
	PrSeen      = 2
	PrStrip     = 1
	prLowest    = 0
)

// maxLabelled bounds the shapes of a drawing that get words: a busy run's
// timeline keeps its marks (and their tips) and drops its labels.
const MaxLabelled = 3000

// maxSVGShapes bounds the shapes of index.html's SVG timeline: beyond it
// the page shows the busiest stretch around the first anomaly (window).
const MaxSVGShapes = 4000

// windowed is d narrowed to at most limit shapes around focus (window),
// leaving d itself whole for timeline.png.
func (d *Drawing) Windowed(limit int, focus float64) *Drawing {
	if len(d.Shapes) <= limit {
		return d
	}
	c := *d
	c.Shapes = slices.Clone(d.Shapes)
	c.Labels = slices.Clone(d.Labels)
	c.window(limit, focus)
	return &c
}

// window narrows a drawing of more than max shapes to the busiest stretch
// of max shapes around focus (scenario s): a browser cannot show a
// hundred thousand marks, and a reader could not read them. Shapes that
// overlap the window are kept; Note says what is shown.
func (d *Drawing) window(limit int, focus float64) {
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
	d.Shapes = slices.DeleteFunc(d.Shapes, func(s Shape) bool { return s.X1 < a || s.X0 > z })
	d.Labels = slices.DeleteFunc(d.Labels, func(l Label) bool { return l.X < a || l.X > z })
	d.Note = d.Say("tl.window", total, len(d.Shapes), Instant(a), Instant(z))
	d.Start, d.End = a, z
}

func max0(i int) int { return max(i, 0) }

// shOp is one operation porcupine checked (Sub: opIn or opOut).
const ShOp = "op"

const (
	OpIn  = "in"  // in porcupine's longest linearizable order
	OpOut = "out" // not in it
)

// faultColor is the shade of one fault step (its legend entry too), by
// what it does: a new fault kind with a known effect gets its colour.
func FaultColor(st history.FaultStep) color.NRGBA {
	switch st.Effect {
	case history.EffectFreezeClient:
		return color.NRGBA{30, 30, 30, 120}
	case history.EffectFreezeNode:
		return color.NRGBA{90, 90, 90, 110}
	case history.EffectCutLinks:
		return color.NRGBA{240, 190, 0, 120}
	case history.EffectSlowLinks:
		return color.NRGBA{0, 158, 115, 90}
	case history.EffectResetLinks:
		return color.NRGBA{140, 140, 0, 110}
	case history.EffectCrashNode, history.EffectCrashClient, history.EffectRestartClient:
		return color.NRGBA{0, 0, 0, 150}
	case history.EffectNodeClock, history.EffectClientClock:
		if st.Rate != 0 {
			return color.NRGBA{255, 105, 180, 110}
		}
		return color.NRGBA{148, 0, 211, 150}
	case history.EffectDeleteKey:
		return color.NRGBA{213, 94, 0, 150}
	}
	return color.NRGBA{120, 60, 160, 70}
}

// Instant is an instant of scenario time in seconds as an argument of a
// message (Drawing.Say): the report writes it once, in the drawing's
// language, to a tenth (Tenths) — "30.0" in English, "30,0" in
// Vietnamese.
type Instant float64

// Tenths is a scenario time in seconds to one decimal by one rule
// everywhere, true of the raw value and of the millisecond the checker
// quotes ("t=30.350s") alike: first to the whole millisecond, then that
// to the tenth, a half up — unless the millisecond lies halfway between
// two tenths and the raw value below it, where the tenth above would be
// false of the raw value and the one below of the millisecond: then the
// time is written to the hundredth ("30.35"). Rounding the raw value
// alone gave 30.3 for 30.3496 s and 30.4 for 30.3504 s, two rows the
// checker's words both quote "from t=30.350s" (issue 27,
// cache-rebuild-waste seed 8); rounding the millisecond alone wrote 7.7
// for 7.6495 s (node-clock-rate-drift seed 47).
func Tenths(s float64) string {
	ms := math.Round(s * 1000)
	if a := math.Abs(ms); math.Mod(a, 100) == 50 && math.Abs(s*1000) < a-1e-6 {
		return fmt.Sprintf("%.2f", ms/1000)
	}
	t := math.Floor((math.Abs(ms) + 50) / 100)
	if ms < 0 && t != 0 {
		t = -t
	}
	return fmt.Sprintf("%.1f", t/10)
}

// PerfShadeKeep is how much of a fault's shade (FaultColor over white) a
// perf plot keeps: its windows span most of a faulted run, and every mark
// drawn on them must stay visible on a projector (issue 31).
const PerfShadeKeep = 0.3

// PerfShade is a fault step's shade on a perf plot (latency.png,
// rate.png): FaultColor laid over white, then PerfShadeKeep of its
// darkness kept; opaque, so overlapping windows never stack darker.
func PerfShade(st history.FaultStep) color.NRGBA {
	c := FaultColor(st)
	a := float64(c.A) / 255
	ch := func(v uint8) uint8 {
		over := 255 - a*(255-float64(v)) // over white
		return uint8(math.Round(255 - PerfShadeKeep*(255-over)))
	}
	return color.NRGBA{ch(c.R), ch(c.G), ch(c.B), 255}
}
