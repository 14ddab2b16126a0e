package history

import "testing"

func TestReplicaNames(t *testing.T) {
	tests := []struct {
		name      string
		n, master string
		want      bool
	}{
		{"n1r1 is a replica of n1", ReplicaName("n1", 1), "n1", true},
		{"n1r12 is a replica of n1", ReplicaName("n1", 12), "n1", true},
		{"n1 is not its own replica", "n1", "n1", false},
		{"n11r1 is not a replica of n1", "n11r1", "n1", false},
		{"n1rx is not a replica name", "n1rx", "n1", false},
		{"a client is not a replica", "w1", "n1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsReplicaOf(tt.n, tt.master); got != tt.want {
				t.Errorf("IsReplicaOf(%q, %q) = %v, want %v", tt.n, tt.master, got, tt.want)
			}
		})
	}
}
