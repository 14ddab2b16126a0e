package report

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// relLum is a colour's relative luminance over white (WCAG 2.x).
func relLum(c color.Color) float64 {
	r, g, b, a := c.RGBA()
	lin := func(v uint32) float64 {
		s := (float64(v) + (65535 - float64(a))) / 65535 // alpha-premultiplied, over white
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG contrast ratio of two colours (1 to 21).
func contrast(a, b color.Color) float64 {
	la, lb := relLum(a), relLum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Issue 31: latency.png's pause shading (alpha 120 of near-black) covered
// most of the plot and its grey "refused" rings vanished on it. Every mark
// of the perf plots keeps WCAG's 3:1 for graphics on every fault's shade.
func TestPerfMarksStayVisibleOnShades(t *testing.T) {
	effects := []string{history.EffectFreezeClient, history.EffectCrashClient, history.EffectRestartClient,
		history.EffectStarveRenewer, history.EffectClientClock, history.EffectCutLinks, history.EffectSlowLinks,
		history.EffectResetLinks, history.EffectCrashNode, history.EffectFreezeNode, history.EffectNodeClock,
		history.EffectDeleteKey, history.EffectFailover}
	marks := map[string]color.Color{"refused ring": perfFailGlyph, "refused line": perfFailLine,
		"granted": chart.ClientPalette[0], "unknown": chart.ColRefused}
	for _, eff := range effects {
		for _, rate := range []float64{0, 1} {
			st := history.FaultStep{Effect: eff, Rate: rate}
			shade := chart.PerfShade(st)
			for name, mark := range marks {
				if c := contrast(shade, mark); c < 3 {
					t.Errorf("a %s mark on the %s shade (rate %v) has contrast %.2f:1, want at least 3:1", name, eff, rate, c)
				}
			}
		}
	}
}

// Issue 31: latency.png plotted the final probe's grant and rate.png left
// it out. Both draw perfAcquires: the same granted and refused attempts,
// the probe in neither.
func TestPerfPlotsDrawTheSameAttempts(t *testing.T) {
	h := gcPause("redis", false)
	probeAt := at(40)
	h.Ops = append(h.Ops, probeOp(probeAt))
	in := gcPauseWith(h)
	m := newModel(in.History, in.Account)
	okXY, failXY, infoXY, _ := latencyPoints(in, m)
	okR, failR, _ := rateCounts(in, m, 1)
	sum := func(xs []float64) int {
		n := 0.0
		for _, x := range xs {
			n += x
		}
		return int(n)
	}
	t.Run("the latency and rate charts count the same granted and refused attempts", func(t *testing.T) {
		if len(okXY) != sum(okR) || len(failXY) != sum(failR) {
			t.Errorf("latency: %d granted, %d refused; rate: %d granted, %d refused", len(okXY), len(failXY), sum(okR), sum(failR))
		}
	})
	t.Run("neither chart draws the final probe", func(t *testing.T) {
		var granted, refused int
		for _, o := range h.Ops {
			if o.F == history.Acquire && o.Type == history.OK {
				granted++
			}
			if o.F == history.Acquire && o.Type == history.Fail {
				refused++
			}
		}
		if len(okXY) != granted || len(failXY) != refused || len(infoXY) != 0 {
			t.Errorf("latency draws %d granted, %d refused, %d unknown; the workers made %d, %d, 0", len(okXY), len(failXY), len(infoXY), granted, refused)
		}
		for _, p := range okXY {
			if p.X == m.sec(probeAt) {
				t.Errorf("latency draws a grant at the probe's start, %.2f s", p.X)
			}
		}
	})
}

// Reader9: redlock-delayed-restart's rate.png, captioned "Each acquire
// attempt is counted in the second its answer came", drew 13 attempts of
// unknown outcome in neither line: w2 tried every half second and the
// chart showed no attempt at all. rate.png counts them in a third line,
// as latency.png draws them.
func TestRateCountsAttemptsOfUnknownOutcome(t *testing.T) {
	h := gcPause("redis", false)
	h.Ops = append(h.Ops, history.Op{Process: 3, Client: "w3", F: history.Acquire, Key: "invoice-1",
		Value: history.Value{TTL: at(30)}, Invoke: at(19.5), Complete: at(20.1), Type: history.Info, Error: "redlock acquire outcome unknown"})
	in := gcPauseWith(h)
	m := newModel(in.History, in.Account)
	_, _, info := rateCounts(in, m, 1)
	_, _, infoXY, _ := latencyPoints(in, m)
	n := 0.0
	for _, x := range info {
		n += x
	}
	if int(n) != len(infoXY) || info[20] != 1 {
		t.Errorf("rate counts %v attempts of unknown outcome (%v in 20–21 s); latency draws %d; want 1, in 20–21 s", n, info[20], len(infoXY))
	}
}

// Issue 27 (a fresh reader): redlock-majority-partition's rate.png put a
// grant in the 19–20 s bucket, inside the partition's shading, though the
// acquire was answered at 20.1 s, after the heal. rate.png counts an
// attempt in the second its answer came (Jepsen's rate graph); latency.png
// draws it where it began, and its axis says so.
func TestRateCountsAnAttemptWhenItWasAnswered(t *testing.T) {
	base := gcPauseWith(gcPause("redis", false))
	bm := newModel(base.History, base.Account)
	_, before, _ := rateCounts(base, bm, 1)
	h := gcPause("redis", false)
	h.Ops = append(h.Ops, history.Op{Process: 3, Client: "w3", F: history.Acquire, Key: "invoice-1",
		Value: history.Value{Token: "late", TTL: at(30), Nodes: []string{"n1"}}, Invoke: at(19.5), Complete: at(20.1), Type: history.Fail})
	in := gcPauseWith(h)
	m := newModel(in.History, in.Account)
	_, fail, _ := rateCounts(in, m, 1)
	t.Run("the attempt is counted in the second it was answered", func(t *testing.T) {
		if fail[19] != before[19] || fail[20] != before[20]+1 {
			t.Errorf("the attempt added %v to 19–20 s and %v to 20–21 s; want 0 and 1", fail[19]-before[19], fail[20]-before[20])
		}
	})
	_, failXY, _, _ := latencyPoints(in, m)
	t.Run("latency.png still draws it where it began", func(t *testing.T) {
		found := false
		for _, p := range failXY {
			found = found || math.Abs(p.X-19.5) < 1e-6
		}
		if !found {
			t.Errorf("no refused point at 19.5 s: %v", failXY)
		}
	})
	t.Run("each chart's axis says which instant it draws", func(t *testing.T) {
		for _, lang := range []Lang{"en", "vi"} {
			if tr(lang, "p.x.invoked") == tr(lang, "p.x.completed") || !hasMessage("desc.rate") || !hasMessage("desc.latency") {
				t.Errorf("%s: the two axes read the same, or a chart has no description", lang)
			}
		}
	})
}

// A fresh reader (reader 16, scheduler-mutex-90s: a 261 s run): rate.png's
// caption said each attempt "is counted in the second its answer came",
// while its bins were 2 s wide. The caption names the widths rateBin uses.
func TestTheRateCaptionNamesTheBinsTheChartUses(t *testing.T) {
	if rateBin(150) != 1 || rateBin(151) != 2 || rateBin(301) != 4 {
		t.Errorf("bins for 150, 151 and 301 s: %v, %v, %v s; want 1, 2 and 4 s", rateBin(150), rateBin(151), rateBin(301))
	}
	for _, lang := range Languages() {
		if s := tr(lang, "desc.rate"); !strings.Contains(s, "150 s") {
			t.Errorf("%s: the caption does not say from which run length its bins widen: %q", lang, s)
		}
	}
}
