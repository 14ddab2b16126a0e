package suite

import (
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// A fix is told with what its file changes (reader 16, F3): the ShedLock
// fix changes the lock, its TTL, min_hold, the time scale and the
// duration, not only "a changed lock"; names, descriptions, expectations
// and faults are not among its changes.
func TestAFixsChangesAreTheFieldsItsFileChanges(t *testing.T) {
	root := filepath.Join("..", "..", "scenarios", "field")
	sc, err := scenario.Load(filepath.Join(root, "unlock-deletes-next-lock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got := fixedChanges(sc, filepath.Join(root, "unlock-checks-owner.yaml"))
	want := []report.FixChange{
		{Field: "algorithm", From: "set-xx-unlock", To: "checked-min-hold-unlock"},
		{Field: "duration", From: "2m0s", To: "3m0s"},
		{Field: "min_hold", From: "10s", To: "45s"},
		{Field: "time_scale", From: "25", To: "50"},
		{Field: "ttl", From: "30s", To: "1m0s"},
	}
	if len(got) != len(want) {
		t.Fatalf("changes %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
