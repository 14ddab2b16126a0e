package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/claim"
)

// TestAdviceForTheHeadlinesHarmComesFirst: unlock-deletes-next-lock's
// headline harm, the double charge, did not depend on the foreign unlock
// (w1's key expired by TTL; w2 acquired; both charged), yet "Safe unlock"
// came first and said nothing of which finding it remedies; and its
// fixed_by scenario, never tried on this run, was called "the same fault,
// made harmless" (reader 10, finding 3). The advice that remedies the
// headline's harm comes first; another says which finding it was offered
// for; a fix not tried is not called harmless.
func TestAdviceForTheHeadlinesHarmComesFirst(t *testing.T) {
	in := adviceRun(t, "c44a-advice-names-what-it-remedies")
	m := newModel(in.History, in.Account)
	cs := runClaims(in, m)
	lead, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Anomaly && c.What == "double-effect" })
	if !ok {
		t.Fatal("no double-effect claim")
	}
	adv, _ := adviceOf(in, cs)
	if len(adv) < 2 {
		t.Fatalf("advice %+v", adv)
	}
	if !slices.Contains(adv[0].Claims, lead.ID) {
		t.Errorf("first advice %s rests not on the headline's %s: %+v", adv[0].Key, lead.ID, adv)
	}
	safe := slices.IndexFunc(adv, func(a Advice) bool { return a.Key == "fix.safe" })
	if safe < 0 {
		t.Fatalf("no fix.safe: %+v", adv)
	}
	for _, lang := range Languages() {
		in.Lang = lang
		text := adviceText(lang, adv[safe], in.History.Header)
		if want := tr(lang, "fix.only", kindWord(lang, "foreign-unlock")); !strings.Contains(text, want) {
			t.Errorf("%s: %q lacks %q", lang, text, want)
		}
		// It says what the row was offered for, never that it would not
		// have prevented the headline's harm (reader 11: said so where the
		// tried fix was valid).
		if bad := kindWord(lang, "double-effect"); strings.Contains(text, bad) {
			t.Errorf("%s: %q names the headline's %q", lang, text, bad)
		}
		in.FixedBy = &Fixed{Name: "unlock-checks-owner", File: "scenarios/field/unlock-checks-owner.yaml", Faults: FaultsSame}
		r := remedyOf(in, lang, cs)
		if r.FixedKey != "fix.fixed.untried" {
			t.Errorf("%s: an untried fix is named %q", lang, r.FixedKey)
		}
		if s := tr(lang, r.FixedKey, "unlock-checks-owner"); strings.Contains(s, "harmless") || strings.Contains(s, "vô hại") {
			t.Errorf("%s: %q", lang, s)
		}
	}
}
