package report

import (
	"context"
	"fmt"
	"github.com/locksim/locksim/internal/account"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
	"golang.org/x/net/html"
)

// storySlack is how far a step's time may lie outside its claim's
// window, scenario seconds: none but float rounding (Step.T is the exact
// scenario time of the instant the step is placed at; only the page rounds
// it, to 0.1 s).
const storySlack = 1e-6

// TestEveryStoryStepRendersATrueClaim reads every history of the accuracy
// corpus and of the checker corpus as a report does and checks, in both languages, that each story step
// names the claim it renders (issue 27): a claim of the run's results, a
// window that holds the step's time (an anomaly's step: the instant At its
// claim says it became true), and — all of them together — claims the
// independent verifier does not refuse.
func TestEveryStoryStepRendersATrueClaim(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "accuracy", "*.jsonl"))
	more, err2 := filepath.Glob(filepath.Join("..", "checker", "testdata", "histories", "*.jsonl"))
	if err != nil || err2 != nil || len(files) == 0 || len(more) == 0 {
		t.Fatalf("no corpus: %v %v", err, err2)
	}
	for _, f := range append(files, more...) {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		h, err := history.ReadFile(f)
		if err != nil {
			if strings.HasPrefix(name, "refused-") {
				continue // a checker case of a history the reader must refuse
			}
			t.Fatal(err)
		}
		checkStoryClaims(t, name, h)
	}
}

// TestEveryStoryStepOfStoredRunsRendersATrueClaim is the same check on
// every history.jsonl under $LOCKSIM_STORY_DIR (a `locksim run --out`
// directory); skipped when the variable is unset.
func TestEveryStoryStepOfStoredRunsRendersATrueClaim(t *testing.T) {
	dir := os.Getenv("LOCKSIM_STORY_DIR")
	if dir == "" {
		t.Skip("LOCKSIM_STORY_DIR is not set")
	}
	files, err := history.FilesUnder(dir)
	if err != nil || len(files) == 0 {
		t.Fatalf("no history under %s: %v", dir, err)
	}
	for _, f := range files {
		h, err := history.ReadFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(f))
		checkStoryClaims(t, rel, h)
	}
	t.Logf("%d histories", len(files))
}

// checkStoryClaims checks, in both languages, every story step of h's
// report: it names a claim of the run, the claim's window holds the
// step's time (an anomaly's step: the instant At its claim says it became
// true), and the claims the story tells pass verify.
func checkStoryClaims(t *testing.T, name string, h history.History) {
	t.Helper()
	rep := checker.Check(context.Background(), h, checker.Options{})
	in := Input{History: h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results}
	m := newModel(in.History, in.Account)
	cs := buildResults(in, "", m).Claims
	byID := map[string]claim.Claim{}
	for _, c := range cs {
		byID[c.ID] = c
	}
	for _, lang := range []Lang{"en", "vi"} {
		t.Run(name+" in "+string(lang)+" tells only claims that hold", func(t *testing.T) {
			in.Lang = lang
			var told []claim.Claim
			seen := map[string]bool{}
			for _, s := range narrative(in, m) {
				c, ok := byID[s.Claim]
				switch {
				case s.Claim == "":
					t.Errorf("%s (%s) renders no claim", s, s.Kind)
					continue
				case !ok:
					t.Errorf("%s (%s) names claim %q, which the run does not make", s, s.Kind, s.Claim)
					continue
				}
				// An anomaly is told at the instant its claim says it
				// became true (At: the event that completes it, which may
				// be a violating write's completion after the window the
				// checker reports); every other step within its claim's
				// window.
				from, to := m.sec(c.Start), m.sec(c.End)
				// An operation's own line (an Op claim) is told at the
				// instant its claim gives: when it ended, for one told by
				// how it ended.
				// A key lost in a failover while a replica still had it is
				// told when that replica died (its claim's At, Nodes).
				if c.Kind == claim.Anomaly || c.Kind == claim.Op || c.Kind == claim.KeyLife && c.How == account.EndFailover && len(c.Nodes) == 1 {
					from, to = m.sec(c.At), m.sec(c.At)
				}
				if s.T < from-storySlack || s.T > to+storySlack {
					t.Errorf("%s (%s) is placed outside its claim %s's window [%.3f, %.3f]", s, s.Kind, c.ID, from, to)
				}
				if !seen[c.ID] {
					seen[c.ID] = true
					told = append(told, c)
				}
			}
			if r := verify.Verify(h, told); len(r.Failures) > 0 {
				for _, fl := range r.Failures {
					t.Errorf("the story tells claim %s (%s), which the history contradicts: %s (records %v)", fl.Claim.ID, fl.Claim.Kind, fl.Reason, fl.Records)
				}
			}
		})
	}
}

// ownKeyRefusal is a history in which w1's first acquire set its key on
// n1 but its reply was lost (info), so w1's next acquire is refused by its
// own key; then w2 is refused by w1's key (someone else's).
func ownKeyRefusal() history.History {
	const ms = int64(1e6)
	cmd := func(at int64, args ...string) history.Op {
		return history.Op{Process: history.NodeProcess, Client: "w1", F: history.NodeCmd, Key: "k",
			Value: history.Value{Node: "n1", Cmd: args}, Invoke: at * ms, Complete: at * ms, Type: history.OK}
	}
	acq := func(proc int, typ history.Type, from, to int64) history.Op {
		return history.Op{Process: proc, Client: "w1", F: history.Acquire, Key: "k", Value: history.Value{TTL: 5000 * ms},
			Invoke: from * ms, Complete: to * ms, Type: typ}
	}
	ops := []history.Op{
		acq(0, history.Info, 10, 300),
		cmd(20, "set", "k", "tokA", "px", "5000", "nx"),
		acq(1, history.Fail, 400, 410),
		cmd(405, "set", "k", "tokB", "px", "5000", "nx"),
		acq(1, history.Fail, 600, 610),
		cmd(605, "set", "k", "tokC", "px", "5000", "nx"),
		{Process: 2, Client: "w2", F: history.Acquire, Key: "k", Value: history.Value{TTL: 5000 * ms}, Invoke: 900 * ms, Complete: 910 * ms, Type: history.Fail},
		{Process: history.NodeProcess, Client: "w2", F: history.NodeCmd, Key: "k", Value: history.Value{Node: "n1", Cmd: []string{"set", "k", "tokD", "px", "5000", "nx"}},
			Invoke: 905 * ms, Complete: 905 * ms, Type: history.OK},
		{Process: 2, Client: "w2", F: history.Acquire, Key: "k", Value: history.Value{TTL: 5000 * ms}, Invoke: 1000 * ms, Complete: 1010 * ms, Type: history.Fail},
	}
	for i := range ops {
		ops[i].Index = i
	}
	return history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: "own-key", TimeScale: 1,
		Backend: "local", Algorithm: "safe", Workload: "payment", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"},
		Persistence: map[string]string{"n1": "none"}, Observed: []string{"n1"}}, Ops: ops}
}

// slowForeignRelease is a history in which w1's release is invoked at
// 8.8 s, after its key expired at 5.1 s; w2 is granted the lock at 10.7 s;
// w1's DEL reaches the node only at 11.8 s and removes w2's key.
func slowForeignRelease() history.History {
	const ms = int64(1e6)
	cmd := func(client string, at int64, args ...string) history.Op {
		return history.Op{Process: history.NodeProcess, Client: client, F: history.NodeCmd, Key: "k",
			Value: history.Value{Node: "n1", Cmd: args}, Invoke: at * ms, Complete: at * ms, Type: history.OK}
	}
	op := func(proc int, client string, f history.Func, from, to int64, v history.Value) history.Op {
		return history.Op{Process: proc, Client: client, F: f, Key: "k", Value: v, Invoke: from * ms, Complete: to * ms, Type: history.OK}
	}
	ops := []history.Op{
		op(0, "w1", history.Acquire, 90, 110, history.Value{Token: "tokA", TTL: 5000 * ms, Nodes: []string{"n1"}}),
		cmd("w1", 100, "set", "k", "tokA", "px", "5000", "nx"),
		op(0, "w1", history.Release, 8800, 11900, history.Value{Token: "tokA", Removed: true, Nodes: []string{"n1"}}),
		op(1, "w2", history.Acquire, 10690, 10710, history.Value{Token: "tokB", TTL: 5000 * ms, Nodes: []string{"n1"}}),
		cmd("w2", 10700, "set", "k", "tokB", "px", "5000", "nx"),
		cmd("w1", 11800, "del", "k"),
		op(1, "w2", history.Release, 12000, 12010, history.Value{Token: "tokB", Nodes: []string{"n1"}}),
	}
	for i := range ops {
		ops[i].Index = i
	}
	return history.History{Header: history.Header{Format: history.Format, Version: history.Version, Scenario: "slow-release", TimeScale: 1,
		Backend: "local", Algorithm: "naive-del", Workload: "payment", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"},
		Persistence: map[string]string{"n1": "none"}, Observed: []string{"n1"}}, Ops: ops}
}

// TestStorySentencesSayWhatTheirClaimsSay checks the story lines whose
// words changed when they came to be rendered from claims, each a false
// statement of issue 27 before: told from the claim, it no longer is.
func TestStorySentencesSayWhatTheirClaimsSay(t *testing.T) {
	corpus := func(name string) history.History {
		h, err := history.ReadFile(filepath.Join("testdata", "accuracy", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	cases := []struct {
		name      string
		h         history.History
		lang      Lang
		says, not string
	}{
		{"a heartbeat answered ok whose PEXPIRE found no key is not told as an extension (class 1)", corpus("c19d-leader-split-brain-stale-write-first"), "en",
			"t=13.7s  w2's extend of its lock on leader was answered as done, but when its command ran the node had no key for it to extend.",
			"w2 extended its lock on leader."},
		{"the same heartbeat in Vietnamese", corpus("c19d-leader-split-brain-stale-write-first"), "vi",
			"t=13.7s  w2 được báo là đã gia hạn lock trên leader, nhưng khi lệnh của nó chạy, node không còn key nào của nó để gia hạn.",
			"w2 gia hạn lock trên leader."},
		{"a refusal by the client's own orphaned key is not told as someone else's (class 4)", ownKeyRefusal(), "en",
			"w1 tried to acquire k 2 times between t=0.4s and t=0.6s and was refused every time by its own key: an earlier acquire of it had set the key, though it never got the reply.",
			"w1 tried to acquire k 2 times between t=0.4s and t=0.6s and was refused every time (someone else held it)."},
		{"the same refusal in Vietnamese", ownKeyRefusal(), "vi",
			"w1 thử lấy lock k 2 lần từ t=0,4s đến t=0,6s và lần nào cũng bị chính key của nó từ chối: một lần lấy lock trước của nó đã đặt key, dù nó không bao giờ nhận được phản hồi.",
			"w1 thử lấy lock k 2 lần từ t=0,4s đến t=0,6s và lần nào cũng bị từ chối (client khác đang giữ)."},
		{"a release that removed another's key is told when its DEL ran, not at its invoke (class 12)", slowForeignRelease(), "en",
			"t=11.8s  w1's release deleted w2's key k", "t=8.8s  w1's release deleted"},
		{"the same release in Vietnamese", slowForeignRelease(), "vi",
			"t=11.8s  Lệnh nhả lock của w1 đã xoá key k của w2", "t=8.8s  Lệnh nhả lock của w1"},
		{"a purge names the client whose command purged the permit (class 3)", corpus("c05-semaphore-over-admission"), "en",
			"w1's permit on sem-1, on the node for 10.1s, was purged as timed out: its stamp was at or before the purging command's cut-off, that client's clock less the timeout. It was w4's command that purged it.",
			"purged as timed out, after"}, // "after 9.9s" of a 10 s timeout read as a purge before it (reader 7, F8)
		{"the same purge in Vietnamese", corpus("c05-semaphore-over-admission"), "vi",
			"Permit của w1 trên sem-1, đã nằm trên node 10,1 s, bị dọn (purge) vì quá hạn: dấu thời gian của nó không muộn hơn mốc cắt của lệnh dọn, tức đồng hồ của client đó trừ đi timeout. Lệnh dọn nó là của w4.",
			"vì quá hạn, sau"},
		{"an acquire that ended in an error is told when it ended, with when it began (a fresh reader)", ownKeyRefusal(), "en",
			"t=0.3s  w1's acquire of k ended in an error, with no definite answer: outcome unknown. It had begun at t=0.0s.", "t=0.0s  w1's acquire of k ended"},
		{"the same acquire in Vietnamese", ownKeyRefusal(), "vi",
			"t=0.3s  Lệnh lấy lock k của w1 kết thúc bằng lỗi, không có câu trả lời chắc chắn: không rõ kết quả. Lệnh này đã bắt đầu từ t=0,0s.", "t=0.0s  Lệnh lấy lock k của w1 kết thúc"},
		{"a refusal by another client's key names whose key the node held, not someone else who held it", ownKeyRefusal(), "en",
			"w2 tried to acquire k and was refused: w1's key stood on n1.", "w2 tried to acquire k 2 times between t=0.9s and t=1.0s and was refused every time"},
		{"the refusal by another client's key in Vietnamese names whose key it was", ownKeyRefusal(), "vi",
			"w2 thử lấy lock k và bị từ chối: key của w1 vẫn còn trên n1.", "w2 thử lấy lock k 2 lần"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := checker.Check(context.Background(), tc.h, checker.Options{})
			in := Input{History: tc.h, Account: rep.Account, Verdict: rep.Verdict, Results: rep.Results, Lang: tc.lang}
			var story strings.Builder
			for _, s := range Narrative(in) {
				story.WriteString(s.String() + "\n")
			}
			if !strings.Contains(story.String(), tc.says) {
				t.Errorf("the story does not say %q; it says:\n%s", tc.says, story.String())
			}
			if strings.Contains(story.String(), tc.not) {
				t.Errorf("the story still says %q:\n%s", tc.not, story.String())
			}
		})
	}
}

// TestEverySentenceOfThePageCarriesItsClaim writes reports (both
// languages) of a foreign unlock, of the invalid gc-pause run with its
// experiments, of gc-pause-fencing and of stored catalogue runs (one of
// each of the 8 workloads, a valid run, a process library's run:
// testdata/pages), and checks that every sentence element of index.html
// (sentenceElements) carries, as data-claim, ids of claims results.json
// holds — a checker's row with no findings too — and that each part of
// the page a run of its kind has is there to be checked.
func TestEverySentenceOfThePageCarriesItsClaim(t *testing.T) {
	read := func(path ...string) history.History {
		h, err := history.ReadFile(filepath.Join(append([]string{"testdata"}, path...)...))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	invalid := gcPauseInput("local", false)
	invalid.Counterfactuals = experiments(checker.Valid, checker.Valid, checker.Valid)
	invalid.FixedBy = &Fixed{Name: "gc-pause-fencing", File: "scenarios/gc-pause-fencing.yaml", Faults: FaultsSame}
	cases := []struct {
		name string
		in   Input
		has  []string // the sentence elements the page must have
	}{
		{"a foreign unlock", Input{History: read("accuracy", "c01-naive-del-foreign-unlock.jsonl")}.checked(), []string{"headline", "story", "anomaly", "checker"}},
		{"the invalid gc-pause run", invalid, []string{"headline", "cause", "story", "anomaly", "advice", "fixed-run", "fixed-by", "experiment", "checker", "expect"}},
		{"gc-pause-fencing", gcPauseInput("local", true), []string{"headline", "story", "anomaly", "saved", "checker", "expect"}},
	}
	stored := []struct{ file, workload string }{
		{"gc-pause-s42.jsonl", "payment"},
		{"counter-gc-pause-s11.jsonl", "counter"},
		{"inventory-oversell-s21.jsonl", "inventory"},
		{"cron-duplicate-run-s51.jsonl", "cron"},
		{"leader-split-brain-s20.jsonl", "leader"},
		{"semaphore-over-admission-s50.jsonl", "semaphore"},
		{"cache-rebuild-waste-s8.jsonl", "cache-rebuild"},
		{"order-status-gc-pause-s12.jsonl", "order-status"},
		{"safe-unlock-s4.jsonl", "counter"},
		{"redis-py-stale-release-s4.jsonl", "counter"},
	}
	for _, s := range stored {
		h := read("pages", s.file)
		if h.Header.Workload != s.workload {
			t.Fatalf("%s is a run of %s, not %s", s.file, h.Header.Workload, s.workload)
		}
		has := []string{"headline", "story", "checker"}
		in := Input{History: h, ScenarioFile: "scenarios/" + h.Header.Scenario + ".yaml", Reproduce: "locksim run scenarios/" + h.Header.Scenario + ".yaml"}.checked()
		if in.Verdict == checker.Invalid {
			has = append(has, "anomaly")
		}
		cases = append(cases, struct {
			name string
			in   Input
			has  []string
		}{"the " + s.workload + " run " + strings.TrimSuffix(s.file, ".jsonl"), in, has})
	}
	for _, tc := range cases {
		for _, lang := range []Lang{"en", "vi"} {
			t.Run("the "+string(lang)+" page of "+tc.name+" names a claim on every sentence", func(t *testing.T) {
				in := tc.in
				in.Lang, in.SkipCharts = lang, true
				dir, res := writeReport(t, in)
				ids := map[string]bool{}
				for _, c := range res.Claims {
					ids[c.ID] = true
				}
				f, err := os.Open(filepath.Join(dir, IndexFile))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				doc, err := html.Parse(f)
				if err != nil {
					t.Fatal(err)
				}
				found := map[string]int{}
				for _, e := range sentenceElements(doc) {
					if e.part == "fixed-by" && len(in.Counterfactuals) == 0 {
						continue // the fixed_by file's name, from the scenario: no run of it to claim
					}
					found[e.part]++
					claimIDs := strings.Fields(e.claim)
					if len(claimIDs) == 0 {
						t.Errorf("the %s sentence %q carries no data-claim", e.part, e.text)
					}
					for _, id := range claimIDs {
						if !ids[id] {
							t.Errorf("the %s sentence %q names %s, no claim of results.json", e.part, e.text, id)
						}
					}
				}
				for _, part := range tc.has {
					if found[part] == 0 {
						t.Errorf("the page has no %s sentence", part)
					}
				}
			})
		}
	}
}

// sentenceElement is one element of index.html that says something about
// the run: which part of the page it is in, its words, its first words
// (a row's first cell: its checker, its change) and its data-claim.
type sentenceElement struct{ part, text, first, claim string }

// sentenceElements finds index.html's sentences: the headline's (and the
// experiments' after it), the story's lines, the anomalies' and the
// experiments' rows, the saved sentence, the advice, the fixed_by run's
// sentence and the checkers' summaries.
func sentenceElements(doc *html.Node) []sentenceElement {
	attr := func(n *html.Node, k string) string {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val
			}
		}
		return ""
	}
	var text func(n *html.Node) string
	text = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(text(c))
		}
		return b.String()
	}
	var out []sentenceElement
	add := func(part string, n *html.Node) {
		out = append(out, sentenceElement{part: part, text: strings.TrimSpace(text(n)), first: strings.TrimSpace(text(firstElement(n))),
			claim: attr(n, "data-claim")})
	}
	var walk func(n *html.Node, table string)
	walk = func(n *html.Node, table string) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "span" && n.Parent != nil && attr(n.Parent, "class") == "say":
				part := "headline" // the experiments' sentences follow it
				if strings.HasPrefix(attr(n, "data-claim"), string(claim.Experiment)+"-") {
					part = "cause"
				}
				add(part, n)
			case n.Data == "li" && n.Parent != nil && attr(n.Parent, "id") == "story":
				add("story", n)
			case n.Data == "li" && n.Parent != nil && attr(n.Parent, "class") == "fix":
				add("advice", n)
			case n.Data == "p" && attr(n, "class") == "saved":
				add("saved", n)
			case n.Data == "p" && attr(n, "id") == "fixed-run":
				add("fixed-run", n)
			case n.Data == "p" && attr(n, "class") == "fixed-by":
				add("fixed-by", n)
			case n.Data == "div" && strings.HasPrefix(attr(n, "class"), "expect ") && !strings.HasSuffix(attr(n, "class"), " none"):
				add("expect", n)
			case n.Data == "table":
				table = attr(n, "id")
				if table == "" {
					table = "checkers"
				}
			case n.Data == "tr" && n.FirstChild != nil && firstElement(n).Data == "td":
				switch table {
				case "anomalies":
					add("anomaly", n)
				case "why":
					add("experiment", n)
				case "checkers":
					add("checker", n)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, table)
		}
	}
	walk(doc, "")
	return out
}

// firstElement is n's first child element (n itself when it has none).
func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return n
}

// TestALeftOutStretchCarriesTheClaimWhereItBegins caps a long story and
// checks that each line summarising a left-out stretch carries the claim
// of the first step it leaves out, and every kept step its own.
func TestALeftOutStretchCarriesTheClaimWhereItBegins(t *testing.T) {
	var steps []Step
	for i := range 3 * maxStorySteps {
		kind := StepRead
		if i%97 == 0 {
			kind = StepFault
		}
		steps = append(steps, Step{T: float64(i), Kind: kind, Text: fmt.Sprintf("step %d", i), Claim: fmt.Sprintf("op-%d", i)})
	}
	got := capStory("en", steps)
	more := 0
	for _, s := range got {
		want := fmt.Sprintf("op-%d", int(s.T)) // T is the index of the step it stands for
		if s.Claim != want {
			t.Errorf("%s (%s) carries claim %q, want %q", s, s.Kind, s.Claim, want)
		}
		if s.Kind == StepMore {
			more++
		}
	}
	if more == 0 {
		t.Fatal("the story was not capped")
	}
}
