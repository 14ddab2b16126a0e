package checker

import (
	"context"
	"fmt"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// withFaultsAndProbes returns g's history with nemesis faults spread over
// it (pauses of a client, partitions of a client's link, and link faults on
// a client that never ran, which cover nothing and so make coverage look
// at every span) and a final probe per key, every other one failed.
func withFaultsAndProbes(g genResult, keys, faults int) history.History {
	h := g.h
	ops := append([]history.Op(nil), h.Ops...)
	eoh := h.End()
	add := func(op history.Op) {
		op.Index = len(ops)
		ops = append(ops, op)
	}
	for i := range faults {
		t := eoh / int64(faults+1) * int64(i+1)
		var st history.FaultStep
		switch i % 3 {
		case 0:
			st = stepOf("pause", []string{fmt.Sprintf("w%d", i%16+1)})
		case 1:
			st = stepOf("partition", []string{fmt.Sprintf("w%d→n1", i%16+1)})
		default:
			st = stepOf("partition", []string{"w99→n1"})
		}
		st.ID = i + 1
		v := history.Value{Fault: &st}
		add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
			Value: v, Invoke: t, Complete: t + 50_000_000, Type: history.OK})
	}
	for k := range keys {
		t := eoh + 1_000_000_000 + int64(k)*1000
		typ, comp := history.OK, t+1_000_000
		if k%2 == 1 {
			typ = history.Fail
		}
		add(history.Op{Process: 1000 + k, Client: "probe", F: history.Probe, Key: fmt.Sprintf("invoice-%d", k+1),
			Invoke: t, Complete: comp, Type: typ})
	}
	h.Ops = ops
	return h
}

// BenchmarkLivenessCoverage1M runs the liveness and coverage checkers on
// the 1M-op history of BenchmarkCheck1M with faults and final probes added.
func BenchmarkLivenessCoverage1M(b *testing.B) {
	g := genHistory(genConfig{seed: 1, clients: 16, keys: 1000, ops: 1_000_000, fenced: true})
	h := withFaultsAndProbes(g, 1000, 300)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		l, c := Liveness(ctx, h), Coverage(ctx, h)
		if l.Verdict != Valid || c.Verdict != Valid {
			b.Fatalf("liveness %s %s; coverage %s %s", l.Verdict, l.Summary, c.Verdict, c.Summary)
		}
	}
	b.ReportMetric(float64(len(h.Ops)), "ops")
}
