package workload

// Counter is a read-modify-write of a counter under the lock (Jepsen's
// lock-set idea): an increment that vanishes is a lost update.
const Counter = "counter"

// The counter workload's actions.
const (
	ActionReadCounter = "read-counter" // read, Num = value read
	ActionSetCounter  = "set-counter"  // write, Num = value written
)

func init() {
	Register(Kind{
		Name:    Counter,
		About:   "read-modify-write of a counter under the lock; an increment that vanishes is a lost update",
		Order:   20,
		Actions: []Action{{Name: ActionReadCounter}, {Name: ActionSetCounter, Effect: true, Num: true}},
	})
}
