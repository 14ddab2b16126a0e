// Package chart draws a run: the drawing model (Drawing: lanes, shapes,
// labels and legend over scenario seconds), its SVG renderer (RenderSVG,
// with timeline.js for zoom and pan), its PNG renderer (WriteTimeline),
// the styles both share (one per shape kind, colour-blind safe) and the
// gonum/plot helpers of the perf charts (latency.png, rate.png).
//
// chart decides nothing about a run: package report builds a Drawing
// from its model of the run (the account, the checkers' anomalies, the
// history) and hands it here. The few words a renderer writes itself
// (the x axis, the zoom buttons, a window's note) come from the report's
// tables through Drawing.Say. chart imports history (a fault step's
// effect, for its colour) and gonum/plot.
package chart
