package checker

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// The metamorphic test (issue 33): every history the catalogue produces
// (testdata/catalogue.tar.gz, three seeds of every shipped scenario; see
// gencatalogue) is checked, then mutated in ways whose effect on the
// verdict is known, and checked again:
//
//   - preserving mutations must leave the verdict and the kinds (violations
//     and informational) as they were;
//   - violating mutations must make the run invalid with the kind the
//     mutation introduces. A base the harness spoiled (unknown, with a
//     Spoiled cause: its violations were made while the harness had lost
//     the run's timing, or an exposure went untested) is the one
//     exception: a violation added where lateness may have made it may
//     leave the run unknown, honestly, so there the kind must be found and
//     the run must not turn valid. The log counts those bases and how many
//     stayed unknown; a definite base must still turn invalid.
//
// A mutation that does not apply to a history (no second key to reorder,
// no charge to double) is counted as such. LOCKSIM_CATALOGUE=DIR runs it
// over the reports of a fresh `locksim run scenarios/ scenarios/field/
// --count 3 --out DIR` instead; LOCKSIM_MUTATION=text runs only the
// mutations whose name contains text.

const catalogueArchive = "testdata/catalogue.tar.gz"

// mutation is one metamorphic relation: apply returns the mutated history
// (false: it does not apply); kind is, for a violating one, the anomaly
// kind it must make appear.
type mutation struct {
	name       string
	preserving bool
	kind       string
	apply      func(h history.History, a *account.Account, rng *rand.Rand) (history.History, bool)
}

func mutations() []mutation {
	return []mutation{
		{name: "rename every client", preserving: true, apply: renameClients},
		{name: "shift every time", preserving: true, apply: shiftTimes},
		{name: "add an info acquire that never reached a node", preserving: true, apply: addUnsentAcquire},
		{name: "split a client's idle gap onto a new process", preserving: true, apply: splitIdleGap},
		{name: "reorder the records of independent keys", preserving: true, apply: reorderKeys},
		{name: "drop a node's DEL so that two owners' keys coexist", kind: KindMutexOverlap, apply: dropDel},
		{name: "double an accepted charge", kind: KindDoubleEffect, apply: doubleCharge},
		{name: "accept a stale-token write", kind: KindStaleWriteAccepted, apply: acceptStaleWrite},
	}
}

// catalogueEntry is one stored history.
type catalogueEntry struct {
	name string
	data []byte
}

func catalogue(t *testing.T) []catalogueEntry {
	t.Helper()
	if dir := os.Getenv("LOCKSIM_CATALOGUE"); dir != "" {
		var out []catalogueEntry
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "history.jsonl" {
				return err
			}
			b, err := os.ReadFile(p)
			out = append(out, catalogueEntry{strings.TrimPrefix(p, dir), b})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	f, err := os.Open(catalogueArchive)
	if err != nil {
		t.Fatalf("%v (go generate ./internal/checker writes it)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out []catalogueEntry
	for {
		hd, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, catalogueEntry{hd.Name, b})
	}
}

// TestTheCatalogueCorpusHoldsEveryScenario keeps the stored corpus the
// catalogue's: three seeds of every shipped scenario file.
func TestTheCatalogueCorpusHoldsEveryScenario(t *testing.T) {
	if os.Getenv("LOCKSIM_CATALOGUE") != "" {
		t.Skip("LOCKSIM_CATALOGUE names the histories")
	}
	runs := map[string]int{}
	for _, e := range catalogue(t) {
		runs[strings.Split(e.name, "/")[0]]++
	}
	var files []string
	for _, d := range []string{"../../scenarios", "../../scenarios/field"} {
		m, _ := filepath.Glob(filepath.Join(d, "*.yaml"))
		files = append(files, m...)
	}
	var missing []string
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".yaml"); runs[name] < 3 {
			missing = append(missing, fmt.Sprintf("%s (%d of 3 runs)", name, runs[name]))
		}
	}
	if len(missing) > 0 {
		t.Errorf("the catalogue corpus lacks %s: run `go run ./gencatalogue -missing` in internal/checker (real Redis)", strings.Join(missing, ", "))
	}
}

// outcome is what a check said, as the corpus compares it.
type outcome struct {
	verdict             Verdict
	kinds, informations []string
}

func (o outcome) String() string {
	return fmt.Sprintf("%s %v informational %v", o.verdict, o.kinds, o.informations)
}

// judge checks h: the outcome, the account, and why the run is unknown
// because of the machine (Spoiled's cause; "" when it is not).
func judge(h history.History) (outcome, *account.Account, string) {
	// A generous porcupine budget: a search that runs out is unknown, and
	// a loaded machine must not turn that into a verdict change.
	rep := Check(context.Background(), h, Options{Timeout: 5 * time.Minute})
	k, i := kindsOf(rep)
	cause, _ := Spoiled(rep.Verdict, rep.Results)
	return outcome{rep.Verdict, k, i}, rep.Account, cause
}

func TestMetamorphicCatalogue(t *testing.T) {
	entries := catalogue(t)
	if len(entries) == 0 {
		t.Fatal("no histories")
	}
	ms := mutations()
	if only := os.Getenv("LOCKSIM_MUTATION"); only != "" {
		ms = slices.DeleteFunc(ms, func(m mutation) bool { return !strings.Contains(m.name, only) })
	}
	type tally struct{ applied, held, notApplicable, onSpoiled, stayedUnknown int }
	var mu sync.Mutex
	counts := make([]tally, len(ms))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, e := range entries {
		wg.Add(1)
		sem <- struct{}{}
		go func(e catalogueEntry) {
			defer wg.Done()
			defer func() { <-sem }()
			h, err := history.Decode(bytes.NewReader(e.data))
			if err != nil {
				t.Errorf("%s: %v", e.name, err)
				return
			}
			base, a, spoiled := judge(h)
			for i, m := range ms {
				seed := fnv.New64a()
				fmt.Fprint(seed, e.name, m.name)
				rng := rand.New(rand.NewPCG(seed.Sum64(), 33))
				mh, ok := m.apply(cloneHistory(h), a, rng)
				if !ok {
					mu.Lock()
					counts[i].notApplicable++
					mu.Unlock()
					continue
				}
				// The mutated history must still be one a run could write.
				var buf bytes.Buffer
				if err := history.Encode(&buf, mh); err != nil {
					t.Errorf("%s, %s: %v", e.name, m.name, err)
					continue
				}
				dh, err := history.Decode(&buf)
				if err != nil {
					t.Errorf("%s, %s: the mutated history is refused: %v", e.name, m.name, err)
					continue
				}
				got, _, _ := judge(dh)
				held := false
				if m.preserving {
					held = got.verdict == base.verdict && slices.Equal(got.kinds, base.kinds) && slices.Equal(got.informations, base.informations)
					if !held {
						t.Errorf("%s: %s changed the judgement: %s, was %s", e.name, m.name, got, base)
					}
				} else {
					// A run whose topology moved off its plan is unknown
					// whatever it shows (coverage's OffPlan): the kind must
					// still be found.
					want := Invalid
					if offPlan(a) {
						want = Unknown
					}
					switch {
					case base.verdict == Unknown && spoiled != "":
						// The base is already unknown because the harness
						// was late (Spoiled: its violations were made
						// while the harness had lost the run's timing, or
						// an exposure went untested). A violation added in
						// that window may be lateness's doing too, so the
						// run may stay unknown: it must not turn valid,
						// and the kind must be found. One made away from
						// every untrusted violation (withinLateness's
						// madeIn) still makes the run invalid.
						held = got.verdict != Valid && slices.Contains(got.kinds, m.kind)
						if !held {
							t.Errorf("%s: %s on a base the harness spoiled (%s) was not found: %s (was %s), want %s among the kinds and not valid", e.name, m.name, spoiled, got, base, m.kind)
						}
					default:
						held = got.verdict == want && slices.Contains(got.kinds, m.kind)
						if !held {
							t.Errorf("%s: %s was not detected: %s (was %s), want %s with %s", e.name, m.name, got, base, want, m.kind)
						}
					}
				}
				mu.Lock()
				counts[i].applied++
				if held {
					counts[i].held++
				}
				if !m.preserving && base.verdict == Unknown && spoiled != "" {
					counts[i].onSpoiled++
					if got.verdict == Unknown {
						counts[i].stayedUnknown++
					}
				}
				mu.Unlock()
			}
		}(e)
	}
	wg.Wait()
	for i, m := range ms {
		c := counts[i]
		what := "unchanged"
		if !m.preserving {
			what = "detected (" + m.kind + ")"
		}
		t.Logf("%-52s applied to %3d of %d histories, %s in %d; not applicable to %d", m.name, c.applied, len(entries), what, c.held, c.notApplicable)
		if c.onSpoiled > 0 {
			t.Logf("%-52s of which %d on bases the harness spoiled: %d stayed unknown, %d became invalid", "", c.onSpoiled, c.stayedUnknown, c.onSpoiled-c.stayedUnknown)
		}
	}
}

// offPlan reports whether coverage found the run's topology moved without
// its plan: such a run is unknown, whatever else it shows.
func offPlan(a *account.Account) bool {
	why, off := unplannedSwitch(a)
	return off && why != ""
}

// cloneHistory deep-copies what the mutations change.
func cloneHistory(h history.History) history.History {
	out := h
	out.Header.Clients = slices.Clone(h.Header.Clients)
	out.Header.Plan = make([]history.FaultStep, len(h.Header.Plan))
	for i, st := range h.Header.Plan {
		out.Header.Plan[i] = st.Clone()
	}
	out.Ops = make([]history.Op, len(h.Ops))
	for i, op := range h.Ops {
		if op.Value.Fault != nil {
			st := op.Value.Fault.Clone()
			op.Value.Fault = &st
		}
		op.Value.Cmd = slices.Clone(op.Value.Cmd)
		op.Value.Nodes = slices.Clone(op.Value.Nodes)
		out.Ops[i] = op
	}
	return out
}

// ---- preserving ----

// renameClients gives every client another name (the order of names
// kept): in the header, on its operations, as the sender of its node
// commands, in every fault step that targets it or is triggered by it.
func renameClients(h history.History, _ *account.Account, _ *rand.Rand) (history.History, bool) {
	if len(h.Header.Clients) == 0 {
		return h, false
	}
	names := map[string]string{}
	for i, c := range h.Header.Clients {
		names[c] = "renamed-" + c
		h.Header.Clients[i] = names[c]
	}
	rename := func(c string) string {
		if n, ok := names[c]; ok {
			return n
		}
		return c
	}
	step := func(st *history.FaultStep) {
		for i := range st.Clients {
			st.Clients[i] = rename(st.Clients[i])
		}
		for i := range st.Links {
			st.Links[i].Client = rename(st.Links[i].Client)
		}
		st.Trigger.Client = rename(st.Trigger.Client)
	}
	for i := range h.Header.Plan {
		step(&h.Header.Plan[i])
	}
	for i := range h.Ops {
		op := &h.Ops[i]
		op.Client = rename(op.Client)
		if op.Value.Fault != nil {
			step(op.Value.Fault)
		}
	}
	return h, true
}

// shiftTimes moves every instant of the run later by the same amount (the
// run's start earlier by as much, so a node's absolute expiry keeps its
// place on the run's clock). A step's Trigger.At is an instant only when
// positive (a step at a time, or the instant a manual step fired): ≤ 0
// says "before any client starts" (history.TriggerAt), which stays so —
// moved to d it would read as a step planned at d that the harness
// applied late, before the clients, and the lateness rule (plannedStart)
// would rightly call the run spoiled.
func shiftTimes(h history.History, _ *account.Account, rng *rand.Rand) (history.History, bool) {
	d := int64(1e9 + rng.IntN(4e9))
	step := func(st *history.FaultStep) {
		if (st.Trigger.Kind == history.TriggerAt || st.Trigger.Kind == history.TriggerManual) && st.Trigger.At > 0 {
			st.Trigger.At += d
		}
	}
	for i := range h.Ops {
		op := &h.Ops[i]
		op.Invoke += d
		if op.Complete >= 0 {
			op.Complete += d
		}
		if st := op.Value.Fault; st != nil {
			step(st)
		}
	}
	for i := range h.Header.Plan {
		step(&h.Header.Plan[i])
	}
	h.Header.Started = h.Header.Started.Add(-time.Duration(d))
	return h, true
}

// clientOps lists, per client, the positions of its operations (not its
// lost, done or stopped instants) sorted by invoke.
func clientOps(h history.History) map[string][]int {
	out := map[string][]int{}
	for i, op := range h.Ops {
		switch op.F {
		case history.Acquire, history.Release, history.Extend, history.Read, history.Write:
			out[op.Client] = append(out[op.Client], i)
		}
	}
	for _, idx := range out {
		sort.SliceStable(idx, func(a, b int) bool { return h.Ops[idx[a]].Invoke < h.Ops[idx[b]].Invoke })
	}
	return out
}

// idleGaps are the windows [from, to] in which client c had nothing
// outstanding, believed it held nothing, and sent no command to a node:
// between the completion of one of its operations and the invoke of the
// next, a margin inside.
func idleGaps(h history.History, a *account.Account, c string, idx []int) [][2]int64 {
	var out [][2]int64
	sent := map[int64]bool{}
	var sends []int64
	for _, op := range h.Ops {
		if op.F == history.NodeCmd && op.Client == c {
			sends = append(sends, op.Invoke)
			sent[op.Invoke] = true
		}
	}
	slices.Sort(sends)
	margin := int64(5e6)
	done := int64(-1) // latest completion so far (−1: none yet)
	for j, i := range idx {
		op := h.Ops[i]
		if j > 0 && done >= 0 && op.Invoke-done > 4*margin {
			from, to := done+margin, op.Invoke-margin
			k, _ := slices.BinarySearch(sends, from-margin)
			free := k == len(sends) || sends[k] > to+margin
			for _, hd := range a.Holds {
				if hd.Client == c && hd.Start < to && hd.End > from {
					free = false
				}
			}
			if free {
				out = append(out, [2]int64{from, to})
			}
		}
		if op.Open() {
			break
		}
		done = max(done, op.Complete)
	}
	return out
}

// observedThroughout reports whether every node of the run was observed
// over [from, to].
func observedThroughout(a *account.Account, from, to int64) bool {
	if len(a.H.Header.Nodes) == 0 {
		return false
	}
	for _, n := range a.H.Header.Nodes {
		if !a.Observed[n] || slices.ContainsFunc(a.Gaps[n], func(g [2]int64) bool { return g[0] <= to && g[1] >= from }) {
			return false
		}
	}
	return true
}

func freshProcess(h history.History) int {
	p := 0
	for _, op := range h.Ops {
		p = max(p, op.Process+1)
	}
	return p
}

// choose picks one of the candidates.
func choose[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// addUnsentAcquire adds, in an idle gap of a client whose nodes were all
// observed, an acquire of unknown outcome (a timeout) that the nodes'
// record shows never reached them, on a process of its own (Jepsen's
// rule: after an unknown outcome a client goes on under a new one).
func addUnsentAcquire(h history.History, a *account.Account, rng *rand.Rand) (history.History, bool) {
	type slot struct {
		client, key string
		gap         [2]int64
		ttl         int64
	}
	var slots []slot
	ops := clientOps(h)
	for _, c := range h.Header.Clients {
		idx := ops[c]
		var key string
		var ttl int64
		for _, i := range idx {
			if op := h.Ops[i]; op.F == history.Acquire && op.Key != "" {
				key, ttl = op.Key, op.Value.TTL
			}
		}
		if key == "" {
			continue
		}
		for _, g := range idleGaps(h, a, c, idx) {
			if observedThroughout(a, g[0], g[1]) {
				slots = append(slots, slot{c, key, g, ttl})
			}
		}
	}
	if len(slots) == 0 {
		return h, false
	}
	s := choose(rng, slots)
	mid := (s.gap[0] + s.gap[1]) / 2
	half := min((s.gap[1]-s.gap[0])/4, int64(100e6))
	h.Ops = append(h.Ops, history.Op{Index: len(h.Ops), Process: freshProcess(h), Client: s.client, F: history.Acquire, Key: s.key,
		Value: history.Value{TTL: s.ttl}, Invoke: mid - half, Complete: mid + half, Type: history.Info,
		Error: "i/o timeout", Failure: history.FailTimeout})
	return h, true
}

// splitIdleGap moves a client's operations after one of its idle gaps
// onto a new process id: the same client, going on under another process.
func splitIdleGap(h history.History, a *account.Account, rng *rand.Rand) (history.History, bool) {
	type slot struct {
		proc int
		at   int64
	}
	var slots []slot
	ops := clientOps(h)
	for _, c := range h.Header.Clients {
		idx := ops[c]
		for _, g := range idleGaps(h, a, c, idx) {
			// the process of the operation that ended the gap
			for _, i := range idx {
				if h.Ops[i].Invoke > g[1] {
					slots = append(slots, slot{h.Ops[i].Process, g[1]})
					break
				}
			}
		}
	}
	if len(slots) == 0 {
		return h, false
	}
	s := choose(rng, slots)
	p := freshProcess(h)
	for i := range h.Ops {
		if op := &h.Ops[i]; op.Process == s.proc && op.Invoke >= s.at {
			op.Process = p
		}
	}
	return h, true
}

// reorderKeys rewrites the file's order of the client operations on keys
// so that each key's records come together (each key's own order kept);
// every other record keeps its place.
func reorderKeys(h history.History, _ *account.Account, _ *rand.Rand) (history.History, bool) {
	var slots []int
	keys := map[string]bool{}
	for i, op := range h.Ops {
		if op.Key != "" && (history.IsClientFunc(op.F) || op.F == history.Probe) {
			slots = append(slots, i)
			keys[op.Key] = true
		}
	}
	if len(keys) < 2 {
		return h, false
	}
	moved := make([]history.Op, len(slots))
	for j, i := range slots {
		moved[j] = h.Ops[i]
	}
	sort.SliceStable(moved, func(x, y int) bool { return moved[x].Key > moved[y].Key })
	for j, i := range slots {
		h.Ops[i] = moved[j]
	}
	for i := range h.Ops {
		h.Ops[i].Index = i
	}
	return h, true
}

// ---- violating ----

// dropDel removes from the nodes' record the DELs of one client's
// removing release (on every node it removed its key from) after which
// another client's SET NX took the key on each node it was granted by,
// while the first key's deadline had not come: the nodes then held the
// first owner's keys when they granted the second.
func dropDel(h history.History, a *account.Account, rng *rand.Rand) (history.History, bool) {
	var slots [][]int // the node events to drop
	for r, rel := range h.Ops {
		if rel.F != history.Release || rel.Type != history.OK || !rel.Value.Removed {
			continue
		}
		removed := a.RemovedBy(r)
		if len(removed) == 0 || slices.ContainsFunc(removed, func(k account.KeyLife) bool {
			return !k.Observed || k.Ended.Kind != account.EndReleased || k.Ended.Op < 0 || h.Ops[k.Ended.Op].F != history.NodeCmd || k.Deadline < 0
		}) {
			continue
		}
		// A later grant of another client whose every granting node is one
		// of these, its SET NX there before the removed key's deadline.
		for _, g := range a.Grants() {
			op := h.Ops[g.Op]
			if op.F != history.Acquire || g.Client == rel.Client || g.Start < rel.Invoke || len(g.Lives) == 0 {
				continue
			}
			ok := true
			for _, n := range g.Lives {
				j := slices.IndexFunc(removed, func(k account.KeyLife) bool { return k.Node == n.Node && k.Key == n.Key })
				if !n.Observed || j < 0 || n.Start >= removed[j].Deadline-int64(20e6) || !setNX(h.Ops[n.Set]) ||
					touched(h, n.Node, n.Key, removed[j].End, n.Start) {
					ok = false
					break
				}
			}
			if ok {
				var dels []int
				for _, k := range removed {
					dels = append(dels, k.Ended.Op)
				}
				slots = append(slots, dels)
				break
			}
		}
	}
	if len(slots) == 0 {
		return h, false
	}
	drop := map[int]bool{}
	for _, i := range choose(rng, slots) {
		drop[i] = true
	}
	ops := h.Ops[:0:0]
	for i, op := range h.Ops {
		if !drop[i] {
			op.Index = len(ops)
			ops = append(ops, op)
		}
	}
	h.Ops = ops
	return h, true
}

// touched reports whether a command other than reads ran on key at node
// strictly between from and to (node time): with the first key left in
// place, it would act on that key instead (another client's cleanup DEL,
// an extend), and the mutation's effect would not be known.
func touched(h history.History, node, key string, from, to int64) bool {
	for _, op := range h.Ops {
		if op.F != history.NodeCmd || op.Value.Node != node || op.Invoke <= from || op.Invoke >= to || len(op.Value.Cmd) < 2 {
			continue
		}
		switch strings.ToLower(op.Value.Cmd[0]) {
		case "get", "exists", "pttl", "ttl", "getrange", "eval", "evalsha", "publish", "ping", "info", "client", "hello":
			continue
		case "flushall", "flushdb":
			return true
		}
		if slices.Contains(op.Value.Cmd[1:], key) {
			return true
		}
	}
	return false
}

// setNX reports whether a node's command sets a key only when it is
// absent (SET … NX, SETNX): with the first key still there, it takes
// nothing.
func setNX(op history.Op) bool {
	c := op.Value.Cmd
	if op.F != history.NodeCmd || len(c) < 3 {
		return false
	}
	switch strings.ToLower(c[0]) {
	case "setnx":
		return true
	case "set":
		return slices.ContainsFunc(c[3:], func(a string) bool { return strings.EqualFold(a, "nx") })
	}
	return false
}

// doubleCharge adds a second accepted charge beside one the gateway
// accepted: the same client, invoice and times, on a second thread
// (process) of that client.
func doubleCharge(h history.History, _ *account.Account, rng *rand.Rand) (history.History, bool) {
	var charges []int
	for i, op := range h.Ops {
		if op.F == history.Write && op.Value.Action == workload.ActionCharge && op.Type == history.OK && !op.Open() {
			charges = append(charges, i)
		}
	}
	if len(charges) == 0 {
		return h, false
	}
	c := h.Ops[choose(rng, charges)]
	c.Index, c.Process = len(h.Ops), freshProcess(h)
	h.Ops = append(h.Ops, c)
	return h, true
}

// acceptStaleWrite turns a write the resource refused for its stale
// fencing token — one a write with a higher token, accepted before it was
// invoked, had superseded — into an accepted one.
func acceptStaleWrite(h history.History, _ *account.Account, rng *rand.Rand) (history.History, bool) {
	var stale []int
	for i, op := range h.Ops {
		if op.F != history.Write || op.Type != history.Fail || op.Value.Refusal != history.RefusalStaleFence || op.Value.Fence <= 0 {
			continue
		}
		for _, o := range h.Ops {
			if o.F == history.Write && o.Type == history.OK && o.Key == op.Key && o.Value.Fence > op.Value.Fence &&
				o.Complete >= 0 && o.Complete < op.Invoke {
				stale = append(stale, i)
				break
			}
		}
	}
	if len(stale) == 0 {
		return h, false
	}
	op := &h.Ops[choose(rng, stale)]
	op.Type, op.Value.Refusal, op.Value.SeenFence, op.Error = history.OK, "", 0, ""
	return h, true
}
