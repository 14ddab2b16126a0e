package report

import (
	"context"
	"fmt"
	"html"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
	"github.com/locksim/locksim/internal/report/chart"
)

// recorded reads a recorded run (testdata/timeline/<name>.jsonl: real
// redis-server runs of the scenario of that name) and checks it, as a
// report's Input.
func recorded(t *testing.T, name string) Input {
	t.Helper()
	h, err := history.ReadFile(filepath.Join("testdata", "timeline", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	return Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results}
}

func drawingOf(t *testing.T, in Input) *chart.Drawing {
	t.Helper()
	m := newModel(in.History, in.Account)
	return buildDrawing(in, m, headline(in, m))
}

func laneNamed(d *chart.Drawing, name string) int {
	return slices.IndexFunc(d.Lanes, func(l chart.Lane) bool { return l.Name == name })
}

func shapesOn(d *chart.Drawing, lane int, kind string) []chart.Shape {
	var out []chart.Shape
	for _, s := range d.Shapes {
		if s.Lane == lane && s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

func legendHas(d *chart.Drawing, text string) bool {
	return slices.ContainsFunc(d.Legend, func(e chart.Legend) bool { return strings.Contains(e.Text, text) })
}

func TestTheDrawingTellsWhatTheAccountSays(t *testing.T) {
	t.Run("a key set by SETNX before its client crashed is drawn on its node's lane", func(t *testing.T) {
		d := drawingOf(t, recorded(t, "setnx-expire-crash"))
		if ks := shapesOn(d, laneNamed(d, "n1"), chart.ShKey); len(ks) == 0 {
			t.Errorf("node n1's lane has no key")
		}
	})
	t.Run("a key life inferred after a failover is drawn dashed on the promoted replica's lane", func(t *testing.T) {
		d := drawingOf(t, recorded(t, "failover-lost-lock"))
		r := laneNamed(d, "n1r1")
		if r < 0 {
			t.Fatalf("no lane for the promoted replica n1r1: %v", d.Lanes)
		}
		var inferred []chart.Shape
		for _, s := range shapesOn(d, r, chart.ShKey) {
			if s.Sub == "inferred" {
				inferred = append(inferred, s)
			}
		}
		if len(inferred) == 0 || !strings.Contains(inferred[0].TipText(), "w2") || !strings.Contains(inferred[0].TipText(), "n1r1") {
			t.Errorf("no inferred key of w2 on n1r1: %v", inferred)
		}
		for _, s := range shapesOn(d, laneNamed(d, "n1"), chart.ShKey) {
			if s.Sub == "inferred" && strings.Contains(s.TipText(), "w2") && s.X0 > 1 {
				t.Errorf("w2's key after the failover drawn on n1: %+v", s)
			}
		}
		if !legendHas(d, tr(English, "p.key.inferred")) {
			t.Errorf("the legend does not explain the dashed key")
		}
	})
	t.Run("released keys put no loss mark on any client's lane and no quorum-lost words in the legend", func(t *testing.T) {
		d := drawingOf(t, recorded(t, "redlock-majority-partition"))
		for i, l := range d.Lanes {
			if l.Kind == chart.LaneClient && len(shapesOn(d, i, chart.ShEnd)) > 0 {
				t.Errorf("lane %s has a loss mark in a run whose keys were all released", l.Name)
			}
		}
		if legendHas(d, tr(English, "p.quorum.lost")) {
			t.Errorf("the legend says a quorum was lost: %v", d.Legend)
		}
	})
	t.Run("a node cut from every client says every client it was cut from", func(t *testing.T) {
		d := drawingOf(t, recorded(t, "redlock-majority-partition"))
		for _, n := range []string{"n3", "n4", "n5"} {
			i := laneNamed(d, n)
			if !slices.ContainsFunc(d.Labels, func(l chart.Label) bool { return l.Lane == i && l.Text == tr(English, "p.cut", "w1, w2, w3") }) {
				t.Errorf("node %s's lane does not say it was cut from w1, w2, w3", n)
			}
		}
	})
	t.Run("a partitioned Redlock run has one lane per client and node and cut arrows to the cut nodes only", func(t *testing.T) {
		in := recorded(t, "redlock-majority-partition")
		d := drawingOf(t, in)
		m := newModel(in.History, in.Account)
		for _, n := range append(slices.Clone(m.clients), m.nodes...) {
			if laneNamed(d, n) < 0 {
				t.Errorf("no lane for %s", n)
			}
		}
		cut := map[string]bool{}
		for _, s := range d.Shapes {
			if s.Kind == chart.ShMsg && s.Sub == chart.MsgLost {
				cut[d.Lanes[s.Lane2].Name] = true
			}
		}
		if got := slices.Sorted(mapKeys(cut)); !slices.Equal(got, []string{"n3", "n4", "n5"}) {
			t.Errorf("cut arrows go to %v, want n3, n4, n5", got)
		}
	})
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestHistoryPageIsDrawnOnTheTimelinesAxis(t *testing.T) {
	for _, l := range Languages() {
		in := gcPauseInput("local", false)
		in.Lang = l
		in.Porcupine = porcupineView(in.History)
		dir := t.TempDir()
		if _, err := Write(dir, in); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, HistoryFile))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		lang := string(l)
		t.Run("the "+lang+" history.html names its rows by client", func(t *testing.T) {
			for _, c := range []string{"w1", "w2"} {
				if !strings.Contains(page, `class="lane-name" data-l="`) || !strings.Contains(page, ">"+c+"</text>") {
					t.Errorf("no lane named %s", c)
				}
			}
		})
		t.Run("the "+lang+" history.html is as wide as the timeline, in scenario seconds", func(t *testing.T) {
			if !strings.Contains(page, `viewBox="0 0 1400 `) || !strings.Contains(page, tr(l, "p.x")) {
				t.Errorf("not drawn 1400 px wide on the scenario-seconds axis")
			}
		})
		t.Run("the "+lang+" history.html is in its language and says what porcupine found", func(t *testing.T) {
			for _, want := range []string{tr(l, "hist.title", "gc-pause"), tr(l, "hist.verdict.bad"), tr(l, "hist.legend.out")} {
				if !strings.Contains(page, template.HTMLEscapeString(want)) {
					t.Errorf("lacks %q", want)
				}
			}
		})
	}
}

func TestTheHighestTokenLineSaysWhetherTheResourceChecksTokens(t *testing.T) {
	for _, enforced := range []bool{true, false} {
		name := "a resource that checks tokens refuses a lower one"
		if !enforced {
			name = "a resource that checks no token is not said to refuse a lower one"
		}
		t.Run(name, func(t *testing.T) {
			in := gcPauseInput("local", true)
			in.History.Header.FencingEnforced = enforced
			in = in.checked()
			var tips []string
			for _, s := range drawingOf(t, in).Shapes {
				if s.Kind == chart.ShSeen {
					tips = append(tips, s.TipText())
				}
			}
			if len(tips) == 0 {
				t.Fatal("no highest-token line drawn")
			}
			for _, tip := range tips {
				if refuses := strings.Contains(tip, "refuses any lower one"); refuses != enforced {
					t.Errorf("tip %q (fencing enforced: %v)", tip, enforced)
				}
			}
		})
	}
}

func TestAWriteACheckerNamesAsTheViolationIsDrawnAsOneWhateverItsAction(t *testing.T) {
	// c19e: a superseded run's failure record (an "other" action, not an
	// effect) is the stale-write-accepted violation.
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c19e-stalled-job-failed-reason.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in := Input{History: h}.checked()
	violating := map[int]bool{}
	for _, a := range allAnomalies(in.Results) {
		if a.Kind == checker.KindStaleWriteAccepted && !a.Informational {
			for _, i := range a.Violating {
				violating[i] = true
			}
		}
	}
	if len(violating) == 0 {
		t.Fatal("the case has no stale-write-accepted violation to draw")
	}
	d := drawingOf(t, in)
	for _, s := range d.Shapes {
		if s.Op > 0 && violating[s.Op-1] && (s.Kind == chart.ShWriteOth || s.Kind == chart.ShWriteOK) {
			t.Errorf("op %d, named as the violation, drawn as %s", s.Op-1, s.Kind)
		}
	}
}

func TestAViolationBandsTipGivesItsAnomaliesOwnWindow(t *testing.T) {
	// c19m (failover-lost-lock): the band is drawn at least a hundredth of
	// the axis wide; its tip said "t=28.1s – t=50.6s" of a run whose last
	// anomaly ended at 50.1 s.
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c19m-lock-lost-in-failover-advice.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in := Input{History: h}.checked()
	last := 0.0
	for _, a := range allAnomalies(in.Results) {
		if !a.Informational {
			last = max(last, a.EndS)
		}
	}
	d := drawingOf(t, in)
	bands := 0
	for _, s := range d.Shapes {
		if s.Kind != chart.ShBand {
			continue
		}
		bands++
		var t0, t1 float64
		line, _, _ := strings.Cut(s.Tip, "\n")
		if _, err := fmt.Sscanf(strings.ReplaceAll(line, "–", "-"), "Violation window t=%fs - t=%fs:", &t0, &t1); err != nil {
			t.Fatalf("band tip %q: %v", line, err)
		}
		if t1 > last+0.05 {
			t.Errorf("band tip %q ends after the last anomaly (t=%.1fs)", line, last)
		}
	}
	if bands == 0 {
		t.Fatal("no violation band drawn")
	}
}

func TestAViolatingWriteKeepsItsLabelOverALegitimateOneBesideIt(t *testing.T) {
	// c19n (redis-semaphore-3-host-sleep): w2's charge and w1's violating
	// charge 7 ms apart; the label kept must name w1.
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c19n-expiry-on-a-stopped-node.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	d := drawingOf(t, Input{History: h}.checked())
	res := slices.IndexFunc(d.Lanes, func(l chart.Lane) bool { return l.Kind == chart.LaneResource })
	prio := map[string]int{}
	for _, l := range d.Labels {
		if l.Lane == res {
			prio[l.Text] = l.Prio
		}
	}
	if prio["w1 charged"] <= prio["w2 charged"] {
		t.Errorf("label priorities on the resource lane: %v; want w1's violating charge above w2's", prio)
	}
}

func TestALibrarysOwnKeyIsDrawnOnItsNodeAsTheNodeHeldIt(t *testing.T) {
	// c28a: redis-semaphore 5.3.0 locks mutex:invoice-1 (protocol version
	// 2's lock_key), and its refresh set the key again after w2's grant.
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c28a-library-refresh-resurrects.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in := Input{History: h}.checked()
	d := drawingOf(t, in)
	n1 := laneNamed(d, "n1")
	owners := map[string]int{}
	for _, s := range shapesOn(d, n1, chart.ShKey) {
		if s.Sub == "inferred" {
			t.Errorf("a key on n1 drawn as inferred, though every command of n1 was recorded: %s", s.TipText())
		}
		if !strings.Contains(s.TipText(), "mutex:invoice-1") {
			t.Errorf("a key on n1 that is not the library's own mutex:invoice-1: %s", s.TipText())
		}
		for _, c := range []string{"w1", "w2"} {
			if strings.Contains(s.TipText(), c+" ") {
				owners[c]++
			}
		}
	}
	if owners["w1"] < 2 || owners["w2"] < 1 {
		t.Errorf("n1's lane shows keys of %v; want w1's twice (its grant and the key its refresh set again) and w2's once", owners)
	}
	if legendHas(d, tr(English, "p.key.inferred")) {
		t.Errorf("the legend says the node's commands were not recorded: %v", d.Legend)
	}
	w1 := laneNamed(d, "w1")
	if !slices.ContainsFunc(d.Labels, func(l chart.Label) bool { return l.Lane == w1 && l.Text == tr(English, "p.resurrected") }) {
		t.Errorf("w1's lane does not say its key was set again")
	}
}

// Issue 31: w2's refused attempts were drawn as arrows from w2's lane to
// the node's across the probe's lane, and read as probe activity. No
// arrow of a refused acquire crosses another lane — a command the node
// ran, nor a cut one (a command a partition stopped, a reply that never
// came back); each still shows at the node.
func TestRefusedAttemptsDoNotCrossOtherLanes(t *testing.T) {
	h := gcPause("redis", false)
	var refused []history.Op
	for _, o := range h.Ops {
		if o.Client == "w2" && o.F == history.Acquire && o.Type == history.Fail {
			refused = append(refused, o)
		}
	}
	// Every third attempt's SET was cut on its way (a stalled send the
	// node never ran); every third from the second ran but its reply was
	// cut; the others ran and were answered.
	for i, o := range refused {
		mid := o.Invoke + (o.Complete-o.Invoke)/2
		cmd := []string{"set", "invoice-1", fmt.Sprintf("w2-%d", i), "px", "30000", "nx"}
		if i%3 != 0 {
			h.Ops = append(h.Ops, history.Op{Process: history.NodeProcess, Client: "w2", F: history.Stalled, Key: "invoice-1",
				Value: history.Value{Node: "n1", Cmd: cmd}, Invoke: o.Invoke, Complete: o.Complete, Type: history.Info})
		}
		if i%3 != 1 {
			h.Ops = append(h.Ops, history.Op{Process: history.NodeProcess, Client: "w2", F: history.NodeCmd, Key: "invoice-1",
				Value: history.Value{Node: "n1", Cmd: cmd}, Invoke: mid, Complete: mid, Type: history.OK})
		}
	}
	h.Ops = append(h.Ops, probeOp(at(40)))
	in := gcPauseWith(h)
	d := drawingOf(t, in)
	w2, probe, n1 := laneNamed(d, "w2"), laneNamed(d, "probe"), laneNamed(d, "n1")
	if w2 < 0 || probe < 0 || n1 < 0 || !(w2 < probe && probe < n1) {
		t.Fatalf("lanes w2 %d, probe %d, n1 %d: the probe's lane is not between w2's and the node's", w2, probe, n1)
	}
	// A second reading: a node event belongs to a refused attempt when it
	// lies inside the window of one of its client's refused acquires.
	attemptOf := func(ev history.Op) int {
		for i, o := range refused {
			if o.Client == ev.Client && o.Invoke <= ev.Invoke && ev.Invoke <= o.Complete {
				return i
			}
		}
		return -1
	}
	shown := map[int]bool{}
	subs := map[string]int{}
	for _, s := range d.Shapes {
		if s.Kind != chart.ShMsg || s.Op == 0 || attemptOf(in.History.Ops[s.Op-1]) < 0 {
			continue
		}
		shown[attemptOf(in.History.Ops[s.Op-1])] = true
		subs[s.Sub]++
		lo, hi := min(s.Lane, s.Lane2), max(s.Lane, s.Lane2)
		if hi-lo > 1 {
			t.Errorf("a refused attempt's %s arrow at %.2f s runs from lane %s to %s, across %s", s.Sub, s.X0, d.Lanes[s.Lane].Name, d.Lanes[s.Lane2].Name, d.Lanes[lo+1].Name)
		}
		if s.Lane != n1 && s.Lane2 != n1 {
			t.Errorf("a refused attempt's %s arrow at %.2f s does not reach the node's lane", s.Sub, s.X0)
		}
	}
	if len(shown) != len(refused) {
		t.Errorf("%d refused attempts have arrows, want every one (%d)", len(shown), len(refused))
	}
	if subs[chart.MsgLost] == 0 || subs[chart.MsgNoRep] == 0 || subs[chart.MsgCmd] == 0 {
		t.Errorf("arrows of refused attempts by kind %v: want commands, cut commands and cut replies", subs)
	}
}

// Issue 31: in a Redlock run whose majority was partitioned away, the
// acquires that were not granted (0 or 2 of 5 nodes, outcome unknown)
// drew their cut commands from each client's lane to n3, n4 and n5 across
// every lane between. A cut arrow of an acquire that was not granted stays
// on the lane of the node it was meant for, as its executed commands do.
func TestCutArrowsOfFailedAcquiresDoNotCrossOtherLanes(t *testing.T) {
	in := recorded(t, "redlock-majority-partition")
	d := drawingOf(t, in)
	// A second reading of "not granted": an acquire that did not answer
	// ok and that no hold of the account began with.
	held := map[int]bool{}
	for _, h := range in.Account.Holds {
		held[h.Acquire] = true
	}
	failedAt := func(client string, t int64) bool {
		return slices.ContainsFunc(in.History.Ops, func(o history.Op) bool {
			return o.F == history.Acquire && o.Client == client && o.Type != history.OK && !held[o.Index] && o.Invoke <= t && t <= o.Complete
		})
	}
	cuts := 0
	for _, s := range d.Shapes {
		if s.Kind != chart.ShMsg || (s.Sub != chart.MsgLost && s.Sub != chart.MsgNoRep) {
			continue
		}
		ev := in.History.Ops[s.Op-1]
		if !failedAt(ev.Client, ev.Invoke) {
			continue
		}
		cuts++
		if lo, hi := min(s.Lane, s.Lane2), max(s.Lane, s.Lane2); hi-lo > 1 {
			t.Errorf("%s's cut %s arrow at %.3f s runs from lane %s to %s, across %s", ev.Client, s.Sub, s.X0, d.Lanes[s.Lane].Name, d.Lanes[s.Lane2].Name, d.Lanes[lo+1].Name)
		}
		if n := d.Lanes[s.Lane2].Name; n != ev.Value.Node {
			t.Errorf("%s's cut arrow to %s ends on lane %s", ev.Client, ev.Value.Node, n)
		}
	}
	if cuts == 0 {
		t.Fatal("no cut arrow of an acquire that was not granted: the run no longer shows the partition")
	}
}

// Issue 31: a latency fault's words on a node's lane ("slow link to w1")
// hid the name of the key bar they met and sat on the bar as if they
// were its label. A key bar's label on the page is its owner's, and no
// other words on the node's lane overlap the bar.
func TestAKeyBarIsLabelledWithItsOwner(t *testing.T) {
	h := gcPause("redis", false)
	st := historytest.Step("latency", "w1→n1", "w2→n1")
	st.ID, st.Duration = 2, at(20)
	st.Trigger = history.Trigger{Kind: history.TriggerAt}
	h.Ops = append(h.Ops, history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
		Value: historytest.Value(st), Invoke: 0, Complete: at(20), Type: history.Info})
	d := drawingOf(t, gcPauseWith(h))
	n1 := laneNamed(d, "n1")
	bars := shapesOn(d, n1, chart.ShKey)
	if n1 < 0 || len(bars) == 0 {
		t.Fatalf("no key bar on n1's lane (lane %d)", n1)
	}
	if !slices.ContainsFunc(d.Labels, func(l chart.Label) bool { return l.Lane == n1 && l.Style == chart.LbFault }) {
		t.Fatal("n1's lane does not say its links were slow")
	}
	// The page's SVG: its labels, shown or hidden, with their lane
	// offsets (data-dy, lane heights).
	svg := chart.RenderSVG(d, chart.SVGOptions{Standalone: true})
	re := regexp.MustCompile(`<text class="([^"]+)" data-l="(\d+)" data-x="([^"]+)" data-dy="([^"]+)"([^>]*)>([^<]*)</text>`)
	const halfH = (15.0 + 4) / 2 / 52 // a label's half height, lane heights (svgFontPx+4 over svgLaneH)
	first := bars[0]
	owner := d.Lanes[first.Color].Name
	named := false
	for _, mt := range re.FindAllStringSubmatch(svg, -1) {
		lane, _ := strconv.Atoi(mt[2])
		x, _ := strconv.ParseFloat(mt[3], 64)
		dy, _ := strconv.ParseFloat(mt[4], 64)
		// Where the label was placed (a label moves off another's room,
		// words that do not fit their bar go under it): its y, px.
		if y := regexp.MustCompile(` y="([^"]+)"`).FindStringSubmatch(mt[5]); y != nil {
			py, _ := strconv.ParseFloat(y[1], 64)
			dy = (py - (30 + (float64(lane)+0.5)*52)) / 52 // svgTop, svgLaneH
		}
		shown, text := !strings.Contains(mt[5], `visibility="hidden"`), html.UnescapeString(mt[6])
		if lane != n1 || !shown {
			continue
		}
		if x >= first.X0 && x < first.X1 && strings.HasPrefix(text, owner+" ") && math.Abs(dy) < 1e-6 {
			named = true
		}
		if strings.Fields(mt[1])[0] != chart.LbSmall && dy-halfH < first.Y1 && dy+halfH > first.Y0 {
			t.Errorf("%q (dy %.2f) overlaps the key bar (%.2f…%.2f)", text, dy, first.Y0, first.Y1)
		}
	}
	if !named {
		t.Errorf("the key bar from %.2f s is not labelled with its owner %s", first.X0, owner)
	}
}

// probeOp is a final probe that got the lock at t (wall ns).
func probeOp(t int64) history.Op {
	return history.Op{Process: 10, Client: "probe", F: history.Probe, Key: "invoice-1",
		Value:  history.Value{Token: "probe-token", TTL: at(30), Nodes: []string{"n1"}, Removed: true},
		Invoke: t, Complete: t + at(0.01), Type: history.OK}
}

// gcPauseWith is gcPauseInput's run with h's operations (gcPause's and
// those a test added), in time order and numbered, checked.
func gcPauseWith(h history.History) Input {
	sort.SliceStable(h.Ops, func(i, j int) bool { return h.Ops[i].Invoke < h.Ops[j].Invoke })
	for i := range h.Ops {
		h.Ops[i].Index = i
	}
	in := gcPauseInput("redis", false)
	in.History = h
	return in.checked()
}

// TestALongWriteThatOutlivedItsLeaseIsNotToldAsHeld: a cache rebuild of
// 45 s under a 30 s lease began while its client held the lock and was
// accepted after the key had expired; its tooltip says so, not "held the
// lock when it wrote" (a fresh reader's finding on cache-rebuild-waste).
func TestALongWriteThatOutlivedItsLeaseIsNotToldAsHeld(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "checker", "testdata", "histories", "valid-cache-rebuild-duplicate-work.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results, Lang: English}
	dir, _ := writeReport(t, in)
	page, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(string(page))
	// w1's rebuild ran from 0.5 s to 8 s; its 5 s lease ended at 5.1 s.
	// w2's, from 5.3 s to 7.5 s, stayed inside its lease.
	if !strings.Contains(text, "w1 held the lock when it began, but the lock was lost at t=5.1s, before the write finished at t=8.0s.") {
		t.Error("w1's rebuild's tooltip does not say its lease ended before it finished")
	}
	if strings.Contains(text, "w1 held the lock when it wrote") || !strings.Contains(text, "w2 held the lock when it wrote") {
		t.Error("w1's rebuild is told as written under the lock, or w2's is not")
	}
}

// TestEveryLabelIsDrawnInBothPicturesAndNoneOverprintsAnother lays out the
// labels of runs with crowded marks as index.html's SVG and timeline.png
// place them (chart.LaidLabels): a label that would overprint another
// moves instead of vanishing (a mark a reader cannot see is a missing
// mark), so each picture draws every label, the PNG the same ones as the
// SVG, and no two drawn labels share room. A run whose words outnumber
// the room near their marks (full) draws as many as have room, none over
// another (the page's zoom gives the others room). The words of a short
// bar whose every place beside it lies over another bar of its lane are
// not drawn either (Barred: they would name that bar, reader9: "probe
// owner …" across another client's key), nor any words beside a bar
// with no room at its start, nor the others of their lane then (reader
// 11: a key's words are set from its bar's start or not at all, and a
// lane's alike).
func TestEveryLabelIsDrawnInBothPicturesAndNoneOverprintsAnother(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Input
		full bool
	}{
		{"gc-pause (two violations, words that do not fit their bars)", gcPauseInput("local", false), false},
		{"redlock-majority-partition (66 labels, more than have room near their marks)", recorded(t, "redlock-majority-partition"), true},
		{"failover-lost-lock", recorded(t, "failover-lost-lock"), false},
		{"fencing-random-nemesis (137 labels on six lanes, the same)", recorded(t, "fencing-random-nemesis"), true},
		{"extend-after-expiry seed 808 (a band of five violation kinds, whose words ran past the picture's edge)", recorded(t, "extend-after-expiry"), false},
	} {
		want := "both pictures draw every label and none overprints another"
		if tc.full {
			want = "no label overprints another"
		}
		t.Run(tc.name+": "+want, func(t *testing.T) {
			d := drawingOf(t, tc.in)
			if len(d.Labels) == 0 {
				t.Fatal("the drawing has no labels")
			}
			svg, png := chart.LaidLabels(d)
			for _, p := range []struct {
				name  string
				boxes []chart.LabelBox
			}{{"the SVG", svg}, {"timeline.png", png}} {
				shown, barred := 0, 0
				for i, b := range p.boxes {
					if !b.Shown && b.Barred {
						barred++
						continue
					}
					if !b.Shown {
						if !tc.full {
							t.Errorf("%s does not draw %q", p.name, d.Labels[i].Text)
						}
						continue
					}
					shown++
					if !b.Inside {
						t.Errorf("in %s %q runs past the picture's edge: x %.0f to %.0f", p.name, d.Labels[i].Text, b.X0, b.X1)
					}
					for j := range i {
						if c := p.boxes[j]; c.Shown && b.Overlaps(c) {
							t.Errorf("in %s %q overprints %q", p.name, d.Labels[i].Text, d.Labels[j].Text)
						}
					}
				}
				if shown+barred != len(d.Labels) && !tc.full {
					t.Errorf("%s draws %d of %d labels (%d beside a bar with no room clear of another)", p.name, shown, len(d.Labels), barred)
				}
				t.Logf("%s draws %d of %d labels (%d beside a bar with no room clear of another)", p.name, shown, len(d.Labels), barred)
			}
		})
	}
}

// Issue 27 (a fresh reader): janitor-deletes-lock's table gave "charged
// more than once" over 20.2–25.4 s, first charge to second, while the
// band on the timeline was a hairline at the second charge. The table and
// the band give one window: from the second charge, when it became one.
func TestTheAnomaliesTableAndTheBandGiveOneWindow(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c19e-stalled-job-failed-reason.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in := Input{History: h, Lang: "en"}.checked()
	m := newModel(in.History, in.Account)
	res := buildResults(in, "", m)
	page := buildPage(in, m, res, historyInfo{}, nil)
	d := drawingOf(t, in)
	var tips []string
	for _, s := range d.Shapes {
		if s.Kind == chart.ShBand {
			tips = append(tips, s.Tip)
		}
	}
	checked := 0
	for i, a := range res.Anomalies {
		if a.Informational || a.Kind != history.AnomalyDoubleEffect {
			continue
		}
		checked++
		s, e := a.HeldFromS(), a.EndS
		want := chart.Tenths(s)
		if chart.Tenths(e) != want {
			want += " – " + chart.Tenths(e)
		}
		if got := page.Anomalies[i].Window; got != want {
			t.Errorf("the table gives %s over %q; the band's window is %q", a.Kind, got, want)
		}
		if a.StartS < s && strings.HasPrefix(page.Anomalies[i].Window, chart.Tenths(a.StartS)+" ") {
			t.Errorf("the table starts %s at its first event %s, before it held", a.Kind, chart.Tenths(a.StartS))
		}
		inBand := false
		for _, tip := range tips {
			inBand = inBand || strings.Contains(tip, "t="+chart.Tenths(s)+"s")
		}
		if !inBand {
			t.Errorf("no band's tip gives %s's window from t=%ss: %q", a.Kind, chart.Tenths(s), tips)
		}
	}
	if checked == 0 {
		t.Fatal("the case has no double-effect violation")
	}
}

// Issue 27 (class 15, a fresh reader): scheduler-heartbeat-foreign-queue
// seed 25 had two keys on n1 at once, leader-1 (w1's, orphaned from 10 s
// to 39.1 s: the report's point) and leader-2 (w2's, from 1.0 s); both were
// drawn at one height and leader-2's bar covered leader-1's. Keys that
// live on one node at once each take a row of its lane: no two key bars
// share room, and each one's words lie on it.
func TestKeysOnOneNodeAtOnceEachStayVisible(t *testing.T) {
	for _, name := range []string{"scheduler-heartbeat-foreign-queue", "failover-lost-lock", "redlock-majority-partition"} {
		t.Run(name+": no key bar covers another", func(t *testing.T) {
			d := drawingOf(t, recorded(t, name))
			var keys []chart.Shape
			for _, s := range d.Shapes {
				if s.Kind == chart.ShKey {
					keys = append(keys, s)
				}
			}
			overlapping := 0
			for i, a := range keys {
				for _, b := range keys[:i] {
					if a.Lane != b.Lane || a.X0 >= b.X1 || b.X0 >= a.X1 {
						continue
					}
					overlapping++
					if a.Y0 < b.Y1 && b.Y0 < a.Y1 {
						t.Errorf("lane %d: the key bar %.1f–%.1f s (y %.2f–%.2f) covers %.1f–%.1f s (y %.2f–%.2f)", a.Lane, a.X0, a.X1, a.Y0, a.Y1, b.X0, b.X1, b.Y0, b.Y1)
					}
				}
			}
			if name == "scheduler-heartbeat-foreign-queue" && overlapping == 0 {
				t.Error("the case has no two keys on one node at once")
			}
		})
	}
}

// Issue 34 (a fresh teacher, lessons 45 and 49): the leader runs' numbers
// are the workload's own epochs (the safe lock issues no fencing token),
// yet their timelines said "led · token 1" and "highest token seen: 2",
// a resource that seemed to check fencing tokens and fail.
func TestAWorkloadsOwnEpochIsNotDrawnAsAFencingToken(t *testing.T) {
	tests := []struct {
		name       string
		in         Input
		want, lack []string
	}{
		{"a leader run on a lock with no token draws epochs", recorded(t, "leader-split-brain"),
			[]string{"· epoch 1", "highest epoch seen: 2"}, []string{"token"}},
		{"a scheduler run on a lock with no token draws epochs too", recorded(t, "scheduler-heartbeat-foreign-queue"),
			[]string{"· epoch 2", "highest epoch seen: 2"}, []string{"token"}},
		{"a fenced lock's run still draws fencing tokens", gcPauseInput("local", true),
			[]string{"· token", "highest token seen"}, []string{"epoch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := drawingOf(t, tt.in)
			var texts []string
			for _, l := range d.Labels {
				texts = append(texts, l.Text)
			}
			for _, e := range d.Legend {
				texts = append(texts, e.Text)
			}
			all := strings.Join(texts, " | ")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("no %q among the labels: %s", w, all)
				}
			}
			for _, l := range tt.lack {
				for _, lb := range d.Labels {
					if strings.Contains(lb.Text, l) && (strings.Contains(lb.Text, "seen") || strings.Contains(lb.Text, "· ")) {
						t.Errorf("label %q says %q", lb.Text, l)
					}
				}
			}
		})
	}
}
