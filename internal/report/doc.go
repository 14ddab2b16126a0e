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
// (messages_en.go, messages_vi.go, and the pages', lessons' and live
// view's tables beside them), with each workload's own words
// (workload.Kind.Words, merged into them); Input.Lang selects one,
// falling back to English.
//
// Parts. report reads the run once into its model (derive.go: the
// account, the checkers' anomalies, the history) and renders it: the
// story (narrative.go, story.go, causes.go, remedy.go: facts to words),
// the drawing built from the model (drawing.go, drawing_ops.go) that
// package chart renders as SVG and PNG with the perf charts
// (perfplot.go, latency.go, rate.go), and the pages (html.go, suite.go,
// lessons.go, requirements_page.go, historypage.go), which open with
// package page's head. The story keeps no state of its own: what a
// sentence needs is a fact of the account, a checker's anomaly or the
// workload's teller.
//
// report imports checker, account, workload, scenario, history and its
// own chart and page (design §11), plus porcupine for history.html and
// gonum/plot for the PNGs.
package report
