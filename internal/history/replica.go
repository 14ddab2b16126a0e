package history

import (
	"strconv"
	"strings"
)

// ReplicaName is the name of master's j-th replica (1-based): n1's replicas
// are n1r1, n1r2, …. The cluster names its replicas so, and readers of a
// history (coverage) tell a replica and its master by it.
func ReplicaName(master string, j int) string { return master + "r" + strconv.Itoa(j) }

// IsReplicaOf reports whether n is a name ReplicaName gives a replica of
// master.
func IsReplicaOf(n, master string) bool {
	rest, ok := strings.CutPrefix(n, master+"r")
	if !ok || rest == "" || rest[0] < '1' || rest[0] > '9' {
		return false
	}
	_, err := strconv.Atoi(rest)
	return err == nil
}
