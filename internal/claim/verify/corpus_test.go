package verify_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// claimsOf makes a history's claims the way a report does: the account's
// and the checkers'.
func claimsOf(h history.History) []claim.Claim {
	rep := checker.Check(context.Background(), h, checker.Options{})
	return claim.Number(append(rep.Account.Claims(), checker.Claims(rep.Results)...))
}

// describe lists a result's failures for a test message.
func describe(r verify.Result) string {
	var b strings.Builder
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "\n  %s %s %s/%s on %s [%d, %d] how=%s by=%s: %s (records %v)", f.Claim.ID, f.Claim.What, f.Claim.Client, f.Claim.Key,
			f.Claim.Node, f.Claim.Start, f.Claim.End, f.Claim.How, f.Claim.By, f.Reason, f.Records)
	}
	return b.String()
}

// TestEveryClaimOfTheAccuracyCorpusHolds verifies every claim made of the
// report-accuracy corpus, of the report's advice runs, of the checker corpus (real runs with node
// events among them: PXAT deadlines, a node's dump after a restart,
// releases inferred from the clients alone) and of testdata here: stored
// runs whose claims were once false (redlock3-restart-dump-after-gap: a
// counterfactual run of scenarios/redlock3-restart.yaml, seed 1, without
// step 1, whose n2 showed after its restart a key of w2 whose SET fell in
// the observer's gap — once claimed an orphan "from its SET";
// exposure-key-recreated-by-refresh: redis-semaphore-4-host-sleep, seed
// 707, at half of step 2, whose w1's key expired while n1 was frozen and
// its refresh set it again 3 ms after n1 resumed — once read as the lease
// standing past its claimed end).
func TestEveryClaimOfTheAccuracyCorpusHolds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "report", "testdata", "accuracy", "*.jsonl"))
	more, err2 := filepath.Glob(filepath.Join("..", "..", "checker", "testdata", "histories", "*.jsonl"))
	own, err3 := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	advice, err4 := filepath.Glob(filepath.Join("..", "..", "report", "testdata", "advice", "*.jsonl"))
	pages, err5 := filepath.Glob(filepath.Join("..", "..", "report", "testdata", "pages", "*.jsonl"))
	if err != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil || len(files) == 0 || len(more) == 0 || len(own) == 0 || len(advice) == 0 || len(pages) == 0 {
		t.Fatalf("no corpus: %v %v %v %v %v", err, err2, err3, err4, err5)
	}
	for _, f := range append(append(append(append(files, more...), own...), advice...), pages...) {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		if strings.HasPrefix(name, "refused-") {
			continue // a checker case of a history the reader must refuse
		}
		t.Run(name+" says only true things", func(t *testing.T) {
			h, err := history.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cs := claimsOf(h)
			r := verify.Verify(h, cs)
			if len(r.Failures) > 0 {
				t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
			}
			t.Logf("%d claims: %d hold, unchecked %v", len(cs), r.Held, r.Unchecked)
		})
	}
}

// TestEveryClaimOfStoredRunsHolds derives, with the current code, the
// claims of every history.jsonl under $LOCKSIM_CLAIMS_DIR (a `locksim run
// --out` directory, e.g. the catalogue at several seeds) and verifies them:
// what `make claims` checks through the CLI, without rewriting reports. It
// is skipped when the variable is unset.
func TestEveryClaimOfStoredRunsHolds(t *testing.T) {
	dir := os.Getenv("LOCKSIM_CLAIMS_DIR")
	if dir == "" {
		t.Skip("LOCKSIM_CLAIMS_DIR is not set")
	}
	files, err := history.FilesUnder(dir)
	if err != nil || len(files) == 0 {
		t.Fatalf("no history under %s: %v", dir, err)
	}
	total, held := 0, 0
	unchecked := map[string]int{}
	for _, f := range files {
		h, err := history.ReadFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		cs := claimsOf(h)
		r := verify.Verify(h, cs)
		total, held = total+len(cs), held+r.Held
		for k, n := range r.Unchecked {
			unchecked[k] += n
		}
		if len(r.Failures) > 0 {
			t.Errorf("%s: %d of %d claims are false:%s", f, len(r.Failures), len(cs), describe(r))
		}
	}
	t.Logf("%d histories, %d claims, %d hold, not checkable %v", len(files), total, held, unchecked)
}
