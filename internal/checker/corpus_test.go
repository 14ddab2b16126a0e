package checker

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// updateCorpus rewrites testdata/histories from corpusCases:
//
//	go test ./internal/checker/ -run TestStoredHistories -update-corpus
//
// Review the diff: the .expect files state what a correct checker must say,
// so they are written from the table's reasoning, never from the checker.
var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/histories from corpusCases")

const corpusDir = "testdata/histories"

// expectation is a stored case's .expect file: the merged verdict, the
// kinds of the violations (non-informational anomalies) and the kinds of
// the informational anomalies, each as a sorted set; or, for a history
// that cannot be a run's, the line history.ReadFile refuses and a part of
// its reason (verdict "refused").
type expectation struct {
	verdict       Verdict
	kinds         []string
	informational []string
	line          int
	reason        string
}

// refused is the verdict of an .expect file whose history decoding refuses.
const refused = Verdict("refused")

func (e expectation) String() string {
	s := fmt.Sprintf("verdict: %s\nkinds: %s\n", e.verdict, strings.Join(e.kinds, ", "))
	if len(e.informational) > 0 {
		s += fmt.Sprintf("informational: %s\n", strings.Join(e.informational, ", "))
	}
	return s
}

func parseExpect(path string) (expectation, error) {
	f, err := os.Open(path)
	if err != nil {
		return expectation{}, err
	}
	defer f.Close()
	var e expectation
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return e, fmt.Errorf("%s:%d: want \"key: value\", got %q", path, n, line)
		}
		var list []string
		for _, x := range strings.Split(v, ",") {
			if x = strings.TrimSpace(x); x != "" {
				list = append(list, x)
			}
		}
		sort.Strings(list)
		switch strings.TrimSpace(k) {
		case "verdict":
			e.verdict = Verdict(strings.TrimSpace(v))
		case "kinds":
			e.kinds = list
		case "informational":
			e.informational = list
		case "line":
			if e.line, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return e, fmt.Errorf("%s:%d: line: %v", path, n, err)
			}
		case "reason":
			e.reason = strings.TrimSpace(v)
		default:
			return e, fmt.Errorf("%s:%d: unknown key %q", path, n, k)
		}
	}
	if err := sc.Err(); err != nil {
		return e, err
	}
	if e.verdict != Valid && e.verdict != Invalid && e.verdict != Unknown && e.verdict != refused {
		return e, fmt.Errorf("%s: verdict %q, want valid, invalid, unknown or refused", path, e.verdict)
	}
	if (e.verdict == refused) != (e.line > 0 && e.reason != "") {
		return e, fmt.Errorf("%s: a refused case (and only one) gives the line and the reason", path)
	}
	return e, nil
}

// kindsOf returns the sorted sets of violation kinds and informational kinds.
func kindsOf(rep Report) (kinds, informational []string) {
	for _, a := range rep.Anomalies() {
		if a.Informational {
			informational = append(informational, a.Kind)
		} else {
			kinds = append(kinds, a.Kind)
		}
	}
	sort.Strings(kinds)
	sort.Strings(informational)
	return slices.Compact(kinds), slices.Compact(informational)
}

func TestStoredHistories(t *testing.T) {
	if *updateCorpus {
		writeCorpus(t)
	}
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("the corpus has %d histories, want at least 20", len(files))
	}
	readme, err := os.ReadFile(filepath.Join(corpusDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		want, err := parseExpect(strings.TrimSuffix(f, ".jsonl") + ".expect")
		t.Run(name+" is judged as its .expect file says", func(t *testing.T) {
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(readme), "`"+name+"`") {
				t.Errorf("README.md does not list %s", name)
			}
			h, err := history.ReadFile(f)
			if want.verdict == refused {
				var re *history.ReadError
				if !errors.As(err, &re) || re.Line != want.line || !strings.Contains(re.Msg, want.reason) {
					t.Fatalf("got %v, want the history refused at line %d with %q", err, want.line, want.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(context.Background(), h, Options{})
			kinds, info := kindsOf(rep)
			if rep.Verdict != want.verdict || !slices.Equal(kinds, want.kinds) || !slices.Equal(info, want.informational) {
				var b strings.Builder
				for _, a := range rep.Anomalies() {
					fmt.Fprintf(&b, "\n  %s (informational %v): %s", a.Kind, a.Informational, a.Explain)
				}
				t.Errorf("got verdict %s, kinds %v, informational %v; want %s, %v, %v%s",
					rep.Verdict, kinds, info, want.verdict, want.kinds, want.informational, b.String())
			}
		})
	}
}

func writeCorpus(t *testing.T) {
	t.Helper()
	for _, c := range corpusCases() {
		base := filepath.Join(corpusDir, c.name)
		if err := history.WriteFile(base+".jsonl", c.h); err != nil {
			t.Fatal(err)
		}
		e := c.want
		sort.Strings(e.kinds)
		sort.Strings(e.informational)
		body := "# " + c.source + "\n" + e.String()
		if err := os.WriteFile(base+".expect", []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type corpusCase struct {
	name, source string
	h            history.History
	want         expectation
}

func valid(info ...string) expectation { return expectation{verdict: Valid, informational: info} }
func invalid(kinds ...string) expectation {
	return expectation{verdict: Invalid, kinds: kinds}
}

func named(h history.History, scenario string) history.History {
	h.Header.Scenario = scenario
	if h.Header.Workload == "" {
		h.Header.Workload = "payment"
	}
	h.Header.Backend = "local"
	if h.Header.Algorithm == "" {
		h.Header.Algorithm = "single"
	}
	cs := map[string]bool{}
	for _, op := range h.Ops {
		if !slices.Contains(history.ReservedClients(), op.Client) && !cs[op.Client] {
			cs[op.Client] = true
			h.Header.Clients = append(h.Header.Clients, op.Client)
		}
	}
	if len(h.Header.Nodes) == 0 {
		// The nodes the faults name: a fault targets only nodes of the run.
		for _, f := range h.Faults() {
			for _, n := range f.Value.Fault.Nodes {
				if !slices.Contains(h.Header.Nodes, n) {
					h.Header.Nodes = append(h.Header.Nodes, n)
				}
			}
			for _, l := range f.Value.Fault.Links {
				if !slices.Contains(h.Header.Nodes, l.Node) {
					h.Header.Nodes = append(h.Header.Nodes, l.Node)
				}
			}
		}
	}
	return h
}

// extendAfterSuperseded: w1 extends its lease after w2 was granted the key.
func extendAfterSuperseded(b *hb) history.History {
	b.acquire("w1", inv1, 0, 0.1, 0)
	b.lost("w1", inv1, 9)
	b.acquire("w2", inv1, 10, 10.1, 0)
	b.op("w1", history.Extend, inv1, 11, 11.1, history.OK, history.Value{})
	b.release("w2", inv1, 12, 12.1, true)
	return b.h
}

// fenceRefusesHolder: the resource refuses the only holder's token.
func fenceRefusesHolder(b *hb) history.History {
	b.acquire("w1", inv1, 0, 0.1, 3)
	b.refused("w1", inv1, workload.ActionClaim, 0.2, 0.3, 3, history.RefusalStaleFence, 4)
	b.release("w1", inv1, 1, 1.1, true)
	return b.h
}

// corpusCases is the source of testdata/histories (see README.md there).
func corpusCases() []corpusCase {
	var cs []corpusCase
	add := func(name, source string, h history.History, want expectation) {
		cs = append(cs, corpusCase{name, source, named(h, name), want})
	}

	// ---- known valid ----
	add("valid-sequential-holds", "sequential holds, one charge; every checker valid", sequentialHistory(), valid())
	add("valid-touching-holds", "w1's release is invoked at the instant w2's acquire returns (design §8: touching is not overlap)", touchingHistory(), valid())
	add("valid-info-acquire-never-applied", "Jepsen info rule: w1's acquire never returns, w2 then holds; w1 never acts on it", infoAcquireHistory(), valid())
	{
		b := newHB(false)
		b.acquireInfo("w1", inv1, 0)
		b.read("w1", inv1, 0.5, 0.6, "unpaid")
		b.write("w1", inv1, workload.ActionCharge, 1, 1.1, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 1.2, 1.3, 0)
		b.release("w1", inv1, 2, 2.1, true)
		b.acquire("w2", inv1, 3, 3.1, 0)
		b.read("w2", inv1, 3.2, 3.3, "paid")
		b.release("w2", inv1, 4, 4.1, true)
		b.h.Header.Params = map[string]int64{history.ParamMinAcquires: 1} // one ok grant is the case
		add("valid-info-acquire-applied", "Jepsen info rule: w1's acquire never returns but did apply (w1 acts alone, releases); w2 follows", b.h, valid())
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.release("w1", inv1, 1, 1.1, true)
		b.acquire("w2", inv1, 2, 2.1, 0)
		b.write("w2", inv1, workload.ActionCharge, 2.2, 2.3, 0)
		b.write("w2", inv1, workload.ActionMarkPaid, 2.4, 2.5, 0)
		b.release("w2", inv1, 3, 3.1, true)
		b.acquireInfo("w1", inv1, 4)
		b.read("w1", inv1, 5, 5.1, "paid")
		b.release("w1", inv1, 6, 6.1, true)
		add("valid-release-after-info-reacquire", "Part A finding (property test): w1's release removes the key its info re-acquire may have set; w2's earlier grant is not proof of a foreign unlock",
			b.h, valid())
	}
	{
		// Found by a helper asked to fool the checker: w1's first acquire
		// went unanswered under a partition, its second was granted; paused
		// before its release, it wakes after w2's grant and its plain DEL
		// removes w2's key. The unknown SET NX could never have taken a key
		// w2 held throughout, so the removal was certainly foreign.
		b := newHB(false).workload("counter", "naive", nil)
		b.fault("partition", []string{"w1→n1"}, 0, 0.9)
		b.acquireInfo("w1", inv1, 0)
		b.acquireTTL("w1", inv1, 1, 1.01, 0, 10)
		for t := 2.0; t < 11; t++ {
			b.acquireFail("w2", inv1, t, t+0.005)
		}
		b.done("w1", inv1, 8.92)
		b.fault("pause", []string{"w1"}, 8.93, 13.93)
		b.acquireTTL("w2", inv1, 11.5, 11.51, 0, 10)
		b.done("w2", inv1, 12.02)
		b.release("w1", inv1, 13.94, 13.95, true)
		b.op("w2", history.Release, inv1, 16.04, 16.05, history.Fail, history.Value{Token: "w2-tok"})
		add("invalid-foreign-unlock-after-unknown-acquire", "checker-fooling case: an earlier unknown acquire of the deleter does not excuse a DEL of a key the other client certainly held throughout",
			b.h, invalid(KindForeignUnlock))
	}
	{
		b := newHB(false).workload("counter", "naive", nil)
		b.acquireInfo("w1", inv1, 0)
		b.acquireTTL("w1", inv1, 1, 1.01, 0, 10)
		b.done("w1", inv1, 5)
		b.acquireTTL("w2", inv1, 11.5, 11.51, 0, 10)
		b.done("w2", inv1, 12)
		b.release("w1", inv1, 22, 22.1, true)
		add("valid-release-after-unknown-acquire-past-ttl", "the same DEL after w2's TTL could have run out: w1's unknown acquire may have set the key it removed; nothing certain",
			b.h, valid())
	}
	{
		// Found by a helper asked to fool the checker (and by a real
		// fair-semaphore run): S1 is killed inside its permit; once its
		// permit times out S3 enters beside S2. A dead client is inside
		// nothing: two inside, with two permits.
		b := newHB(false).workload(workload.Semaphore, "semaphore", map[string]int64{history.ParamPermits: 2})
		b.acquireTTL("S1", "sem-1", 0, 0.1, 0, 10)
		b.write("S1", "sem-1", workload.ActionEnter, 0.2, 0.3, 0)
		b.acquireTTL("S2", "sem-1", 1, 1.1, 0, 10)
		b.write("S2", "sem-1", workload.ActionEnter, 1.2, 1.3, 0)
		b.fault("crash-client", []string{"S1"}, 2, 2)
		b.acquireFail("S3", "sem-1", 3, 3.05)
		b.acquireTTL("S3", "sem-1", 10.5, 10.6, 0, 10)
		b.write("S3", "sem-1", workload.ActionEnter, 10.7, 10.8, 0)
		b.write("S2", "sem-1", workload.ActionExit, 11, 11.1, 0)
		b.release("S2", "sem-1", 11.2, 11.3, true)
		b.write("S3", "sem-1", workload.ActionExit, 15, 15.1, 0)
		b.release("S3", "sem-1", 15.2, 15.3, true)
		add("valid-semaphore-crashed-holder-is-not-inside", "checker-fooling case: a client killed inside its permit counts as inside only until its crash, not to the end of the history",
			b.h, valid())
	}
	{
		// Found by a helper asked to fool the checker: a 50 s job on a 10 s
		// TTL, the run's duration ending both jobs. The harness records that
		// it stopped each client inside its critical section: w1 believed
		// it held the lock until then, so w2's grant after the TTL overlaps.
		b := newHB(false)
		b.acquireTTL("w1", inv1, 0, 0.01, 0, 10)
		b.read("w1", inv1, 0.01, 0.11, "unpaid")
		for t := 2.0; t < 10; t++ {
			b.acquireFail("w2", inv1, t, t+0.005)
		}
		b.acquireTTL("w2", inv1, 10.05, 10.06, 0, 10)
		b.read("w2", inv1, 10.06, 10.16, "unpaid")
		b.op("w1", history.Stopped, inv1, 20, 20, history.OK, history.Value{Token: "w1-tok"})
		b.op("w2", history.Stopped, inv1, 20, 20, history.OK, history.Value{Token: "w2-tok"})
		add("invalid-overlap-until-the-run-stopped-the-holder", "checker-fooling case: a holder the run's end stopped inside its critical section believed until then; without the stopped record its belief ended at its last read",
			b.h, invalid(KindMutexOverlap))
	}
	{
		// payment-idempotency.yaml as one parallel catalogue run saw it: w2's
		// acquire stalled, so paused w1 woke and charged first.
		b := newHB(false).workload("payment", "safe", map[string]int64{"idempotency": 1})
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.fault("pause", []string{"w1"}, 1, 36)
		b.acquire("w2", inv1, 30, 35.3, 0)
		b.read("w2", inv1, 35.3, 35.4, "unpaid")
		b.write("w1", inv1, workload.ActionCharge, 36.1, 36.2, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 36.2, 36.3, 0)
		b.release("w1", inv1, 36.3, 36.4, false)
		b.refused("w2", inv1, workload.ActionCharge, 36.5, 36.6, 0, history.RefusalDuplicateKey, 0)
		b.release("w2", inv1, 36.7, 36.8, true)
		add("valid-idempotency-stale-charges-first", "lock-theory S19: the paused holder's charge lands first and the idempotency key refuses the new holder's repeat; one charge",
			b.h, valid(KindMutexOverlap))
	}
	{
		b := newHB(false).workload("payment", "safe", map[string]int64{"idempotency": 1})
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.fault("pause", []string{"w1"}, 1, 36)
		b.acquire("w2", inv1, 30, 30.1, 0)
		b.write("w2", inv1, workload.ActionCharge, 31, 31.1, 0)
		b.write("w1", inv1, workload.ActionCharge, 36.1, 36.2, 0)
		b.release("w1", inv1, 36.3, 36.4, false)
		b.release("w2", inv1, 36.7, 36.8, true)
		add("invalid-idempotency-key-not-enforced", "a gateway that was told to deduplicate but accepted both charges: the overlap matters again",
			b.h, invalid(KindDoubleEffect, KindMutexOverlap, KindNotLinearizable))
	}
	idem := func(fenced bool) *hb {
		return newHB(fenced).workload("payment", "safe", map[string]int64{"idempotency": 1})
	}
	{
		// A helper's finding: the new holder waits, the paused one charges
		// first, then the new holder reads "paid" and stops.
		b := idem(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.fault("pause", []string{"w1"}, 1, 36)
		b.acquire("w2", inv1, 30, 36.15, 0)
		b.write("w1", inv1, workload.ActionCharge, 36.1, 36.2, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 36.2, 36.3, 0)
		b.release("w1", inv1, 36.3, 36.4, false)
		b.read("w2", inv1, 36.31, 36.35, "paid")
		b.release("w2", inv1, 36.4, 36.5, true)
		add("valid-idempotency-new-holder-reads-paid", "lock-theory S19: the paused holder charges first and the new holder finds the invoice paid; one charge, no refusal needed",
			b.h, valid(KindMutexOverlap))
	}
	{
		b := idem(true)
		b.acquire("w1", inv1, 0, 0.1, 1)
		b.write("w1", inv1, workload.ActionClaim, 0.15, 0.2, 1)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.fault("pause", []string{"w1"}, 1, 36)
		b.acquire("w2", inv1, 30, 36.0, 2)
		b.write("w1", inv1, workload.ActionCharge, 36.05, 36.1, 1)
		b.write("w2", inv1, workload.ActionClaim, 36.15, 36.2, 2)
		b.read("w2", inv1, 36.2, 36.25, "unpaid")
		b.refused("w1", inv1, workload.ActionMarkPaid, 36.3, 36.35, 1, history.RefusalStaleFence, 2)
		b.release("w1", inv1, 36.4, 36.45, false)
		b.refused("w2", inv1, workload.ActionCharge, 37.3, 37.4, 2, history.RefusalDuplicateKey, 0)
		b.release("w2", inv1, 37.5, 37.6, true)
		add("valid-fencing-and-idempotency", "fencing with claim-first and an idempotent charge (lock-theory S03's fix, \"make the charge itself idempotent\"): the stale charge lands before the new claim, the key refuses the repeat",
			b.h, valid(KindMutexOverlap))
	}
	{
		b := idem(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.fault("pause", []string{"w1"}, 1, 36)
		b.acquire("w2", inv1, 30, 30.1, 0)
		b.read("w2", inv1, 30.2, 30.3, "unpaid")
		b.op("w2", history.Write, inv1, 31, 33, history.Info, history.Value{Action: workload.ActionCharge})
		b.refused("w2", inv1, workload.ActionCharge, 33.1, 33.2, 0, history.RefusalDuplicateKey, 0)
		b.write("w1", inv1, workload.ActionCharge, 36.1, 36.2, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 36.2, 36.3, 0)
		b.release("w1", inv1, 36.3, 36.4, false)
		b.release("w2", inv1, 37, 37.1, true)
		add("invalid-idempotency-charge-after-refusal", "a helper's finding: w2's retry is refused as a duplicate (so its first charge went through) and w1's later charge is accepted: a second charge, which porcupine proves (the overlap alone proves nothing: w2's charge has no reply)",
			b.h, expectation{verdict: Invalid, kinds: []string{KindNotLinearizable}, informational: []string{KindMutexOverlap}})
	}
	{
		// A helper's finding: two charges with no reply under the key; at
		// most one of them went through.
		b := idem(false)
		b.acquire("w1", inv1, 0, 0.01, 0)
		b.fault("pause", []string{"w1"}, 5, 35)
		b.acquire("w2", inv1, 29.99, 30, 0)
		b.op("w2", history.Write, inv1, 30.8, -1, history.Info, history.Value{Action: workload.ActionCharge})
		b.op("w1", history.Write, inv1, 35.5, -1, history.Info, history.Value{Action: workload.ActionCharge})
		add("valid-idempotency-two-unanswered-charges", "two holders' charges get no reply under an idempotency key: at most one went through (lock-theory S19), nothing proves a second",
			b.h, valid(KindMutexOverlap))
	}
	add("invalid-idempotency-extend-after-superseded", "an idempotency key keeps the charge single, not the lock correct: only the holder may extend",
		extendAfterSuperseded(idem(false)), invalid(KindNotLinearizable))
	add("invalid-idempotency-fence-refuses-holder", "with an idempotency key too, a fence that refuses the current holder is broken",
		fenceRefusesHolder(idem(true)), invalid(KindNotLinearizable))
	{
		b := idem(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.write("w1", inv1, workload.ActionCharge, 0.5, 0.6, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 0.7, 0.8, 0)
		b.acquireFail("w3", inv1, 1.5, 1.6)
		b.release("w3", inv1, 2, 2.1, true)
		b.acquire("w2", inv1, 3, 3.1, 0)
		b.refused("w2", inv1, workload.ActionCharge, 3.2, 3.3, 0, history.RefusalDuplicateKey, 0)
		b.release("w2", inv1, 4, 4.1, true)
		b.release("w1", inv1, 5, 5.1, false)
		add("invalid-idempotency-release-by-non-holder", "a helper's finding: w3, never granted, removes w1's key; the idempotency key saves the charge, not the lock",
			b.h, expectation{verdict: Invalid, kinds: []string{KindNotLinearizable}, informational: []string{KindMutexOverlap}})
	}
	add("valid-fenced-pause-s03", "lock-theory S03 / Kleppmann timeline 1 with fencing and claim-first: w1's stale charge refused", kleppmann1(true), valid(KindMutexOverlap))
	// The check-and-set cases are the fenced ones with antirez's unique,
	// unordered owner tokens in place of the fencing token (the claim
	// stores the holder's as currlock): a teacher found the fenced late
	// claim valid and the check-and-set one invalid for the same accepted
	// writes (issue 34, redlock-gc-pause-cas-late-claim against its fenced
	// twin).
	for _, c := range []struct {
		name, source string
		cas          bool    // check-and-set, not a fencing token
		w2Read       float64 // when w2 first reads the invoice
		result       string  // what it reads
		want         expectation
	}{
		{"valid-fenced-stale-charge-before-new-claim", "lock-theory §7.2, S03: w2 (token 2) is paused between its grant and its claim; w1's expired lease (token 1) charges and the resource accepts it, having seen no higher token; then w2 claims, reads paid and charges nothing: the resource saw the holders one at a time, in token order (issue 29: fenced explore)",
			false, 36.3, "paid", valid(KindMutexOverlap)},
		{"invalid-fenced-stale-charge-after-new-read", "lock-theory §7.2: w2 (token 2) read the invoice unpaid before w1's stale charge (token 1) was accepted: the resource saw w1 act inside w2's hold, after w2 had used it",
			false, 30.2, "unpaid", invalid(KindMutexOverlap, KindNotLinearizable)},
		{"valid-cas-stale-charge-before-new-claim", "lock-theory §7.3, antirez 2016: w2 is paused between its grant and its claim; w1's expired lease charges while currlock still holds w1's token and the resource accepts it; then w2 claims, reads paid and charges nothing: the resource saw the holders one at a time, in claim order",
			true, 36.3, "paid", valid(KindMutexOverlap)},
		{"invalid-cas-stale-charge-after-new-read", "lock-theory §7.3: w2 read the invoice unpaid before w1's stale charge was accepted (w2 had not claimed): the resource saw w1 act inside w2's hold, after w2 had used it",
			true, 30.2, "unpaid", invalid(KindMutexOverlap, KindNotLinearizable)},
	} {
		b := newHB(!c.cas)
		b.h.Header.CheckAndSet = c.cas
		t1, t2 := int64(1), int64(2)
		if c.cas {
			t1, t2 = 0, 0
		}
		b.acquire("w1", inv1, 0, 0.1, t1)
		b.write("w1", inv1, workload.ActionClaim, 0.15, 0.2, t1)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.fault("pause", []string{"w1"}, 1, 36)
		b.acquire("w2", inv1, 29.9, 30, t2)
		if c.w2Read > 36 {
			b.fault("pause", []string{"w2"}, 30, 36.2)
		}
		if c.w2Read < 36 {
			b.read("w2", inv1, c.w2Read, c.w2Read+0.05, c.result)
		}
		b.write("w1", inv1, workload.ActionCharge, 36.05, 36.1, t1)
		b.write("w1", inv1, workload.ActionMarkPaid, 36.1, 36.15, t1)
		b.release("w1", inv1, 36.16, 36.2, false)
		if c.w2Read > 36 {
			b.write("w2", inv1, workload.ActionClaim, c.w2Read-0.05, c.w2Read, t2)
			b.read("w2", inv1, c.w2Read, c.w2Read+0.05, c.result)
		}
		b.release("w2", inv1, 36.5, 36.6, true)
		add(c.name, c.source, b.h, c.want)
	}
	{
		b := newHB(true)
		b.acquire("C1", inv1, 0, 0.1, 33)
		b.fault("pause", []string{"C1"}, 1, 15)
		b.acquire("C2", inv1, 10, 10.1, 34)
		b.write("C2", inv1, workload.ActionClaim, 10.5, 10.6, 34)
		b.read("C2", inv1, 10.7, 10.8, "unpaid")
		b.write("C2", inv1, workload.ActionCharge, 11, 11.1, 34)
		b.write("C2", inv1, workload.ActionMarkPaid, 11.2, 11.3, 34)
		b.refused("C1", inv1, workload.ActionCharge, 15, 15.1, 33, history.RefusalStaleFence, 34)
		b.release("C1", inv1, 15.2, 15.3, false)
		b.release("C2", inv1, 16, 16.1, true)
		add("valid-fenced-33-34-s06", "Kleppmann's fencing figure (tokens 33/34), lock-theory S06: the resource refuses C1's token 33", b.h, valid(KindMutexOverlap))
	}
	{
		b := newHB(true)
		b.acquire("w1", inv1, 0, 0.1, 1)
		b.write("w1", inv1, workload.ActionClaim, 0.2, 0.3, 1)
		b.fault("pause", []string{"w1"}, 1, 40)
		b.acquire("w2", inv1, 30, 30.1, 2)
		b.write("w2", inv1, workload.ActionClaim, 30.2, 30.3, 2)
		b.read("w2", inv1, 30.4, 30.5, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 31, 31.1, 2)
		b.write("w2", inv1, workload.ActionMarkPaid, 31.2, 31.3, 2)
		b.release("w2", inv1, 32, 32.1, true)
		b.refused("w1", inv1, workload.ActionCharge, 40, 40.1, 1, history.RefusalStaleFence, 2)
		b.release("w1", inv1, 40.2, 40.3, false)
		add("valid-refused-after-fresh-released", "refused fenced write of a stale holder after the fresh holder already released (no one holds: the refusal is still legal)", b.h, valid(KindMutexOverlap))
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.refused("w1", inv1, workload.ActionCharge, 1, 1.1, 0, "card-declined", 0)
		b.release("w1", inv1, 2, 2.1, true)
		b.acquire("w2", inv1, 3, 3.1, 0)
		b.read("w2", inv1, 3.2, 3.3, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 4, 4.1, 0)
		b.write("w2", inv1, workload.ActionMarkPaid, 4.2, 4.3, 0)
		b.release("w2", inv1, 5, 5.1, true)
		add("valid-refused-unrelated-reason", "Part A finding: the holder's charge refused for a reason that mentions a card token, not a fencing token", b.h, valid())
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.lost("w1", inv1, 10)
		b.acquire("w2", inv1, 12, 12.1, 0)
		b.read("w2", inv1, 12.2, 12.3, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 13, 13.1, 0)
		b.write("w2", inv1, workload.ActionMarkPaid, 13.2, 13.3, 0)
		b.release("w2", inv1, 14, 14.1, true)
		b.acquire("w1", inv1, 20, 20.1, 0)
		b.read("w1", inv1, 20.2, 20.3, "paid")
		b.release("w1", inv1, 21, 21.1, true)
		add("valid-reacquire-after-lost", "w1's validity check ends its hold (lost), w2 is granted, w1 re-acquires the same key later", b.h, valid())
	}
	{
		b := newHB(true)
		i := b.acquireInfo("w1", inv1, 0)
		b.h.Ops[i].Value.Fence, b.h.Ops[i].Complete = 7, ns(1)
		b.acquire("w2", inv1, 2, 2.1, 8)
		b.write("w2", inv1, workload.ActionClaim, 2.2, 2.3, 8)
		b.read("w2", inv1, 2.4, 2.5, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 3, 3.1, 8)
		b.write("w2", inv1, workload.ActionMarkPaid, 3.2, 3.3, 8)
		b.release("w2", inv1, 4, 4.1, true)
		b.h.Header.Params = map[string]int64{history.ParamMinAcquires: 1} // one ok grant is the case
		add("valid-fence-on-info-acquire", "a fencing token recorded on an info acquire (INCR ran, the reply was lost) followed by a higher grant", b.h, valid())
	}
	{
		b := newHB(true)
		const inv2, inv3 = "invoice-2", "invoice-3"
		b.acquire("w1", inv1, 0, 0.1, 1)
		b.acquire("w1", inv2, 0.2, 0.3, 1)
		b.acquire("w2", inv3, 0.2, 0.3, 1)
		b.acquireFail("w2", inv1, 0.4, 0.5)
		b.write("w1", inv1, workload.ActionClaim, 0.6, 0.65, 1)
		b.write("w1", inv2, workload.ActionClaim, 0.65, 0.7, 1)
		b.write("w2", inv3, workload.ActionClaim, 0.6, 0.7, 1)
		b.write("w1", inv1, workload.ActionCharge, 1, 1.05, 1)
		b.write("w1", inv2, workload.ActionCharge, 1.05, 1.1, 1)
		b.write("w2", inv3, workload.ActionCharge, 1, 1.1, 1)
		b.release("w1", inv1, 2, 2.1, true)
		b.acquire("w2", inv1, 2.1, 2.2, 2)
		b.write("w2", inv1, workload.ActionClaim, 2.3, 2.4, 2)
		b.release("w2", inv1, 3, 3.05, true)
		b.release("w1", inv2, 3, 3.1, true)
		b.release("w2", inv3, 3.05, 3.1, true)
		add("valid-multi-key-holds", "one client holds two keys at once, another a third; tokens start at 1 on every key", b.h, valid())
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0, 0)
		b.write("w1", inv1, workload.ActionCharge, 0, 0, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 0, 0, 0)
		b.release("w1", inv1, 0, 0, true)
		b.acquire("w2", inv1, 0, 0, 0)
		b.read("w2", inv1, 0, 0, "paid")
		b.release("w2", inv1, 0, 0, true)
		add("valid-time-zero", "every op at true time 0 (coarse clock): holds touch, nothing overlaps", b.h, valid())
	}

	{
		// The issue-13 reproduction: gc-pause with its pause moved to an
		// occurrence that never comes, plus a latency fault that does
		// fire and overlap every hold. Coverage counts the plan: the pause
		// never fired, so the run proves nothing about it.
		b := newHB(false)
		pause := stepOf("pause", []string{"w1"})
		pause.ID, pause.Duration = 1, ns(35)
		pause.Trigger = history.Trigger{Kind: history.TriggerPoint, Client: "w1", Point: history.PointBeforeWrite, Occurrence: 3}
		latency := stepOf("latency", []string{"w1→n1", "w2→n1"})
		latency.Trigger = history.Trigger{Kind: history.TriggerAt}
		b.h.Header.Plan = []history.FaultStep{pause, latency}
		b.h.Header.Nodes = []string{"n1"}
		f := b.fault("latency", []string{"w1→n1", "w2→n1"}, 0, 10)
		b.h.Ops[f].Value.Fault.ID = 2
		b.acquire("w1", inv1, 0, 0.01, 0)
		b.read("w1", inv1, 0.1, 0.11, "unpaid")
		b.write("w1", inv1, workload.ActionCharge, 5.1, 5.2, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 5.3, 5.4, 0)
		b.release("w1", inv1, 5.5, 5.51, true)
		b.acquireFail("w2", inv1, 1, 1.01)
		b.acquire("w2", inv1, 5.6, 5.61, 0)
		b.read("w2", inv1, 5.7, 5.71, "paid")
		b.release("w2", inv1, 5.8, 5.81, true)
		add("unknown-planned-pause-never-fired", "issue 13: a planned pause (3rd before-write) never fired while a latency fault did; the run proves nothing about the pause",
			b.h, expectation{verdict: Unknown})
	}

	// ---- known invalid ----
	add("invalid-kleppmann-timeline-1-s01", "Kleppmann timeline 1 / lock-theory S01: pause past the TTL, double charge",
		kleppmann1(false), invalid(KindDoubleEffect, KindMutexOverlap, KindNotLinearizable))
	add("invalid-naive-del-s04", "lock-theory S04: A's DEL after its lease expired removes B's key, C acquires while B works",
		naiveDelHistory(), invalid(KindForeignUnlock, KindMutexOverlap, KindNotLinearizable))
	add("invalid-token-regression-s06b", "lock-theory S06b: the fence counter restarts, token 5 after 34",
		tokenRegressionHistory(), invalid(KindTokenRegression))
	add("invalid-stale-write-s06-unfenced", "lock-theory S06 variant \"storage ignores tokens\": token 33 accepted after 34",
		staleWriteHistory(), invalid(KindMutexOverlap, KindNotLinearizable, KindStaleWriteAccepted))
	add("invalid-info-acquire-acted", "w1's acquire never returns, yet w1 writes as holder while w2 certainly holds",
		infoAcquireActedHistory(), invalid(KindMutexOverlap, KindNotLinearizable))
	{
		b := newHB(true)
		b.acquire("w1", inv1, 0, 0.1, 1)
		b.write("w1", inv1, workload.ActionClaim, 0.2, 0.3, 1)
		b.read("w1", inv1, 0.4, 0.5, "unpaid")
		b.write("w1", inv1, workload.ActionCharge, 29, 29.1, 1)
		b.fault("pause", []string{"w1"}, 29.2, 40)
		b.acquire("w2", inv1, 30, 30.1, 2)
		b.write("w2", inv1, workload.ActionClaim, 30.2, 30.3, 2)
		b.read("w2", inv1, 30.4, 30.5, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 31, 31.1, 2)
		b.write("w2", inv1, workload.ActionMarkPaid, 31.2, 31.3, 2)
		b.release("w2", inv1, 32, 32.1, true)
		b.refused("w1", inv1, workload.ActionMarkPaid, 40, 40.1, 1, history.RefusalStaleFence, 2)
		b.release("w1", inv1, 40.2, 40.3, false)
		add("invalid-fenced-charge-then-pause-s03", "lock-theory S03 counter-case: w1 charges inside its lease, pauses before mark-paid; fencing cannot undo the charge",
			b.h, expectation{verdict: Invalid, kinds: []string{KindDoubleEffect, KindNotLinearizable}, informational: []string{KindMutexOverlap}})
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 1, 0)
		b.acquire("w2", inv1, 4, 5, 0)
		b.release("w2", inv1, 5, 5.1, true)
		b.release("w1", inv1, 10, 10.1, false)
		add("invalid-zero-length-hold-inside", "Part A finding: w2's zero-length hold (release invoked the instant its grant returned) lies strictly inside w1's hold",
			b.h, invalid(KindMutexOverlap))
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		f := b.fault("pause", []string{"w1"}, 5, 0)
		b.h.Ops[f].Complete, b.h.Ops[f].Type = -1, history.Info // never healed
		b.acquire("w2", inv1, 30, 30.1, 0)
		b.read("w2", inv1, 30.2, 30.3, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 31, 31.1, 0)
		b.write("w2", inv1, workload.ActionMarkPaid, 31.2, 31.3, 0)
		b.release("w2", inv1, 32, 32.1, true)
		add("invalid-paused-until-end", "Part A finding: Kleppmann timeline 1 where the run ends while w1 is still paused (unhealed pause): w1 still believes it holds",
			b.h, invalid(KindMutexOverlap))
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 5, 1)
		b.acquire("w2", inv1, 1, 2, 2)
		b.release("w1", inv1, 6, 6.1, true)
		b.acquire("w3", inv1, 6.5, 6.6, 3)
		b.release("w3", inv1, 7, 7.1, true)
		b.release("w2", inv1, 8, 8.1, false)
		add("invalid-foreign-unlock-token-order", "Part A finding: concurrent acquires return in the other order than granted (tokens 1, 2); w1's release removes w2's key",
			b.h, invalid(KindForeignUnlock, KindMutexOverlap))
	}
	{
		b := newHB(true)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.read("w1", inv1, 0.2, 0.3, "unpaid")
		b.fault("pause", []string{"w1"}, 1, 35)
		b.acquire("w2", inv1, 30, 30.1, 0)
		b.read("w2", inv1, 30.2, 30.3, "unpaid")
		b.write("w2", inv1, workload.ActionCharge, 31, 31.1, 0)
		b.write("w2", inv1, workload.ActionMarkPaid, 31.2, 31.3, 0)
		b.release("w1", inv1, 35, 35.1, false)
		b.release("w2", inv1, 36, 36.1, true)
		add("invalid-fenced-resource-without-tokens", "Part A finding: the resource is marked fenced but the lock hands out no tokens (Redlock, lock-theory §7.4); the overlap is not protected",
			b.h, invalid(KindMutexOverlap))
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 5, 0)
		b.acquire("w2", inv1, 1, 2, 0)
		b.release("w1", inv1, 10, 10.1, false)
		b.release("w2", inv1, 10, 10.1, true)
		add("invalid-concurrent-acquires-both-granted", "two concurrent acquires both return ok (completion order differs from grant order); both believe until 10 s",
			b.h, invalid(KindMutexOverlap))
	}
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 5)
		b.lost("w1", inv1, 10)
		b.acquire("w2", inv1, 11, 11.1, 5)
		b.release("w2", inv1, 12, 12.1, true)
		add("invalid-token-granted-twice", "two clients get the same fencing token for one key (equal, not lower, is still a regression)",
			b.h, invalid(KindTokenRegression))
	}
	add("invalid-extend-after-superseded", "w1 extends its lease after w2 was granted the key: only the holder may extend",
		extendAfterSuperseded(newHB(false)), invalid(KindNotLinearizable))
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0.1, 0)
		b.write("w1", inv1, workload.ActionCharge, 1, 1.1, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 1.2, 1.3, 0)
		b.release("w1", inv1, 2, 2.1, true)
		b.acquire("w2", inv1, 3, 3.1, 0)
		b.read("w2", inv1, 3.2, 3.3, "unpaid")
		b.release("w2", inv1, 4, 4.1, true)
		add("invalid-read-unpaid-after-paid", "w2 reads unpaid after w1 marked the invoice paid: the resource lost a write (not linearizable only)",
			b.h, invalid(KindNotLinearizable))
	}
	add("invalid-fence-refuses-holder", "the resource refuses the current holder's token though no newer grant exists (a broken fence)",
		fenceRefusesHolder(newHB(true)), invalid(KindNotLinearizable))
	{
		b := newHB(false)
		b.acquire("w1", inv1, 0, 0, 0)
		b.write("w1", inv1, workload.ActionCharge, 0, 0, 0)
		b.release("w1", inv1, 0, 0, true)
		b.acquire("w2", inv1, 0, 0, 0)
		b.write("w2", inv1, workload.ActionCharge, 0, 0, 0)
		b.release("w2", inv1, 0, 0, true)
		add("invalid-time-zero-double-charge", "every op at true time 0, two accepted charges",
			b.h, invalid(KindDoubleEffect, KindNotLinearizable))
	}
	{
		// Issue 32, client-clock-skew seed 19 on a loaded machine: w1's
		// clock runs slow; its Redlock keys expire on all five nodes at
		// 10.2 s and it charges at 11.2 s. w2's retries stop at 10.0 s
		// and resume only at 11.8 s: no contender tried during the 1 s
		// exposure, so the run could not have shown the double charge
		// its scenario is about. It passed as valid; it proves nothing.
		b := newHB(false)
		nodes := []string{"n1", "n2", "n3", "n4", "n5"}
		b.h.Header.Nodes, b.h.Header.Algorithm = nodes, "redlock"
		b.h.Header.Traits = []string{history.TraitMultiNode}
		b.h.Header.MaxTimerLagNS = 107e6
		f := b.fault("clock-rate", []string{"w1"}, 0, 12.5)
		b.h.Ops[f].Value.Fault.Rate = 0.9
		b.op("w1", history.Acquire, inv1, 0.19, 0.2, history.OK, history.Value{Token: "w1-tok", TTL: ns(10), Nodes: nodes})
		b.read("w1", inv1, 0.3, 0.31, "unpaid")
		for at := 1.0; at <= 10.0; at += 0.5 {
			b.acquireFail("w2", inv1, at, at+0.01)
		}
		b.write("w1", inv1, workload.ActionCharge, 11.2, 11.21, 0)
		b.write("w1", inv1, workload.ActionMarkPaid, 11.3, 11.31, 0)
		b.release("w1", inv1, 11.4, 11.41, false)
		b.op("w2", history.Acquire, inv1, 11.8, 11.81, history.OK, history.Value{Token: "w2-tok", TTL: ns(10), Nodes: nodes})
		b.read("w2", inv1, 11.9, 11.91, "paid")
		b.release("w2", inv1, 12, 12.01, true)
		add("unknown-exposure-no-contender-tried", "issue 32 (client-clock-skew seed 19, loaded machine): w1 charged 1.0 s after its lease ended and no other client tried to take the lock in that window; it passed as valid, it proves nothing",
			b.h, expectation{verdict: Unknown})
	}
	for _, w := range workloadCases() {
		if w.stored {
			add(w.name, w.source, w.h, w.corpus)
		}
	}
	return cs
}
