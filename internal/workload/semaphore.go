package workload

// Semaphore is N permits in a sorted set (lock-theory S21): more holders
// than permits at once is over-admission.
const Semaphore = "semaphore"

// The semaphore workload's actions.
const (
	ActionEnter = "enter" // a client takes a permit
	ActionExit  = "exit"  // a client gives its permit back
)

func init() {
	Register(Kind{
		Name:    Semaphore,
		About:   "N permits in a sorted set; more holders than permits at once is over-admission",
		Order:   60,
		Actions: []Action{{Name: ActionEnter, Effect: true}, {Name: ActionExit}},
	})
}
