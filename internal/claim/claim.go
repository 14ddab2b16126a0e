// Package claim holds the statements a report makes about a run as data
// (issue 27): each Claim says who did what, on which key and node, when it
// started and ended, how it ended and why, and names the history records
// it rests on. Claims are made where the facts are derived — the account
// (internal/account), the checkers (internal/checker) — never by the
// report, which renders them; they are stored in results.json as `claims`.
//
// Package verify checks every kind's truth conditions against the raw
// history by a second, independent reading (design §8, "facts once,
// checked twice").
//
// Every instant and duration here is wall ns as the history has it
// (instants since the run's monotonic start), never scenario time.
package claim

import (
	"fmt"
	"slices"

	"github.com/locksim/locksim/internal/history"
)

// Kind names what a claim is about. Each kind's fields and truth
// conditions are documented on its constant; package verify checks them.
type Kind string

// Claim kinds, each behind one or more of the false-statement classes of
// issue 27 (the numbers in brackets).
const (
	// Hold: Client believed it held Key from Start (its ok acquire's
	// completion, or a possible hold's first accepted write) to End; How is
	// why the belief ended (account.Hold* words: released, lost, done,
	// stopped, reacquired, crashed, last). Token, Fence and TTL are the
	// owner token, fencing token and TTL the acquire recorded. Wait is the
	// replicas the acquire's WAIT asked for (its numreplicas: Client's
	// WAIT command between the acquire's invoke and completion), 0 when
	// Client sent no WAIT in it. Records: the acquire, then the operation
	// that ended it, if any. [16]
	Hold Kind = "hold"
	// Extend: Client's extend (or renewal) operation [Start, End] on Key.
	// What "moved": a command of Client in that window moved the deadline
	// of Key's life on Node, whose owner is By (By ≠ Client: another's key
	// a plain PEXPIRE renewed). What "missed": every deadline change Client
	// sent in the window found no key (PEXPIRE's reply 0: no extension).
	// At (Moved): when Node ran the first command of Client's in the
	// window that moved the key (its record's stamp, not the client's
	// call). Records: the operation, then the node commands. [1]
	//
	// Own (Missed): the extend reached Node only after Client's own
	// release had removed its key there — At is when Node ran the
	// extend's first command (Records[1]), and Records[2] is the release's
	// command that removed Client's key on Node between Start and At,
	// inside a release of Client; no key of Client's stood there at At.
	//
	// CutBy (an Extend or an Op claim of an extend): the extend's wait for
	// its reply was cancelled by Client's own release (or end of work) of
	// Key, the record CutBy, invoked inside [Start, End]; the extend ended
	// with an unknown outcome (info) for no timeout or lost connection
	// (history.FailOther). Not a renewal the lock refused: its node may
	// have run it (reader 14). Nil: no release of Client's cut it so.
	Extend Kind = "extend"
	// KeyLife: Key on Node held the value Token (an owner token), set by
	// Client at Start; it left the node at End, How (account End kinds:
	// released, deleted, expired, clock, crashed, janitor, restored,
	// flushed, overwritten, failover, held), By the client whose command
	// removed it, Step the fault step that ended it. What "inferred": no
	// node recorded it (the times are the client's). What Kept (How
	// expired): the deadline that passed was set at At, TTL ahead, by a
	// command of Client's release (a Release claim Kept), not by the
	// command that created the key. What Thawed (How expired): the
	// deadline At passed while its node was stopped (a freeze-node step);
	// the key left at End, when the node resumed. PowerLoss: a crash
	// that dropped what no fsync reached ended it. How failover, Nodes
	// set: Nodes[0] is a replica of Node's group that had acknowledged
	// the key (the WAIT of the acquire that set it, while every other
	// replica but the promoted one was cut off from the master), still
	// had it when the master failed at End, and died at At (a crash-node
	// step, the last record), before the promotion: the lock lost the key
	// only then. Records: the command
	// (or acquire) that created it, then the one that ended it. [3 6 9 12
	// 14 15 16]
	KeyLife Kind = "key-life"
	// Permit: the sorted-set member Token of Key on Node (a semaphore
	// permit), added by Client at Start with score Score, left at End,
	// How (purged: removed by By's ZREMRANGEBYSCORE, whose bound covered
	// Score). Records: the ZADD, then the removing command. [2 3]
	Permit Kind = "permit"
	// Refusal: Client's acquire [Start, End] of Key was refused while Node
	// held Key with a value By had set. Own: By is Client and the key is an
	// orphan of Client's — the earlier acquire whose command set it never
	// got an ok reply (the third record). How "restarted": By is Client,
	// but an earlier process of it, killed by a restart-client step after
	// the key was set (the third record), had set it: the new process met
	// its predecessor's lease. Records: the acquire, the SET of the key it
	// met, then that acquire or that restart. [4]
	//
	// NodeKey is the key's name on the nodes when the lock stores it under
	// a name of its own (a library's "mutex:invoice-1" for Key
	// "invoice-1"): the name an acquire record of Key gave as its lock key,
	// or that Client's SET in the acquire named. Holders (a lock on several
	// nodes, Redlock): every node whose key refused it — stood through the
	// acquire, or (Holder.At) was met by its SET NX there — with whose
	// value each held and the command that set it; the first is Node, By
	// and Records[1] (and, of a Refusal Met, At), the rest in the run's
	// node order. Set only when more than one node refused it so.
	//
	// Silent (a lock on several nodes): the other nodes that gave the
	// acquire's SET no answer (a partition, a crash, a timeout): Client
	// sent each a SET of the key inside the acquire that got none (the
	// Silent's Cmd, a history.Stalled record with no answer), had no late
	// answer to one either, and the node ran no more of those SETs than
	// went unanswered (where its commands were recorded). What it answered
	// after (the failed acquire's unlock) does not count. Every such node
	// not named by Node or Holders, in the run's node order.
	//
	// What Met: the key did not stand through the acquire, but its SET NX
	// on Node found it there at At (a SET sent late, a node stopped and
	// woken): Node held Key then with By's value.
	//
	// What Granted: no key refused it. The acquire's own SETs created
	// Client's key on Nodes (a quorum of the run's nodes, or any when its
	// record names a reason), yet the lock refused: How is why, the
	// acquire's record's refusal (history.Refusal*: not-replicated), or
	// Validity when the acquire took longer than its key's TTL less the
	// clock drift allowance (Elapsed = End − Start ≥ TTL − Drift): the
	// lease had run out before the grant came back. Records: the acquire,
	// then the SETs. A line about it is told at End. [reader 2]
	//
	// What Local: no key refused it, and it never reached Redis: every
	// node was recorded throughout the acquire, and no node ran a command
	// of Client's (nor one whose sender the observer could not name) in
	// its window, nor did Client send one that went unanswered (a Stalled
	// record): the lock refused it inside Client's own process (a
	// two-level lock's local level, BR-35). Records: the acquire. By, Node
	// empty: no key stood in its way, whatever key stood on the nodes
	// then. [reader 15: "refused: w1's key stood on n1" of an acquire
	// refused by its process's local lock]
	Refusal Kind = "refusal"
	// Ungranted: Client's acquire [Start, End] of Key on several nodes
	// (Redlock), answered info (the client recorded its outcome as
	// unknown), took no lock, as the nodes' record shows: its SETs created
	// Client's key, with the owner token Token, only on Nodes (Records[1:]
	// the SETs, one per node), fewer than a majority of the run's nodes.
	// Every other node of the run is named once: in Holders (its SET NX
	// ran there and met By's key, as a Refusal's holders), Silent (it gave
	// the SET no answer, as a Refusal's silent nodes, and, its commands
	// recorded through the acquire, never ran a SET of Token at all) or
	// Down (a crash-node step had it dead, by the step's recorded death
	// and restart, through [Start, End]). Removed: a command of Client
	// removed its key from each of Nodes by End (the failed acquire's
	// unlock). At is End: its line is told when the acquire ended.
	// [a sixth reader, A9]
	Ungranted Kind = "ungranted"
	// QueueHead: Client's acquire (or final probe) [Start, End] of Key was
	// refused while no node held Key, and the waiter list What on Node (a
	// fair lock's queue, which the lock library keeps beside its key) was
	// headed by By's entry Token, pushed by By's command at At: only the
	// head may take a free lock. Records: the acquire, then that push.
	// [a fresh reader's F3, F4]
	QueueHead Kind = "queue-head"
	// Fault: the fault step Step (What: its kind, Effect) was active from
	// Start to End on Clients/Nodes, with the direction, stream, power
	// loss, delta, cause and promotions the history records. For a
	// failover, At is when Sentinel announced the promotion (the first
	// switch-master record of it at or after Start; 0 when none was
	// heard) — not Promotion.TookNS, when the harness first found the
	// replica a master. Records: the nemesis operation, then that
	// announcement. [2 5 7 9 10 11 16]
	//
	// A freeze of one client planned inside its multi-node acquire (point
	// in-acquire), Client set: Client's acquire of Key (Records[1]) was
	// open when the freeze began (Start), and Nodes are the nodes that had
	// run a SET of Client's inside it by then, in the run's node order,
	// each with that SET (Records[2:]); every other node, its commands
	// recorded from the acquire's invoke to Start, had run none. Not set
	// when a node's commands were not recorded then. [a fresh reader of
	// node-redlock-pause-in-flight: not "its nodes had answered"]
	Fault Kind = "fault"
	// Orphan: Client's command set Key on Node at Start (the SET itself,
	// not when the client gave up) and the client never believed it held
	// it (its acquire was not ok: Believed false); the key lasted to End.
	// Records: the SET, then the client's acquire. [6]
	Orphan Kind = "orphan"
	// Release: Client's release [Start, End] removed, at At (when its
	// command ran on Node, not the invoke), Key's life set by By. Records:
	// the release, then the removing command. [12 13]
	//
	// What Kept or Rewrote: the release removed no key; its command at
	// At on Node set when Client's own key (By = Client) would end, TTL
	// from At: Kept, a deadline change of the key (PEXPIRE: a minimum
	// hold); Rewrote, a SET of a new value Token over it with a TTL
	// (ShedLock's SET … PX … XX). Records: the release, then that command.
	Release Kind = "release"
	// Acquire: Client's granted acquire of Key on several nodes took
	// Elapsed = End − Start of TTL; Validity = TTL − Elapsed − Drift
	// (Drift = TTL×0.01 + 2 ms, redis.io distlock) is what was left of the
	// lease when it returned. Records: the acquire. [true but confusing]
	Acquire Kind = "acquire"
	// Recorded: Node's commands were recorded (What "recorded") or not
	// (What "unrecorded") over [Start, End]. Records: the unobserved
	// record, if any. [14]
	Recorded Kind = "recorded"
	// ForeignDelete: By removed Key on Node at At while it held Client's
	// value (By ≠ Client): a foreign unlock. Records: the anomaly's
	// operations. [13]
	ForeignDelete Kind = "foreign-delete"
	// Anomaly: a checker's finding What over [Start, End], true at At,
	// with Violating the accepted writes that are the violation. Client is
	// its first client (a mutex overlap's stale holder). Fenceable (a
	// mutex overlap's) are Client's writes the resource accepted, each
	// invoked after a write of the newer holder By, made in By's hold
	// (after its acquire, the claim's second record), had been accepted:
	// a resource refusing tokens lower than one it has seen would have
	// refused them. [16]
	//
	// Accepted (a mutex overlap's, not informational) are Client's (the
	// stale holder's) writes on Key the resource accepted whose [invoke,
	// completion] meets [Start, End], while By (the newer holder) held it
	// too: every such write, in invoke order; the first is the stale write
	// a headline tells ("the resource accepted w1's stale charge on
	// invoice-1 at t=16.2s", its completion).
	//
	// How Kept (an orphaned lease): no orphan — the key Key on Node of
	// Client (its owner, here, not the first of its sorted clients)
	// expired at End at the deadline a command of Client's own release had
	// set (the lock's minimum hold), and the window starts no earlier than
	// that command.
	//
	// Later (an informational finding with a stale holder; Client is
	// that holder, By the newer one): the history index of the first write
	// of Client to Key the resource accepted, invoked at or after End,
	// before Client's next granted acquire of Key invoked then; -1: there
	// is none. Nil: not told (the finding is no informational one with a
	// stale holder). The harm it prevented was while both held it (reader
	// 14: "so no data was harmed" of a run whose stale holder's later write
	// was its violation).
	//
	// A stuck lock (What stuck-lock): Client's key still held Key when
	// the final probe, Records[1], was refused. Client took the lock at
	// Since, by its acquire Records[0] (its completion when answered ok;
	// for one of unknown outcome, no earlier than its invoke). How (when
	// set, a finding.Quit* word) is how Client stopped using the lock at
	// Start, the window's start: release-lost, release-failed,
	// release-kept — its release Records[2] of Key, invoked at Start,
	// answered info (or never), fail, or ok, the first it invoked after
	// Records[0] with no acquire of Key between, the key of Client's still
	// on a node at the probe (release-lost: one its release did not
	// remove); crashed — a fault killed Client at Start; done, lost — its
	// done or lost op Records[2], at Start. Without How, Start is Since.
	Anomaly Kind = "anomaly"
	// Op: Client's own operation What (a history.Func: acquire, probe,
	// read, write, release, extend, lost, done, stopped) on Key was invoked
	// at Start and answered How (ok, fail, info) at End; an operation never
	// answered has How "open" and ends with the history. Token, Fence and
	// TTL are the owner token, fencing token and TTL it carried, Result and Num what
	// a read returned (a word, a number), Refusal why the resource (or the
	// lock) refused it, SeenFence the token the resource had seen, Action
	// what a write did (the workload's action word), Removed
	// that a release said it removed its key, Renewal that it was a
	// background renewal. It states only what the client's own record
	// says, nothing about the nodes: the story line of an operation no
	// other kind covers (a read, a write accepted or refused, an
	// acquire of unknown outcome, a release that removed nothing, a
	// client's lost, done or stopped) renders it. At is the instant its
	// line is told at: End for an operation answered info (its line tells
	// how it ended: an error, no answer) and for a granted acquire or probe
	// (told when it returned), Start for every other — but a granted probe
	// whose SET the node recorded (its token's key, on its one node) is
	// told when that SET ran, inside it: a probe returns only after its
	// own release.
	// Records: the operation (then, for a probe told at its SET, that SET).
	Op Kind = "op"
	// Absent: the run had no What, a fact a remedy rests on (package
	// report's advice table). What NoPause: no fault step planned or
	// applied paused a client. What NoPurge: no member of the sorted set
	// Key was removed by another command than its owner's own ZREM (no
	// semaphore permit was purged). What NoCrashLoss: no crash of Node
	// lost writes: it was not crashed, or its persistence (Persistence)
	// kept every write through each of its crashes (aof-always; an
	// aof-everysec node killed without a power loss), and no failover of
	// its group promoted a replica that lacked part of its stream (or
	// promoted none). What NoFenceRefusal: the run's lock issues fencing
	// tokens (history.TraitFenced), its resource enforces them, and the
	// resource refused no write for a stale fencing token: the token was
	// never tested. Records: none (an
	// absence rests on the whole history).
	Absent Kind = "absent"
	// Experiment: the run's scenario, changed as What says (package why:
	// "without" plan step Step, "half" that step at half its length,
	// "fixed-by" the scenario's fixed_by file with the same faults,
	// "fixed-by-own" that file with its own faults, which differ from the
	// run's: the run's without Steps and with Changed steps changed, when
	// it is that), run with the same
	// seed, got the verdict How; Report is its report
	// directory. A counterfactual's claim: what a headline's cause and the
	// remedy's fixed_by sentence rest on. Its verdict is another run's,
	// checked against that run's results.json, not this history. Fired
	// (fixed-by-own with Changed steps): how each changed step fired in
	// that run, also checked against its history. Records: none.
	Experiment Kind = "experiment"
	// Check: checker What's judgement of the run, as its row on the page
	// shows it: How is its verdict (valid, invalid, unknown, or
	// notchecked: nothing to check), and Counts the numbers its summary
	// states, each a count of the raw history's records:
	//   - final-probes: the probe operations (a key's final probe);
	//     failed-probes: those of them not answered ok;
	//   - fenced-keys: the keys of the completed ok acquires and
	//     accepted writes that carried a fencing token (> 0);
	//   - ok-acquires: the clients' completed ok acquires;
	//     accepted-writes: their completed ok writes;
	//   - faults: the fault operations the nemesis applied (not failed);
	//   - refused-acquires: the clients' acquires typed fail (what
	//     liveness judges during the run, with no final probe).
	// A checker's findings are Anomaly claims of their own. Records: none.
	Check Kind = "check"
	// Exposure: Client (a holder) acted on the resource after its lease
	// on Key had ended, and no other client tried to take the lock in that
	// window (the coverage checker's untested exposure, issue 32: what an
	// inconclusive run's headline tells). Start is when the lease ended:
	// Client's key — the token of its last granted acquire of Key invoked
	// before the write — stood on fewer nodes than a grant needs (a
	// quorum, N/2+1, of a lock on several nodes; its one node of any
	// other) from then on, and on as many just before; a key of that token
	// set again after Start (a renewal that recreates a missing key, as
	// redis-semaphore's refresh did) does not continue the lease. At is the invoke of Records[0], Client's first
	// write on Key invoked after Start, accepted (ok), doing Action. End
	// is the window's end: the completion of Client's last such write on
	// that lease (the history's end when it had none). Wall ns since the
	// run's start.
	//
	// No other client's acquire of Key answered (ok or fail) was invoked
	// in [Start, End] or granted in it, and no command of another client's
	// on the lock's key reached a node in it — unless Short is set: a try
	// inside the window that could not have been granted there (see
	// Short). LastTry and NextTry, when set, are the other clients' last
	// try before the window and first after it: an acquire of Key (Op,
	// its history index) at At — its invoke, its completion, or when one
	// of its commands reached a node — with no other such acquire invoked
	// between it and the window (but Short's). Records: Records[0], then
	// LastTry.Op, NextTry.Op and Short.Op, each when set, in that order.
	Exposure Kind = "exposure"
)

// Kinds lists every claim kind, in the order above.
func Kinds() []Kind {
	return []Kind{Hold, Extend, KeyLife, Permit, Refusal, Ungranted, QueueHead, Fault, Orphan, Release, Acquire, Recorded, ForeignDelete, Anomaly, Op, Absent, Experiment, Check, Exposure}
}

// Words of a claim's What.
const (
	Moved  = "moved"
	Missed = "missed"
	// Kept and Rewrote: a release that set its key's end instead of
	// removing it (Release; KeyLife: Kept).
	Kept     = "kept"
	Rewrote  = "rewrote"
	Inferred = "inferred"
	// Thawed (KeyLife, How expired): the key's deadline, At, passed while
	// a freeze-node step (SIGSTOP) had its node stopped; it left at End,
	// when the node resumed.
	Thawed = "thawed"
	// Restarted is the How of a Refusal by the key of the client's
	// process a restart killed.
	Restarted = "restarted"
	// Met and Granted are the What of a Refusal (see Refusal); Validity
	// the How of a Granted one whose lease had run out.
	Met        = "met"
	Granted    = "granted"
	Local      = "local"
	Validity   = history.RefusalValidity
	RecordedW  = "recorded"
	Unrecorded = "unrecorded"
	// Open is the How of an Op claim about an operation never answered.
	Open = "open"
	// NoPause, NoPurge, NoCrashLoss and NoFenceRefusal are the What of
	// an Absent claim.
	NoPause        = "pause"
	NoPurge        = "purge"
	NoCrashLoss    = "crash-loss"
	NoFenceRefusal = "fence-refusal"
	// The counts of a Check claim (Claim.Counts).
	FinalProbes     = "final-probes"
	FailedProbes    = "failed-probes"
	FencedKeys      = "fenced-keys"
	OKAcquires      = "ok-acquires"
	AcceptedWrites  = "accepted-writes"
	Faults          = "faults"
	RefusedAcquires = "refused-acquires"
	// NotChecked is the How of a Check claim whose checker had nothing
	// to check.
	NotChecked = "notchecked"
)

// Claim is one statement about a run, as data. Only the fields its Kind
// documents are set.
type Claim struct {
	// ID names the claim within its run ("hold-3"); a rendered element
	// carries it (data-claim).
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	// Client is who the claim is about (the holder, the owner, the one
	// refused); By the other party (who removed it, whose key it met).
	Client string `json:"client,omitempty"`
	By     string `json:"by,omitempty"`
	// What qualifies the kind (Moved, Missed, a fault kind, an anomaly
	// kind).
	What  string `json:"what,omitempty"`
	Key   string `json:"key,omitempty"`
	Node  string `json:"node,omitempty"`
	Token string `json:"token,omitempty"`
	// Start and End bound what is claimed; At is an instant inside it.
	// Wall ns since the run's start.
	Start int64  `json:"start_ns"`
	End   int64  `json:"end_ns"`
	At    int64  `json:"at_ns,omitempty"`
	How   string `json:"how,omitempty"`
	// Step is a fault step's ID (history.FaultStep.ID).
	Step int  `json:"step,omitempty"`
	Own  bool `json:"own,omitempty"`
	// Believed: the client believed it held what the claim is about.
	Believed bool `json:"believed,omitempty"`
	// Fault is the fault step a Fault claim states (effect, targets,
	// direction, stream, power loss, delta, cause).
	Fault *history.FaultStep `json:"fault,omitempty"`
	// Persistence of the Node a crash claim is about.
	Persistence string `json:"persistence,omitempty"`
	// TTL of an Acquire, Hold or Op claim; Elapsed, Drift and Validity of
	// an Acquire claim; wall ns.
	TTL      int64   `json:"ttl_ns,omitempty"`
	Elapsed  int64   `json:"elapsed_ns,omitempty"`
	Drift    int64   `json:"drift_ns,omitempty"`
	Validity int64   `json:"validity_ns,omitempty"`
	Score    float64 `json:"score,omitempty"`
	// Fence, SeenFence, Result, Num, Refusal, Removed, Action and Renewal of an Op
	// claim: what the operation's record carries.
	Fence     int64  `json:"fence,omitempty"`
	SeenFence int64  `json:"seen_fence,omitempty"`
	Result    string `json:"result,omitempty"`
	Num       *int64 `json:"num,omitempty"`
	Refusal   string `json:"refusal,omitempty"`
	Removed   bool   `json:"removed,omitempty"`
	Action    string `json:"action,omitempty"`
	Renewal   bool   `json:"renewal,omitempty"`
	// Report is an Experiment claim's report directory.
	Report string `json:"report,omitempty"`
	// Actions of an Experiment claim: the resource actions the lock
	// protects (a charge, a sale); its Num counts the writes of them the
	// experiment's resource accepted.
	Actions []string `json:"actions,omitempty"`
	// Kinds of an Experiment claim: the violation kinds its run showed
	// (its non-informational anomalies' kinds, in its results' order).
	Kinds []string `json:"kinds,omitempty"`
	// InfoKinds of an Experiment claim: the kinds of its run's
	// informational anomalies (judged harmless), each once.
	InfoKinds []string `json:"info_kinds,omitempty"`
	// Nodes of a Refusal claim Granted, or of an Ungranted claim: where
	// the acquire's own SETs created its key.
	Nodes []string `json:"nodes,omitempty"`
	// NodeKey and Holders of a Refusal claim (see Refusal).
	NodeKey string   `json:"node_key,omitempty"`
	Holders []Holder `json:"holders,omitempty"`
	// Won of a Refusal claim by others' keys (Holders set): the nodes
	// where the acquire's own SET created Client's key (By Client, Set
	// that SET) though the lock refused it, in the run's node order
	// (reader 4, finding 16: "only n1 of 5").
	Won []Holder `json:"won,omitempty"`
	// Also of an Extend claim: other clients' keys, under other names than
	// its own, that its client's deadline commands moved while it ran
	// (Key on Node, set by By's command Set): a heartbeat over every
	// configured queue's key, whoever holds it (rq #1707).
	Also []Holder `json:"also,omitempty"`
	// Silent of a Refusal or Ungranted claim: the nodes that gave it no
	// answer.
	Silent []Silent `json:"silent,omitempty"`
	// Down of an Ungranted claim: the nodes dead through the acquire.
	Down []string `json:"down,omitempty"`
	// Back of an Ungranted claim: the nodes dead when the acquire began
	// that restarted before it ended, and came back without its key (their
	// dump after the restart shows none of its token) and never ran a SET
	// of its token once observed (reader9: the 13th acquire of
	// redlock-delayed-restart, during which n3 restarted, was told only as
	// "outcome unknown").
	Back []Back `json:"back,omitempty"`
	// Wait of a Hold claim: the replicas its acquire's WAIT asked for.
	Wait int `json:"wait,omitempty"`
	// Steps of an Experiment claim "fixed-by-own": the run's plan steps
	// the fix's own plan lacks, when its plan is the run's without them.
	Steps []int `json:"steps,omitempty"`
	// Changed of an Experiment claim "fixed-by-own": the run's plan steps
	// the fix's own plan has in another form (the same kind on the same
	// targets, other values: a pause's length, a clock's rate), when its
	// plan is the run's with them changed (and without Steps).
	Changed []StepChange `json:"changed,omitempty"`
	// Fired of an Experiment claim: its changed steps as they fired in
	// the experiment's run (see Fired).
	Fired []Fired `json:"fired,omitempty"`
	// Since of an Anomaly claim of a stuck lock: when its holder took
	// the lock (see Anomaly), wall ns.
	Since int64 `json:"since_ns,omitempty"`
	// Offset is a ClockOffset claim's offset from true time, wall ns.
	Offset int64 `json:"offset_ns,omitempty"`
	// Violating are the history indices of an anomaly's violating writes.
	Violating []int `json:"violating,omitempty"`
	// Fenceable are the history indices of an Anomaly claim's stale
	// writes that came after a write of the newer holder (By).
	Fenceable []int `json:"fenceable,omitempty"`
	// Accepted are the history indices of an Anomaly claim's stale
	// writes the resource accepted in its window (see Anomaly).
	Accepted []int `json:"accepted,omitempty"`
	// CutBy of an Extend (or extend's Op) claim: the history index of the
	// release of Client's that cancelled its wait (see Extend).
	CutBy *int `json:"cut_by,omitempty"`
	// Later of an Anomaly claim: the history index of its stale holder's
	// later accepted write, -1 none (see Anomaly).
	Later *int `json:"later,omitempty"`
	// Counts of a Check claim: what its checker's summary counted.
	Counts map[string]int `json:"counts,omitempty"`
	// LastTry, NextTry and Short of an Exposure claim (see Exposure).
	LastTry *Try   `json:"last_try,omitempty"`
	NextTry *Try   `json:"next_try,omitempty"`
	Short   *Short `json:"short,omitempty"`
	// Records are the history indices (history.Op.Index) the claim rests
	// on, the one that starts it first.
	Records []int `json:"records"`
}

// Holder is one node's key that refused an acquire (a Refusal claim's
// Holders): Node held it with the value Token, which By's command Set (a
// history index) had set, through the acquire or when the acquire's SET
// met it (At).
type Holder struct {
	// Key is the key's name where it is not the claim's own (Also).
	Key   string `json:"key,omitempty"`
	Node  string `json:"node"`
	By    string `json:"by"`
	Token string `json:"token,omitempty"`
	Set   int    `json:"set"`
	// At, when set: the key did not stand through the acquire; the
	// client's SET NX on Node met it at At (as a Refusal Met).
	At int64 `json:"at_ns,omitempty"`
}

// Try is another client's try to take the lock around an Exposure
// claim's window: Client's acquire of the claim's Key, Op (a history
// index), at At (wall ns: its invoke, its completion, or the stamp of one
// of its commands a node ran).
type Try struct {
	Client string `json:"client"`
	At     int64  `json:"at_ns"`
	Op     int    `json:"op"`
}

// Short is a try inside an Exposure claim's window that could not have
// been granted there (the coverage checker's ShortTry): Client's acquire
// Op (a history index) of the claim's Key, invoked at At (wall ns), one of
// whose commands reached a node in the window, found Met of the nodes it
// reached free of the lock's key, fewer than Need (a quorum; 1 of a lock
// on one node). GaveUp, when set, is why the lock let it in but it gave
// the lock up by its own guard (history.RefusalValidity,
// RefusalNotReplicated; Met and Need 0). KeyOwner (Need 1): whose key of
// the lock its command found on the node — Client's own, from an earlier
// acquire of unknown outcome, or a third client's. ScriptRefused (Need 1,
// no KeyOwner): its script reached the node while no key of the lock
// stood there, and the lock refused it for a reason of its own. Granted,
// when not 0, is when it was granted, after End (wall ns): it was in
// flight in the window, invoked by End, and its client held nothing there
// (Met and Need 0).
type Short struct {
	Client        string `json:"client"`
	At            int64  `json:"at_ns"`
	Op            int    `json:"op"`
	Met           int    `json:"met,omitempty"`
	Need          int    `json:"need,omitempty"`
	GaveUp        string `json:"gave_up,omitempty"`
	KeyOwner      string `json:"key_owner,omitempty"`
	ScriptRefused bool   `json:"script_refused,omitempty"`
	Granted       int64  `json:"granted_ns,omitempty"`
}

// Back is a node of an Ungranted claim dead when the acquire began that
// restarted inside it: At is its restart (the crash step's recorded end
// of its death), Held the history index of its dump after the restart
// (a history.NodeHeld record).
type Back struct {
	Node string `json:"node"`
	At   int64  `json:"at_ns"`
	Held int    `json:"held"`
}

// Silent is a node that gave a refused acquire no answer (a Refusal
// claim's Silent): Cmd is the history index of a command of the acquire's
// client to Node, sent inside the acquire, that got none (a
// history.Stalled record of Type Info).
type Silent struct {
	Node string `json:"node"`
	Cmd  int    `json:"cmd"`
}

// KeyName is the name c's key has on the nodes: its NodeKey when the lock
// stores it under a name of its own, else its Key.
func (c Claim) KeyName() string {
	if c.NodeKey != "" {
		return c.NodeKey
	}
	return c.Key
}

// Fired is how a fix's step that changes the run's step Step fired in
// the fix's run (an Experiment claim's Fired): first applied at At (wall
// ns, on that run's clock; a crash of nodes that recorded when they died:
// then, as that run's report tells it), on Client (a client fault's first target), who
// was then, in that run, inside an acquire (State Acquiring: invoked, not
// yet answered), holding the lock (Holding: its last acquire had returned
// ok and it had sent no release since), or neither ("").
type Fired struct {
	Step int   `json:"step"`
	At   int64 `json:"at_ns"`
	// AtS is At in that run's scenario seconds (its own time scale).
	AtS    float64 `json:"at_s"`
	Client string  `json:"client,omitempty"`
	State  string  `json:"state,omitempty"`
}

// The State of a Fired step's client.
const (
	Acquiring = "acquiring"
	Holding   = "holding"
)

// StepChange is a run's plan step (Step, its ID) as another scenario's
// plan has it (To).
type StepChange struct {
	Step int               `json:"step"`
	To   history.FaultStep `json:"to"`
}

// Drift is Redlock's clock-drift allowance for a TTL (wall ns): TTL × 0.01
// + 2 ms (redis.io distlock; clients.redlock uses the same).
func Drift(ttl int64) int64 { return int64(float64(ttl)*0.01) + 2e6 }

// Number gives every claim of cs without an ID one, "<kind>-<n>" with n
// counting from 1 per kind in cs's order, and returns cs.
func Number(cs []Claim) []Claim {
	n := map[Kind]int{}
	for i := range cs {
		n[cs[i].Kind]++
		if cs[i].ID == "" {
			cs[i].ID = fmt.Sprintf("%s-%d", cs[i].Kind, n[cs[i].Kind])
		}
		if cs[i].Records == nil {
			cs[i].Records = []int{}
		}
	}
	return cs
}

// Find returns the first claim of cs that matches, and whether there is one.
func Find(cs []Claim, match func(Claim) bool) (Claim, bool) {
	i := slices.IndexFunc(cs, match)
	if i < 0 {
		return Claim{}, false
	}
	return cs[i], true
}
