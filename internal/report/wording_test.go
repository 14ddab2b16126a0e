package report

import (
	"strings"
	"testing"
)

func TestTheAdviceAndTheLegendSpeakTheRunsWorkload(t *testing.T) {
	stories := map[string]Input{}
	for _, c := range shipped() {
		stories[c.name] = c.in
	}
	tests := []struct {
		name, story      string
		says, never      []string
		legend, noLegend string
	}{
		{"a counter run gets no invoice or idempotency advice, and fencing names the counter", "counter-lost-update",
			[]string{"the resource (here the counter)"}, []string{"invoice", "idempotency", "payment gateway"}, "the protected counter", "invoice"},
		{"a stock run gets the Lua decrement, no invoice advice", "inventory-oversell",
			[]string{"decrement it in one atomic Lua script"}, []string{"idempotency", "invoice"}, "protected stock: a sale,", "charge"},
		{"a semaphore run's legend speaks of permits", "semaphore-over-admission",
			nil, []string{"invoice"}, "is a permit held", "is a lock held"},
		{"a leader run's legend speaks of the leader's writes", "leader-split-brain",
			nil, []string{"invoice", "idempotency"}, "leader term", "invoice"},
		{"a payment run keeps its idempotency advice", "gc-pause",
			[]string{"Idempotency key"}, nil, "protected invoice: a charge,", "permit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, ok := stories[tt.story]
			if !ok {
				t.Fatalf("no story %s", tt.story)
			}
			var advice string
			if r := buildRemedy(in, English); r != nil {
				advice = strings.Join(r.Texts(), "\n")
			}
			for _, w := range tt.says {
				if !strings.Contains(advice, w) {
					t.Errorf("advice lacks %q:\n%s", w, advice)
				}
			}
			for _, w := range tt.never {
				if strings.Contains(strings.ToLower(advice), strings.ToLower(w)) {
					t.Errorf("advice says %q:\n%s", w, advice)
				}
			}
			legend := timelineHow(English, in.History.Header.Workload)
			if !strings.Contains(legend, tt.legend) || strings.Contains(legend, tt.noLegend) {
				t.Errorf("legend %q: want %q, not %q", legend, tt.legend, tt.noLegend)
			}
		})
	}
}
