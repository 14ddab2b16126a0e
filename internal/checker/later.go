package checker

import "github.com/locksim/locksim/internal/account"

// laterWrites gives every informational anomaly with a stale holder the
// write of that holder to its key the resource accepted after the anomaly
// ended (Anomaly.Later, account.LaterWrite; -1 none): a harm prevented
// while both held the lock is not one prevented for the run (reader 14,
// stalled-job-failed-reason). Run after every pass that makes an anomaly
// informational.
func laterWrites(rep *Report, a *account.Account) {
	for i := range rep.Results {
		for j := range rep.Results[i].Anomalies {
			an := &rep.Results[i].Anomalies[j]
			if an.Informational && an.Stale != "" {
				w := a.LaterWrite(an.Stale, an.Key, an.End)
				an.Later = &w
			}
		}
	}
}
