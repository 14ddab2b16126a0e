package claim

// Claim kinds behind the timeline's marks that no other kind states
// (issue 27: every mark on index.html carries the id of the claim it
// draws). Made by the account (internal/account, claims_marks.go); checked
// by package verify (marks.go) against the raw history.
const (
	// Outcome: Client's operation What (a history Func: acquire, release,
	// extend, write, probe) on Key was invoked at Start and answered How
	// (its outcome: ok, fail, info) at End — the end of the history when
	// it never was. Token is a write's action. Records: the operation.
	// What an arrow, a refused attempt or a write on the timeline rests
	// on when no other claim states more.
	Outcome Kind = "outcome"
	// Command: Client's command What (its name, lower case) to Node, sent
	// outside any operation of Client's (a connection's handshake, a
	// library's own timer): How "ran" — Node ran it at Start (= End); How
	// "unanswered" — sent at Start, no answer reached Client by End; How
	// "late" — sent at Start, answered only at End. By and Token (an
	// EXISTS that ran): the key it asked about stood on Node at Start,
	// with the value Token that By's command (Records[1]) had set.
	// Records: the node event (or the stalled send).
	Command Kind = "command"
	// ClockOffset: the clock of Node (or of Client) ran Offset ns off true
	// time from Start, when the jump that made it so (What the step's
	// kind, Step its ID) was applied, to End, the next jump of that clock
	// or the end of the history: Offset is the sum of every jump of it
	// applied at or before Start. Records: the jumps, the latest first.
	ClockOffset Kind = "clock-offset"
	// FenceSeen: the highest fencing token the resource had been shown on
	// Key was Score from Start, when a write on Key showed it, to End (the
	// next write that showed a higher one, or the end of the history); an
	// accepted write shows its own fence (its Token recorded, else the
	// token of the ok acquire of Key its client last made before it), a
	// refused one the resource's (its seen fence). Records: the write.
	FenceSeen Kind = "fence-seen"
)

// MarkKinds lists the kinds above.
func MarkKinds() []Kind { return []Kind{Outcome, Command, ClockOffset, FenceSeen} }

// How a Command claim ended.
const (
	Ran        = "ran"
	Unanswered = "unanswered"
	Late       = "late"
)
