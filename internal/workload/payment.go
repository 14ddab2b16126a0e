package workload

// Payment charges invoices through a payment gateway that is not
// idempotent unless told so (lock-theory S01, S19): a second charge of one
// invoice is a double charge.
const Payment = "payment"

// The payment workload's actions.
const (
	ActionReadStatus = "read-status" // read, Result = ResultPaid | ResultUnpaid
	ActionCharge     = "charge"      // take the money
	ActionMarkPaid   = "mark-paid"   // set the invoice paid
	// ActionComplete is a job queue's completion (Bull's moveToFinished):
	// it sets the job record finished (the invoice paid) only while the
	// lock key still holds the writer's owner token (workload completion:
	// token); refused with RefusalLockMismatch otherwise.
	ActionComplete = "complete"
	// ActionRecordFailure writes the failure metadata into the job record
	// (Bull's Job._saveAttempt: failedReason), after a refused completion:
	// unchecked, or checked by token like the completion (workload
	// failure_record).
	ActionRecordFailure = "record-failure"
)

// Results of a read of an invoice's status (Value.Result).
const (
	ResultPaid   = "paid"
	ResultUnpaid = "unpaid"
)

func init() {
	Register(Kind{
		Name:  Payment,
		About: "charge an invoice through a non-idempotent gateway; a second charge is a double charge (idempotency: true keys charges)",
		Order: 10,
		Actions: []Action{{Name: ActionReadStatus}, {Name: ActionCharge, Effect: true}, {Name: ActionMarkPaid},
			{Name: ActionComplete}, {Name: ActionRecordFailure}},
	})
}
