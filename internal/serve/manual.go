package serve

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/scenario"
)

// Fault buttons' actions: each fires a registered fault kind, or ends one
// fired by hand.
const (
	actPause   = "pause"   // kind pause on a client
	actResume  = "resume"  // ends it
	actCut     = "cut"     // kind partition on one client→node link
	actHeal    = "heal"    // ends it
	actCrash   = "crash"   // kind crash on a node
	actRestart = "restart" // ends it
	actJump    = "jump"    // kind clock-jump on a client or a node
)

// faultRequest is what a fault button sends: the action, its target and,
// for a fault with a window, how long it lasts (scenario seconds; 0 until
// it is ended by hand), for a clock jump how far (scenario seconds,
// negative backwards).
type faultRequest struct {
	Action, Client, Node, Direction string
	Seconds                         float64
}

// errConflict refuses a fault that contradicts one in force.
var errConflict = errors.New("conflict")

// readFault reads a fault button's form.
func readFault(r *http.Request) (faultRequest, error) {
	q := faultRequest{Action: r.PostFormValue("action"), Client: r.PostFormValue("client"), Node: r.PostFormValue("node"),
		Direction: r.PostFormValue("direction")}
	if v := r.PostFormValue("seconds"); v != "" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return q, fmt.Errorf("seconds: %q is not a number", v)
		}
		q.Seconds = x
	}
	return q, nil
}

// activeKey names what a fault with a window acts on: one pause per
// client, one cut per link, one crash per node at a time.
func activeKey(q faultRequest) string {
	switch q.Action {
	case actPause, actResume:
		return "pause:" + q.Client
	case actCut, actHeal:
		return "cut:" + q.Client + ":" + q.Node
	case actCrash, actRestart:
		return "crash:" + q.Node
	}
	return ""
}

// fire carries out a fault button's request on the running run r: it
// builds the fault a scenario file would write, reads it back through the
// scenario parser (every check a file gets), and fires it through the
// run's Control; an end action ends the fault fired by hand it names.
func (r *liveRun) fire(q faultRequest) (firedFault, error) {
	r.mu.Lock()
	ctl, state := r.ctl, r.state
	r.mu.Unlock()
	if ctl == nil || state != stRunning {
		return firedFault{}, fmt.Errorf("%w: the run is not going (%s)", errConflict, state)
	}
	if err := r.checkTargets(q); err != nil {
		return firedFault{}, err
	}
	key := activeKey(q)
	r.mu.Lock()
	id, active := r.active[key]
	crashed := r.active["crash:"+q.Node] != 0
	r.mu.Unlock()
	switch q.Action {
	case actResume, actHeal, actRestart:
		if !active {
			return firedFault{}, fmt.Errorf("%w: nothing fired by hand to end on %s", errConflict, on(q))
		}
		if err := ctl.End(id); err != nil {
			return firedFault{}, fmt.Errorf("%w: %v", errConflict, err)
		}
		r.mu.Lock()
		delete(r.active, key)
		r.touch()
		r.mu.Unlock()
		return firedFault{ID: id, Action: q.Action, On: on(q), AtS: ctl.Now().Seconds()}, nil
	case actPause, actCut, actCrash:
		if active {
			return firedFault{}, fmt.Errorf("%w: a %s fired by hand is already in force on %s", errConflict, q.Action, on(q))
		}
	case actJump:
		if q.Node != "" && crashed {
			return firedFault{}, fmt.Errorf("%w: %s is down (crashed by hand); restart it first", errConflict, q.Node)
		}
	}
	sp, open, err := r.specOf(q)
	if err != nil {
		return firedFault{}, err
	}
	st, err := ctl.Fire(sp, open)
	f := firedFault{ID: st.ID, Action: q.Action, On: on(q), AtS: float64(st.Trigger.At) * r.sc.TimeScale / 1e9}
	if err != nil {
		if errors.Is(err, faults.ErrRunOver) {
			return firedFault{}, fmt.Errorf("%w: %v", errConflict, err)
		}
		f.Error = err.Error()
	}
	r.mu.Lock()
	if st.ID > 0 {
		r.fired = append(r.fired, f)
	}
	if err == nil && !st.Instant() {
		r.active[key] = st.ID
	}
	r.touch()
	r.mu.Unlock()
	return f, err
}

// on names a request's target: "w1", "n2", "w1→n2".
func on(q faultRequest) string {
	switch {
	case q.Client != "" && q.Node != "":
		return q.Client + "→" + q.Node
	case q.Client != "":
		return q.Client
	}
	return q.Node
}

// checkTargets refuses a target the run does not have, and an action that
// takes other targets.
func (r *liveRun) checkTargets(q faultRequest) error {
	var clients, nodes []string
	for i := range r.sc.Clients {
		clients = append(clients, scenario.ClientName(i))
	}
	for i := range r.sc.Nodes {
		nodes = append(nodes, "n"+strconv.Itoa(i+1))
	}
	needClient := slices.Contains([]string{actPause, actResume, actCut, actHeal}, q.Action)
	needNode := slices.Contains([]string{actCut, actHeal, actCrash, actRestart}, q.Action)
	switch {
	case q.Action == actJump && (q.Client == "") == (q.Node == ""):
		return errors.New("a clock jump acts on one client or one node")
	case !needClient && !needNode && q.Action != actJump:
		return fmt.Errorf("unknown action %q (want pause, resume, cut, heal, crash, restart or jump)", q.Action)
	case needClient && q.Client == "", needNode && q.Node == "":
		return fmt.Errorf("%s needs a client and a node as its button says", q.Action)
	case q.Client != "" && !slices.Contains(clients, q.Client):
		return fmt.Errorf("unknown client %q (have %v)", q.Client, clients)
	case q.Node != "" && !slices.Contains(nodes, q.Node):
		return fmt.Errorf("unknown node %q (have %v)", q.Node, nodes)
	}
	return nil
}

// specOf is the fault a scenario file would write for q, read back by the
// scenario parser, and whether it stays until ended by hand.
func (r *liveRun) specOf(q faultRequest) (faults.Spec, bool, error) {
	sec := func(x float64) string { return time.Duration(x * float64(time.Second)).String() }
	run := r.sc.Duration.D().Seconds()
	switch {
	case q.Action == actJump && (q.Seconds == 0 || math.Abs(q.Seconds) > run):
		return faults.Spec{}, false, fmt.Errorf("seconds: a clock jump of %gs; want a non-zero jump of at most the run's duration, %gs", q.Seconds, run)
	case q.Action != actJump && (q.Seconds < 0 || q.Seconds > run):
		return faults.Spec{}, false, fmt.Errorf("seconds: %g is not between 0 and the run's duration, %gs", q.Seconds, run)
	}
	open := q.Seconds == 0
	m := map[string]any{"at": "0s"}
	switch q.Action {
	case actPause:
		// A pause names its length; one until resumed is held open.
		m["kind"], m["client"], m["duration"] = "pause", q.Client, sec(cmp.Or(q.Seconds, run))
	case actCut:
		dir := q.Direction
		if dir == "" {
			dir = faults.DirectionBoth
		}
		m["kind"], m["clients"], m["nodes"], m["direction"] = "partition", []string{q.Client}, []string{q.Node}, dir
		if !open {
			m["duration"] = sec(q.Seconds)
		}
	case actCrash:
		m["kind"], m["nodes"] = "crash", []string{q.Node}
		if !open {
			m["restart_after"] = sec(q.Seconds)
		}
	case actJump:
		m["kind"], m["delta"] = "clock-jump", sec(q.Seconds)
		if q.Client != "" {
			if p := r.sc.Process; p != nil && p.FakeTime == "" {
				return faults.Spec{}, false, fmt.Errorf("%s's lock client process was not started under libfaketime (the scenario has no client clock fault): its clock cannot jump", q.Client)
			}
			m["clients"] = []string{q.Client}
		} else {
			m["nodes"] = []string{q.Node}
		}
	}
	doc, err := r.docOf()
	if err != nil {
		return faults.Spec{}, false, err
	}
	var n yaml.Node
	if err := n.Encode([]any{m}); err != nil {
		return faults.Spec{}, false, err
	}
	if err := doc.SetNode("faults", &n); err != nil {
		return faults.Spec{}, false, err
	}
	if err := doc.Delete("nemesis"); err != nil {
		return faults.Spec{}, false, err
	}
	sc, err := doc.Scenario()
	if err != nil {
		return faults.Spec{}, false, err
	}
	if len(sc.Faults) != 1 {
		return faults.Spec{}, false, fmt.Errorf("the %s fault did not read back", q.Action)
	}
	return sc.Faults[0], open, nil
}

// docOf is a copy of the run's scenario as a YAML tree, made once.
func (r *liveRun) docOf() (*scenario.Doc, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.doc == nil {
		d, err := scenario.DocOf(r.sc)
		if err != nil {
			return nil, err
		}
		r.doc = d
	}
	return r.doc.Clone(), nil
}
