package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/scenario"
)

func TestListDescribesEveryKind(t *testing.T) {
	var out bytes.Buffer
	if code := cmdList(nil, &out, &bytes.Buffer{}); code != exitValid {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out.String(), "\n")
	described := func(name string) bool {
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 1 && f[0] == name {
				return true
			}
		}
		return false
	}
	groups := map[string][]string{"algorithm": clients.Names(), "workload": scenario.Workloads, "fault": scenario.FaultKinds}
	for _, c := range checker.Checkers() {
		groups["checker"] = append(groups["checker"], c.Name)
	}
	for what, names := range groups {
		for _, n := range names {
			t.Run("the "+what+" "+n+" has a one-line description", func(t *testing.T) {
				if !described(n) {
					t.Errorf("%s %q is listed without a description:\n%s", what, n, out.String())
				}
			})
		}
	}
}
