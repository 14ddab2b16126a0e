package workload

// Leader is leader election by lease (lock-theory S20): the holder leads
// and writes with its epoch; two leaders' writes accepted is split brain.
const Leader = "leader"

// ActionLead is one unit of a leader's work; Fence = its epoch.
const ActionLead = "lead"

func init() {
	Register(Kind{
		Name:    Leader,
		About:   "the lease holder leads and writes with its epoch; two leaders' writes accepted is split brain",
		Order:   50,
		Actions: []Action{{Name: ActionLead, Effect: true}},
	})
}
