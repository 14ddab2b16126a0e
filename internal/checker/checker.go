// Package checker judges a history: porcupine linearizability of the
// protected resource plus lock-specific checkers (mutex, fencing, effects).
// A found violation is a Result, never a Go error; a checker that panics or
// runs out of time gives Unknown, never Valid (Jepsen's check-safe).
//
// checker imports only history (and porcupine), so `locksim check` runs
// without Redis.
package checker

// Verdict of a checker or a whole run.
type Verdict string

// Verdicts, merged invalid > unknown > valid.
const (
	Valid   Verdict = "valid"
	Invalid Verdict = "invalid"
	Unknown Verdict = "unknown"
)

// Merge returns the strongest verdict: Invalid > Unknown > Valid. Merge of
// nothing is Valid.
func Merge(vs ...Verdict) Verdict {
	out := Valid
	for _, v := range vs {
		switch {
		case v == Invalid:
			return Invalid
		case v == Unknown || (v != Valid && v != Invalid):
			out = Unknown
		}
	}
	return out
}

// Anomaly kinds (design §8).
const (
	KindMutexOverlap       = "mutex-overlap"
	KindDoubleEffect       = "double-effect"
	KindStaleWriteAccepted = "stale-write-accepted"
	KindForeignUnlock      = "foreign-unlock"
	KindLostUpdate         = "lost-update"
	KindOversell           = "oversell"
	KindOverAdmission      = "over-admission"
	KindSplitBrain         = "split-brain"
	KindDuplicateRun       = "duplicate-run"
	KindTokenRegression    = "token-regression"
	KindUnavailable        = "unavailable"
	KindStuckLock          = "stuck-lock"
	KindNotLinearizable    = "not-linearizable"
)

// Anomaly is one finding. Start and End are true time (wall ns since the
// run's start); StartS and EndS are the same instants in scenario seconds.
type Anomaly struct {
	Kind    string   `json:"kind"`
	Clients []string `json:"clients"`
	Key     string   `json:"key"`
	Start   int64    `json:"start_ns"`
	End     int64    `json:"end_ns"`
	StartS  float64  `json:"start_s"`
	EndS    float64  `json:"end_s"`
	// Explain is one plain sentence, in scenario time.
	Explain string `json:"explain"`
	// Ops are the history indices the anomaly is about.
	Ops []int `json:"ops,omitempty"`
	// Informational anomalies are reported but do not make the verdict
	// invalid (e.g. a believed-hold overlap whose stale holder the fenced
	// resource refused every time).
	Informational bool `json:"informational,omitempty"`
}

// Result is one checker's judgement.
type Result struct {
	Checker   string    `json:"checker"`
	Verdict   Verdict   `json:"verdict"`
	Summary   string    `json:"summary"`
	Anomalies []Anomaly `json:"anomalies,omitempty"`
}
