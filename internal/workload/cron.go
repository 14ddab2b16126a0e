package workload

// Cron is schedulers with clocks of their own, each running a job at
// every fire time (lock-theory S22): a second run of one fire time is a
// duplicate run.
const Cron = "cron"

// ActionRunJob is one run of the job: Key "job@<k>", one run per fire time.
const ActionRunJob = "run-job"

func init() {
	Register(Kind{
		Name:    Cron,
		About:   "schedulers with their own clocks run a job per fire time; a second run of one fire time is a duplicate run",
		Order:   40,
		Actions: []Action{{Name: ActionRunJob, Effect: true}},
	})
}
