package report

import (
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

func TestARunShowsTheRequirementsItsFindingsAndFaultsTell(t *testing.T) {
	pause := []history.FaultStep{{ID: 1, Kind: "pause", Effect: history.EffectFreezeClient}}
	crash := []history.FaultStep{{ID: 1, Kind: "crash", Effect: history.EffectCrashNode}}
	restart := []history.FaultStep{{ID: 1, Kind: "restart-client", Effect: history.EffectRestartClient}}
	overlap := func(cause string, info bool) checker.Anomaly {
		return checker.Anomaly{Kind: checker.KindMutexOverlap, Informational: info, Cause: &checker.Cause{Kind: cause}}
	}
	live := map[string]checker.Verdict{checker.CheckerLiveness: checker.Valid}
	// struck is a run's claims: step 1 struck client at 5 s, while w1's
	// key lived from 0 to 10 s.
	struck := func(step history.FaultStep, client string) []claim.Claim {
		step.Clients = []string{client}
		return []claim.Claim{{Kind: claim.Fault, Start: 5, End: 5, Step: 1, Fault: &step},
			{Kind: claim.KeyLife, Client: "w1", Key: "invoice-1", Start: 0, End: 10}}
	}
	orphan := func(bounded bool) checker.Anomaly {
		return checker.Anomaly{Kind: checker.KindOrphanedLease, Informational: true, Harmless: checker.HarmlessLiveness,
			Cause: &checker.Cause{Kind: account.EndExpired, TTL: 10, Bounded: bounded}}
	}
	tests := []struct {
		name string
		r    Results
		want map[string]Showing
	}{
		{"a pause past the TTL keeps mutual exclusion but breaks safety (lesson 44)",
			Results{Verdict: checker.Invalid, Plan: pause, Claims: struck(pause[0], "w1"), Checkers: live, Anomalies: []checker.Anomaly{
				overlap(account.EndExpired, false), {Kind: checker.KindDoubleEffect}}},
			map[string]Showing{ReqMutualExclusion: Kept, ReqDeadlockFree: Kept, ReqFaultTolerance: NotShown, ReqSafety: Broken, ReqLiveness: Kept}},
		{"a fenced run whose stale holder was refused breaks the course's safety with no harm done",
			Results{Verdict: checker.Valid, Plan: pause, Checkers: live, Anomalies: []checker.Anomaly{overlap(account.EndExpired, true)}},
			map[string]Showing{ReqMutualExclusion: Kept, ReqSafety: Spared, ReqLiveness: Kept}},
		{"a shared owner token whose second holder re-entered the first's key breaks mutual exclusion (lesson 43)",
			Results{Verdict: checker.Invalid, Plan: pause, Anomalies: []checker.Anomaly{overlap(checker.CauseReentered, false), overlap(checker.CauseSharerReleased, false), {Kind: checker.KindDoubleEffect}}},
			map[string]Showing{ReqMutualExclusion: Broken, ReqSafety: Broken}},
		{"a job that outlived its TTL with no fault keeps mutual exclusion as a paused one does (lesson 42's slow-job)",
			Results{Verdict: checker.Invalid, Claims: []claim.Claim{{Kind: claim.Hold, Client: "w1", Believed: true, Start: 0, End: 45, TTL: 30}},
				Anomalies: []checker.Anomaly{overlap(account.EndExpired, false), {Kind: checker.KindDoubleEffect}}},
			map[string]Showing{ReqMutualExclusion: Kept, ReqSafety: Broken}},
		{"a plain DEL of another's key breaks mutual exclusion",
			Results{Verdict: checker.Invalid, Plan: pause, Anomalies: []checker.Anomaly{{Kind: checker.KindForeignUnlock}, overlap(account.EndDeleted, false)}},
			map[string]Showing{ReqMutualExclusion: Broken, ReqSafety: Broken}},
		{"a key lost in a node crash breaks mutual exclusion and fault tolerance",
			Results{Verdict: checker.Invalid, Plan: crash, Anomalies: []checker.Anomaly{overlap(account.EndCrashed, false)}},
			map[string]Showing{ReqMutualExclusion: Broken, ReqFaultTolerance: Broken, ReqDeadlockFree: NotShown}},
		{"a durable node that survives the crash keeps fault tolerance",
			Results{Verdict: checker.Valid, Plan: crash},
			map[string]Showing{ReqFaultTolerance: Kept, ReqSafety: Kept, ReqMutualExclusion: Kept}},
		{"a stuck lock breaks deadlock-freedom and liveness",
			Results{Verdict: checker.Invalid, Plan: []history.FaultStep{{ID: 1, Kind: "crash-client", Effect: history.EffectCrashClient}},
				Checkers: live, Anomalies: []checker.Anomaly{{Kind: checker.KindStuckLock}, {Kind: checker.KindUnavailable}}},
			map[string]Showing{ReqDeadlockFree: Broken, ReqLiveness: Broken}},
		{"a liveness finding of a machine too busy breaks nothing",
			Results{Verdict: checker.Valid, Plan: pause, Claims: struck(pause[0], "w1"), Checkers: live, Anomalies: []checker.Anomaly{
				{Kind: checker.KindStuckLock, Informational: true, Harmless: checker.HarmlessBusy}}},
			map[string]Showing{ReqDeadlockFree: Kept, ReqLiveness: Kept}},
		{"an unknown run shows nothing",
			Results{Verdict: checker.Unknown, Plan: pause, Anomalies: []checker.Anomaly{{Kind: checker.KindDoubleEffect}}},
			map[string]Showing{ReqMutualExclusion: NotShown, ReqSafety: NotShown, ReqLiveness: NotShown}},
		{"a run with no verdict shows nothing",
			Results{Error: "redis-server did not start", Plan: pause},
			map[string]Showing{ReqSafety: NotShown}},
		{"a lock-free run shows no requirement, safety included: no two clients can believe they hold a lock none takes (teacher2 #9)",
			Results{Verdict: checker.Valid, Plan: pause, Traits: []string{history.TraitLockFree}, Checkers: live},
			map[string]Showing{ReqSafety: NotShown, ReqMutualExclusion: NotShown, ReqLiveness: NotShown}},
		{"a run with no fault whose holds fit their TTL keeps no requirement but may break one",
			Results{Verdict: checker.Invalid, Anomalies: []checker.Anomaly{overlap(account.EndExpired, false), {Kind: checker.KindDoubleEffect}}},
			map[string]Showing{ReqSafety: Broken, ReqMutualExclusion: NotShown, ReqDeadlockFree: NotShown}},
		{"a run with no fault whose holder outlived its TTL, renewed, keeps safety (lesson 44's watchdog)",
			Results{Verdict: checker.Valid, Checkers: live, Claims: []claim.Claim{{Kind: claim.Hold, Client: "w1", Believed: true, Start: 0, End: 45, TTL: 30}}},
			map[string]Showing{ReqSafety: Kept}},
		{"a run with no fault whose holds fit in their TTL does not test safety",
			Results{Verdict: checker.Valid, Checkers: live, Claims: []claim.Claim{{Kind: claim.Hold, Client: "w1", Believed: true, Start: 0, End: 5, TTL: 30}}},
			map[string]Showing{ReqSafety: NotShown}},
		{"a hung job whose capped watchdog gave its lock up keeps deadlock-freedom (lesson 44's watchdog-bounded-hung-worker)",
			Results{Verdict: checker.Valid, Checkers: live, Claims: []claim.Claim{{Kind: claim.Hold, Client: "w1", Believed: true, Start: 0, End: 40, TTL: 30, How: account.HoldLost}}},
			map[string]Showing{ReqDeadlockFree: Kept, ReqLiveness: Kept}},
		{"a job that outlived its TTL and released it shows no deadlock-freedom",
			Results{Verdict: checker.Valid, Checkers: live, Claims: []claim.Claim{{Kind: claim.Hold, Client: "w1", Believed: true, Start: 0, End: 45, TTL: 30, How: account.HoldReleased}}},
			map[string]Showing{ReqDeadlockFree: NotShown}},
		{"a restart of a client that held no lock does not test deadlock-freedom",
			Results{Verdict: checker.Valid, Plan: restart, Claims: struck(restart[0], "w2"), Checkers: live},
			map[string]Showing{ReqDeadlockFree: NotShown, ReqLiveness: Kept}},
		{"a crash of the client that held the lock tests deadlock-freedom",
			Results{Verdict: checker.Valid, Plan: restart, Claims: struck(restart[0], "w1"), Checkers: live},
			map[string]Showing{ReqDeadlockFree: Kept}},
		{"an orphaned lease its TTL ended within one TTL keeps deadlock-freedom and liveness",
			Results{Verdict: checker.Valid, Plan: restart, Claims: struck(restart[0], "w1"), Checkers: live, Anomalies: []checker.Anomaly{orphan(true)}},
			map[string]Showing{ReqDeadlockFree: Kept, ReqLiveness: Kept}},
		{"an orphaned lease that outlived its TTL breaks liveness",
			Results{Verdict: checker.Valid, Plan: restart, Claims: struck(restart[0], "w1"), Checkers: live, Anomalies: []checker.Anomaly{orphan(false)}},
			map[string]Showing{ReqLiveness: Broken}},
		{"a lock that granted a second client while the first key should still have stood breaks mutual exclusion",
			Results{Verdict: checker.Invalid, Plan: pause, Anomalies: []checker.Anomaly{overlap(account.EndTaken, false), {Kind: checker.KindLostUpdate}}},
			map[string]Showing{ReqMutualExclusion: Broken, ReqSafety: Broken}},
		{"an orphaned lease another client's extends kept past its TTL breaks deadlock-freedom: the lock did not come free by itself (reader 7, F3)",
			Results{Verdict: checker.Invalid, Plan: restart, Claims: struck(restart[0], "w1"), Checkers: live, Anomalies: []checker.Anomaly{
				{Kind: checker.KindOrphanedLease, Owner: "w1", Key: "leader-1", StartS: 10, EndS: 39.1,
					Cause: &checker.Cause{Kind: account.EndExpired, ExtendedBy: "w2", Extended: 5.8e9}}, {Kind: checker.KindUnavailable}}},
			map[string]Showing{ReqDeadlockFree: Broken, ReqLiveness: Broken}},
		{"a semaphore that admits more than its permits breaks mutual exclusion",
			Results{Verdict: checker.Invalid, Plan: pause, Anomalies: []checker.Anomaly{{Kind: checker.KindOverAdmission}, overlap(account.EndPurged, false)}},
			map[string]Showing{ReqMutualExclusion: Broken, ReqSafety: Broken}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for req, want := range tt.want {
				if got := Shows(tt.r, req); got != want {
					t.Errorf("%s: %d, want %d", req, got, want)
				}
			}
		})
	}
}

// TestAMarkSaysWhyTwoBelievedHoldersKeptOrSparedARequirement: the note
// beside a mark is the run's own facts — a refusal only where the stale
// holder's write was refused (an Op claim), an efficiency lock's overlap
// as duplicate work, and a kept mutual exclusion whose overlap came after
// the first key expired (issue 34: cache-rebuild-waste was said to have
// refused a stale write).
func TestAMarkSaysWhyTwoBelievedHoldersKeptOrSparedARequirement(t *testing.T) {
	pause := []history.FaultStep{{ID: 1, Kind: "pause", Effect: history.EffectFreezeClient}}
	overlap := func(harmless string) checker.Anomaly {
		return checker.Anomaly{Kind: checker.KindMutexOverlap, Stale: "w1", Current: "w2", Informational: true, Harmless: harmless,
			Cause: &checker.Cause{Kind: account.EndExpired}}
	}
	refusal := claim.Claim{Kind: claim.Op, Client: "w1", What: string(history.Write), How: "fail", Refusal: "stale-fence"}
	tests := []struct {
		name string
		r    Results
		req  string
		want Mark
	}{
		{"a fenced run whose stale write was refused says the harm was prevented",
			Results{Verdict: checker.Valid, Plan: pause, Claims: []claim.Claim{refusal}, Anomalies: []checker.Anomaly{overlap(checker.HarmlessFenced)}},
			ReqSafety, Mark{Showing: Spared, Note: NoteRefused}},
		{"an efficiency lock's overlap is duplicate work, not a refused write",
			Results{Verdict: checker.Valid, Claims: []claim.Claim{{Kind: claim.Hold, Client: "w1", Believed: true, Start: 0, End: 45, TTL: 30}},
				Anomalies: []checker.Anomaly{overlap(checker.HarmlessEfficiency), {Kind: "duplicate-work", Informational: true}}},
			ReqSafety, Mark{Showing: Spared, Note: NoteWaste}},
		{"a fenced overlap whose stale holder wrote nothing refused nothing",
			Results{Verdict: checker.Valid, Plan: pause, Anomalies: []checker.Anomaly{overlap(checker.HarmlessFenced)}},
			ReqSafety, Mark{Showing: Spared, Note: NoteNoHarm}},
		{"another client's refused write is not the stale holder's",
			Results{Verdict: checker.Valid, Plan: pause, Claims: []claim.Claim{{Kind: claim.Op, Client: "w3", What: string(history.Write), Refusal: "stale-fence"}},
				Anomalies: []checker.Anomaly{overlap(checker.HarmlessFenced)}},
			ReqSafety, Mark{Showing: Spared, Note: NoteNoHarm}},
		{"a kept mutual exclusion with two believed holders says the first key had expired",
			Results{Verdict: checker.Valid, Plan: pause, Anomalies: []checker.Anomaly{overlap(checker.HarmlessFenced)}},
			ReqMutualExclusion, Mark{Showing: Kept, Note: NoteExpired}},
		{"a run with no fault whose lock refused a contender while another's key stood keeps mutual exclusion (lesson 43's per-holder token)",
			Results{Verdict: checker.Valid, Claims: []claim.Claim{{Kind: claim.Refusal, Client: "w2", By: "w1", Key: "invoice-1"}}},
			ReqMutualExclusion, Mark{Showing: Kept}},
		{"a refusal by a client's own orphaned key tests nothing",
			Results{Verdict: checker.Valid, Claims: []claim.Claim{{Kind: claim.Refusal, Client: "w2", By: "w2", Own: true, Key: "invoice-1"}}},
			ReqMutualExclusion, Mark{}},
		{"a broken mutual exclusion says the lock itself granted twice",
			Results{Verdict: checker.Invalid, Plan: pause, Anomalies: []checker.Anomaly{{Kind: checker.KindMutexOverlap, Stale: "w1", Current: "w2",
				Cause: &checker.Cause{Kind: checker.CauseReentered}}}},
			ReqMutualExclusion, Mark{Showing: Broken, Note: NoteGranted}},
		{"a kept mutual exclusion with no overlap needs no words",
			Results{Verdict: checker.Valid, Plan: pause},
			ReqMutualExclusion, Mark{Showing: Kept}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MarkOf(tt.r, tt.req)
			if got.Showing != tt.want.Showing || got.Note != tt.want.Note {
				t.Errorf("%s: showing %d note %q, want %d %q", tt.req, got.Showing, got.Note, tt.want.Showing, tt.want.Note)
			}
		})
	}
}

// TestARunThatTakesNoLockNeitherKeepsNorBreaksWhatALockPromises: lesson
// 42's no-lock control was marked deadlock-free and liveness "✔ kept",
// though it takes no lock; the requirements page already said "does not
// apply" for atomic-lua (teacher 3, F13). Its mutual exclusion and safety
// stay its findings' marks.
func TestARunThatTakesNoLockNeitherKeepsNorBreaksWhatALockPromises(t *testing.T) {
	pause := []history.FaultStep{{ID: 1, Kind: "pause", Effect: history.EffectFreezeClient, Clients: []string{"w1"}}}
	live := map[string]checker.Verdict{checker.CheckerLiveness: checker.Valid}
	noLock := Results{Verdict: checker.Invalid, Algorithm: "no-lock", Traits: []string{history.TraitNoLock}, Plan: pause, Checkers: live,
		Claims: []claim.Claim{{Kind: claim.Fault, Start: 5, End: 5, Step: 1, Fault: &pause[0]},
			{Kind: claim.KeyLife, Client: "w1", Key: "invoice-1", Start: 0, End: 10}},
		Anomalies: []checker.Anomaly{{Kind: checker.KindMutexOverlap, Stale: "w1", Current: "w2", Cause: &checker.Cause{Kind: account.EndTaken}},
			{Kind: checker.KindDoubleEffect}}}
	lockFree := Results{Verdict: checker.Valid, Algorithm: "atomic-lua", Traits: []string{history.TraitLockFree}, Plan: pause, Checkers: live}
	tests := []struct {
		name string
		r    Results
		lang Lang
		want map[string]string // requirement → the strip's words
	}{
		{"the no-lock control: deadlock-freedom and liveness do not apply", noLock, English, map[string]string{
			ReqDeadlockFree: "– does not apply: no-lock takes no lock", ReqLiveness: "– does not apply: no-lock takes no lock",
			ReqSafety: "✘ broken"}},
		{"the same in Vietnamese", noLock, Vietnamese, map[string]string{
			ReqDeadlockFree: "– không áp dụng: no-lock không dùng lock", ReqLiveness: "– không áp dụng: no-lock không dùng lock"}},
		{"a lock-free run: no requirement applies", lockFree, English, map[string]string{
			ReqMutualExclusion: "– does not apply: atomic-lua takes no lock", ReqDeadlockFree: "– does not apply: atomic-lua takes no lock",
			ReqSafety: "– does not apply: atomic-lua takes no lock"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for req, want := range tt.want {
				if got, _ := stripCell(tt.lang, tt.r, req); got != want {
					t.Errorf("%s: %q, want %q", req, got, want)
				}
			}
		})
	}
	t.Run("the no-lock control's mutual exclusion is still broken: every acquire succeeds", func(t *testing.T) {
		if m := MarkOf(noLock, ReqMutualExclusion); m.Showing != Broken || m.Note != NoteNoLock {
			t.Errorf("mutual exclusion %+v, want broken, no lock", m)
		}
	})
}

// TestACappedWatchdogsKeptDeadlockFreedomSaysWhenItGaveTheLeaseUp: lesson
// 44's watchdog-bounded-hung-worker kept deadlock-freedom because its
// watchdog stopped renewing and gave the lease up, and its cell read a
// bare "✔ kept" (issue 34). The cell tells the run's facts: the renewals
// that moved the key (the last one's end), when the holder was told its
// lease was lost (its hold's end) and when its key left the node (its
// key life). Times are wall ns at time scale 30, as in the run.
func TestACappedWatchdogsKeptDeadlockFreedomSaysWhenItGaveTheLeaseUp(t *testing.T) {
	live := map[string]checker.Verdict{checker.CheckerLiveness: checker.Valid}
	ns := func(sec float64) int64 { return int64(sec * 1e9 / 30) } // scenario seconds, in wall ns
	hold := claim.Claim{Kind: claim.Hold, Client: "w1", Key: "leader", Token: "t1", Believed: true, Start: 0, End: ns(40.2), TTL: ns(30), How: account.HoldLost}
	renewal := func(at float64, token string) claim.Claim {
		return claim.Claim{Kind: claim.Extend, What: claim.Moved, Client: "w1", By: "w1", Key: "leader", Node: "n1", Token: token,
			Start: ns(at - 0.1), End: ns(at)}
	}
	life := func(how string) claim.Claim {
		return claim.Claim{Kind: claim.KeyLife, Client: "w1", By: "w1", Key: "leader", Node: "n1", Token: "t1", Start: 0, End: ns(40.3), How: how}
	}
	run := func(claims ...claim.Claim) Results {
		return Results{Verdict: checker.Valid, TimeScale: 30, Checkers: live, Claims: append([]claim.Claim{hold}, claims...)}
	}
	capped := run(renewal(10.1, "t1"), renewal(20.1, "t1"), renewal(30.1, "t1"), renewal(35, "another"), life(account.EndReleased))
	tests := []struct {
		name string
		r    Results
		lang Lang
		want string
	}{
		{"three renewals, then the watchdog's own release", capped, English,
			"✔ kept: the lock gave w1's lease on leader up before w1 left its critical section: its renewer renewed it 3 times, the last at t=30.1s; at t=40.2s w1 was told its lease was lost, and its key left n1 at t=40.3s, deleted by its own release"},
		{"the same in Vietnamese", capped, Vietnamese,
			"✔ được giữ: lock đã từ bỏ lease của w1 trên leader trước khi w1 rời critical section: bộ gia hạn của nó đã gia hạn 3 lần, lần cuối lúc t=30,1s; lúc t=40,2s w1 được báo lease của nó đã mất, và key của nó rời n1 lúc t=40,3s, bị chính lần nhả lock của nó xoá"},
		{"one renewal, then the key left to expire", run(renewal(10.1, "t1"), life(account.EndExpired)), English,
			"✔ kept: the lock gave w1's lease on leader up before w1 left its critical section: its renewer renewed it once, at t=10.1s; at t=40.2s w1 was told its lease was lost, and its key expired on n1 at t=40.3s"},
		{"no renewal and no key life on record", run(), English,
			"✔ kept: the lock gave w1's lease on leader up before w1 left its critical section: its renewer never renewed it; at t=40.2s w1 was told its lease was lost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := stripCell(tt.lang, tt.r, ReqDeadlockFree); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
