// Package report turns one checked run into the files a person reads
// (design §9): results.json, index.html, timeline.png, latency.png,
// history.html and scenario.yaml in a report directory.
//
// Time. A history records true time: wall-clock nanoseconds since the run
// started. Everything a reader sees — the narrative, the anomaly windows, the
// x axis of the PNGs — is scenario time in seconds, obtained with
// [history.Header.ScenarioSeconds] (scenario s = wall s × TimeScale). Lease
// TTLs in a history ([history.Value.TTL]) are wall ns too, as Redis was
// given them.
//
// Key expiry is not an operation in the history: the run's account
// (internal/account) derives each key's life and end; [Narrative] and the
// timeline render it.
//
// Language. Every user-visible string lives in one table per language
// (see messages.go), beside each workload's own words (workload.Kind.Words,
// merged into it); Input.Lang selects it, falling back to English.
//
// report imports checker, account, workload, scenario and history (design
// §11), plus porcupine for history.html and gonum/plot for the PNGs.
package report
