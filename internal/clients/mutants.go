package clients

// The mutant algorithms of the field reports (issue 19, bug-reports-2.md):
// each reproduces one published mistake through the public lock API, and
// is named after the behaviour, not the library. Registered after
// locksim's own algorithms, in this order.
func init() {
	for _, a := range []Algorithm{
		watchdogUnobservedAlgorithm,
		pidExpireHeartbeatAlgorithm, checkedHeartbeatAlgorithm,
		reentrantSharedTokenAlgorithm,
		setXXUnlockAlgorithm, checkedMinHoldUnlockAlgorithm,
		twoLevelLockAlgorithm, twoLevelLockFinallyAlgorithm,
		perHostKeyAlgorithm, fairQueueAlgorithm,
	} {
		Register(a)
	}
}
