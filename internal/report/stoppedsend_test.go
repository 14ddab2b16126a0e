package report

import (
	"path/filepath"
	"strings"
	"testing"
)

// A send the client gave up on while its node was stopped (freeze-node) is
// not told as one that never reached Redis: the node runs what it was sent
// when it wakes (a fresh reader of fencing-random-nemesis s1166: w3's
// acquire of invoice-8 "never reached Redis … set no key", and tips "never
// reached the node … the node did not run it" of w3's and w1's scripts,
// which n1 ran at t=11.56s as it woke; w3's, set its key).
func TestASendGivenUpOnWhileItsNodeWasStoppedIsNotToldAsNeverRun(t *testing.T) {
	_, in, m, _ := checkedRun(t, filepath.Join("..", "claim", "verify", "testdata", "runs", "fencing-random-nemesis-s1166-script-stamped-after-stop.jsonl"))
	for _, lang := range []Lang{English, Vietnamese} {
		in.Lang = lang
		for _, s := range narrative(in, m) {
			if strings.Contains(s.Text, tr(lang, "n.acquire.notrun", "w3", "invoice-8")) {
				t.Errorf("%s: the story says %q", lang, s.Text)
			}
		}
		d := buildDrawing(in, m, headline(in, m))
		stopped := 0
		for _, sh := range d.Shapes {
			tip := sh.Tip
			if sh.Tipf != nil {
				tip = sh.Tipf()
			}
			if strings.Contains(tip, "never reached the node") || strings.Contains(tip, "không bao giờ tới node") {
				t.Errorf("%s: a mark's tip says %q", lang, tip)
			}
			if strings.HasPrefix(tip, "w3 → n1: evalsha invoice-8") || strings.HasPrefix(tip, "w1 → n1: evalsha invoice-8") {
				stopped++
			}
		}
		if stopped != 2 {
			t.Errorf("%s: %d marks of w3's and w1's sends given up on while n1 was stopped, want 2", lang, stopped)
		}
	}
}
