package verify_test

import (
	"context"
	"fmt"
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

func TestEveryClaimOfTheAccuracyCorpusHolds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "report", "testdata", "accuracy", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
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
