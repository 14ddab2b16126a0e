package clients_test

import (
	"testing"

	"github.com/locksim/locksim/internal/clients/clientstest"
)

// TestConformance runs the conformance suite on every built-in algorithm
// and every adapter, on real Redis through locksim's proxies.
func TestConformance(t *testing.T) {
	tests := []struct {
		name      string
		algorithm string
		expect    clientstest.Expect
	}{
		{"naive (known to release another client's lock)", "naive", clientstest.Expect{UnsafeRelease: true}},
		{"safe", "safe", clientstest.Expect{}},
		{"fenced", "fenced", clientstest.Expect{Fencing: true}},
		{"redlock on five nodes", "redlock", clientstest.Expect{Nodes: 5}},
		{"redlock-nocheck on five nodes", "redlock-nocheck", clientstest.Expect{Nodes: 5}},
		{"the redsync adapter on one node", "redsync", clientstest.Expect{}},
		{"the redsync adapter on five nodes", "redsync", clientstest.Expect{Nodes: 5}},
		{"the redislock adapter", "redislock", clientstest.Expect{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clientstest.Run(t, clientstest.Algorithm(tt.algorithm), tt.expect)
		})
	}
}
