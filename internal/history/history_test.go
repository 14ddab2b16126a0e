package history

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

func sample() History {
	r := NewRecorder(time.Now())
	p := r.Begin(0, "w1", Acquire, "invoice-1", Value{TTL: int64(30 * time.Second)})
	p.End(OK, Value{Token: "abc", Fence: 1, TTL: int64(30 * time.Second), Nodes: []string{"n1"}}, "")
	r.Begin(1, "w2", Acquire, "invoice-1", Value{}) // never completes
	r.Instant(0, "w1", Lost, "invoice-1", Value{}, OK)
	return History{Header: Header{Scenario: "s", Seed: 7, TimeScale: 50, Backend: "local", Clients: []string{"w1", "w2"}}, Ops: r.Ops()}
}

func TestHistoryRoundTrip(t *testing.T) {
	t.Run("a written history reads back identical", func(t *testing.T) {
		h := sample()
		var b bytes.Buffer
		if err := Encode(&b, h); err != nil {
			t.Fatal(err)
		}
		got, err := Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Ops) != len(h.Ops) || got.Header.Seed != 7 || got.Header.Format != Format {
			t.Fatalf("round trip lost data: %+v", got)
		}
		for i := range h.Ops {
			if got.Ops[i].Invoke != h.Ops[i].Invoke || got.Ops[i].Type != h.Ops[i].Type || got.Ops[i].Value.Token != h.Ops[i].Value.Token {
				t.Errorf("op %d differs: %+v vs %+v", i, got.Ops[i], h.Ops[i])
			}
		}
	})
	t.Run("an operation that never completed is open and info", func(t *testing.T) {
		op := sample().Ops[1]
		if !op.Open() || op.Type != Info {
			t.Errorf("op %+v should be open and info", op)
		}
	})
}

func TestDecodeRefusesBadFiles(t *testing.T) {
	good := func() string {
		var b bytes.Buffer
		_ = Encode(&b, sample())
		return b.String()
	}()
	lines := strings.Split(strings.TrimSpace(good), "\n")
	tests := []struct {
		name, text, want string
		line             int
	}{
		{"an empty file has no header", "", "empty file", 1},
		{"a file of another format is refused", `{"format":"other","version":1}`, "format", 1},
		{"a newer version is refused", `{"format":"locksim-history","version":99}`, "version 99", 1},
		{"an unknown field is refused", lines[0] + "\n" + strings.Replace(lines[1], `"index":0`, `"index":0,"bogus":1`, 1), "bogus", 2},
		{"a gap in indices is refused", lines[0] + "\n" + lines[2], "index 1, want 0", 2},
		{"a bad type is refused", lines[0] + "\n" + strings.Replace(lines[1], `"type":"ok"`, `"type":"maybe"`, 1), "type", 2},
		{"a completion before the invoke is refused", lines[0] + "\n" + strings.Replace(lines[1], `"invoke_ns":`, `"invoke_ns":99999999999`, 1), "before", 2},
		{"broken JSON before the last line is refused", lines[0] + "\n{\n" + lines[1], "op", 2},
		{"a version 1 file names its version", `{"format":"locksim-history","version":1,"plan":["#1 prose"]}`, "version 1 was written by an older locksim", 1},
		{"a gap in a finished file is refused", lines[0] + "\n" + lines[1] + "\n" + lines[3], "index 2, want 1", 3},
		{"a finished file with more operations than its header says is refused", strings.Replace(good, `"ops":3`, `"ops":2`, 1), "the header says the file holds 2 operations", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(tt.text))
			var re *ReadError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is not a *ReadError", err)
			}
			if re.Line != tt.line || !strings.Contains(re.Msg, tt.want) {
				t.Errorf("got line %d %q, want line %d containing %q", re.Line, re.Msg, tt.line, tt.want)
			}
		})
	}
}

func TestDecodeKeepsWhatACutFileHolds(t *testing.T) {
	var b bytes.Buffer
	_ = Encode(&b, sample())
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	streamed := strings.Replace(lines[0], `"version":2,`, `"version":2,"streaming":true,`, 1)
	tests := []struct {
		name    string
		text    string
		ops     int
		cut     bool
		firstTy Type
	}{
		{"a finished file is not cut", b.String(), 3, false, OK},
		{"a finished file cut at a line boundary (head -n 3) is cut", lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n", 2, true, OK},
		{"a finished file cut after its header alone is cut", lines[0] + "\n", 0, true, OK},
		{"a last line cut in the middle is dropped and the history is cut", lines[0] + "\n" + lines[1] + "\n" + lines[2][:len(lines[2])/2], 1, true, OK},
		{"a streamed file keeps the last line of each index", streamed + "\n" + strings.Replace(lines[1], `"type":"ok"`, `"type":"info"`, 1) + "\n" + lines[2] + "\n" + lines[1] + "\n", 2, true, OK},
		{"a streamed file may hold its operations out of order and with gaps", streamed + "\n" + lines[3] + "\n" + lines[1] + "\n", 2, true, OK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Decode(strings.NewReader(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Ops) != tt.ops || h.Cut != tt.cut {
				t.Fatalf("got %d ops, cut %v; want %d ops, cut %v", len(h.Ops), h.Cut, tt.ops, tt.cut)
			}
			for i, op := range h.Ops {
				if op.Index != i {
					t.Fatalf("op %d has index %d: not renumbered densely", i, op.Index)
				}
			}
			if len(h.Ops) > 0 && h.Ops[0].Type != tt.firstTy {
				t.Errorf("first op is %s, want %s (the last line of its index)", h.Ops[0].Type, tt.firstTy)
			}
		})
	}
}

func TestStreamLeavesEveryOperationOnDisk(t *testing.T) {
	t.Run("a stream read before it stops holds completed and in-flight operations", func(t *testing.T) {
		r := NewRecorder(time.Now())
		var b syncBuffer
		stop := r.Stream(&b, Header{Scenario: "s", TimeScale: 2}, time.Millisecond)
		done := r.Log().Begin(0, "w1", Acquire, "k", Value{})
		done.End(OK, Value{Token: "t"}, "")
		r.Begin(1, "w2", Acquire, "k", Value{}) // in flight when "killed"
		deadline := time.Now().Add(10 * time.Second)
		var h History
		for {
			var err error
			h, err = Decode(strings.NewReader(b.String()))
			if err == nil && len(h.Ops) == 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("stream never held both ops (err %v, %d ops)", err, len(h.Ops))
			}
			time.Sleep(time.Millisecond)
		}
		if !h.Cut || h.Ops[0].Type != OK || !h.Ops[1].Open() {
			t.Errorf("cut %v, ops %+v: want a cut history with one ok and one open op", h.Cut, h.Ops)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("an operation written open is written again once it completes", func(t *testing.T) {
		r := NewRecorder(time.Now())
		var b syncBuffer
		p := r.Begin(0, "w1", Acquire, "k", Value{})
		stop := r.Stream(&b, Header{Scenario: "s"}, time.Millisecond)
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(b.String(), `"complete_ns":-1`); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the open op never reached the stream")
			}
		}
		p.End(Fail, Value{}, "")
		if err := stop(); err != nil { // the final flush writes the completion
			t.Fatal(err)
		}
		h, err := Decode(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Ops) != 1 || h.Ops[0].Type != Fail || h.Ops[0].Open() {
			t.Errorf("ops %+v, want the one op completed as fail", h.Ops)
		}
	})
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRecorderIsSafeForConcurrentUse(t *testing.T) {
	tests := []struct {
		name   string
		ownLog bool
	}{
		{"clients sharing the recorder's log lose nothing", false},
		{"clients each with a log of their own lose nothing", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder(time.Now())
			var wg sync.WaitGroup
			for c := 0; c < 8; c++ {
				begin := r.Begin
				if tt.ownLog {
					begin = r.Log().Begin
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 500; i++ {
						p := begin(c, "w", Write, "k", Value{Num: ptr(int64(i))})
						p.End(OK, Value{Num: ptr(int64(i)), Result: "done"}, "")
					}
				}()
			}
			wg.Wait()
			ops := r.Ops()
			if len(ops) != 4000 {
				t.Fatalf("recorded %d ops, want 4000", len(ops))
			}
			last := map[int]int64{}
			for i, op := range ops {
				if op.Index != i || op.Open() || op.Complete < op.Invoke || op.Value.Result != "done" {
					t.Fatalf("op %d malformed: %+v", i, op)
				}
				// Each client's ops come in the order it recorded them,
				// and End completed the op Begin opened (across chunks).
				if n, seen := last[op.Process]; (seen && *op.Value.Num != n+1) || (!seen && *op.Value.Num != 0) {
					t.Fatalf("client %d: op %d carries %d after %d", op.Process, i, *op.Value.Num, n)
				}
				last[op.Process] = *op.Value.Num
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func FuzzDecode(f *testing.F) {
	var b bytes.Buffer
	_ = Encode(&b, sample())
	f.Add(b.String())
	f.Add("")
	f.Add(`{"format":"locksim-history","version":1}` + "\n{\"index\":0}")
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Decode(strings.NewReader(s))
		if err != nil {
			var re *ReadError
			if !errors.As(err, &re) || re.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		for i, op := range h.Ops {
			if op.Index != i {
				t.Fatalf("accepted op with index %d at %d", op.Index, i)
			}
		}
	})
}

// run is a small history of a run that keeps every invariant: two
// clients, a pause of w1, a final probe.
func run() History {
	ttl := int64(10e9)
	h := History{Header: Header{Format: Format, Version: Version, Scenario: "s", TimeScale: 1, Backend: "local", Algorithm: "safe",
		Workload: "payment", Clients: []string{"w1", "w2"}, Nodes: []string{"n1"}, Observed: []string{"n1"}}}
	pause := FaultStep{ID: 1, Kind: "pause", Effect: EffectFreezeClient, Clients: []string{"w1"}, Trigger: Trigger{Kind: TriggerAt, At: 1e9}, Duration: 2e9}
	h.Header.Plan = []FaultStep{pause}
	add := func(p int, c string, f Func, inv, comp int64, t Type, v Value) {
		h.Ops = append(h.Ops, Op{Index: len(h.Ops), Process: p, Client: c, F: f, Key: "invoice-1", Value: v, Invoke: inv, Complete: comp, Type: t})
	}
	add(0, "w1", Acquire, 0, 1e8, OK, Value{Token: "t1", TTL: ttl, Nodes: []string{"n1"}})
	add(NodeProcess, "w1", NodeCmd, 5e7, 5e7, OK, Value{Node: "n1", Cmd: []string{"set", "invoice-1", "t1", "px", "10000", "nx"}})
	add(0, "w1", Write, 2e8, 3e8, OK, Value{Action: "charge"})
	h.Ops = append(h.Ops, Op{Index: len(h.Ops), Process: NemesisProcess, Client: NemesisClient, F: Fault, Value: Value{Fault: &pause}, Invoke: 1e9, Complete: 3e9, Type: OK})
	add(0, "w1", Lost, 3.2e9, 3.2e9, OK, Value{Token: "t1"})
	add(0, "w1", Release, 3.1e9, 3.3e9, OK, Value{Token: "t1", Removed: true, Nodes: []string{"n1"}})
	add(1, "w2", Acquire, 4e9, 4.1e9, OK, Value{Token: "t2", TTL: ttl, Nodes: []string{"n1"}})
	add(1, "w2", Release, 5e9, 5.1e9, OK, Value{Token: "t2", Removed: true, Nodes: []string{"n1"}})
	add(2, ProbeClient, Probe, 6e9, 6.1e9, OK, Value{Token: "t3", TTL: ttl, Removed: true, Nodes: []string{"n1"}})
	return h
}

func TestDecodeRefusesWhatCannotBe(t *testing.T) {
	t.Run("a history of a run that keeps every invariant is read", func(t *testing.T) {
		var b bytes.Buffer
		if err := Encode(&b, run()); err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(&b); err != nil {
			t.Fatal(err)
		}
	})
	last := func(h *History) *Op { return &h.Ops[len(h.Ops)-1] }
	tests := []struct {
		name   string
		mutate func(h *History)
		want   string
		line   int
	}{
		{"a process that invokes while its acquire is outstanding is refused",
			func(h *History) { h.Ops[0].Complete = 2.5e8 }, "process 0 invokes write at 200000000 ns while its acquire (op 0) is outstanding", 4},
		{"a process that invokes after an operation that never completed is refused",
			func(h *History) { h.Ops[6].Complete, h.Ops[6].Type = -1, Info }, "never completed", 9},
		{"a lock client named nemesis is refused",
			func(h *History) {
				h.Header.Clients[1] = NemesisClient
				h.Ops[6].Client, h.Ops[7].Client = NemesisClient, NemesisClient
			}, `client "nemesis" is a reserved name`, 1},
		{"a client operation under a reserved name the header does not list is refused",
			func(h *History) { h.Ops[6].Client = AdminClient }, `acquire of client "admin"`, 8},
		{"a client operation on the nemesis's process is refused",
			func(h *History) { h.Ops[6].Process, h.Ops[7].Process = NemesisProcess, NemesisProcess }, "process ids below 0", 8},
		{"a client operation on the nodes' process is refused",
			func(h *History) { h.Ops[2].Process = NodeProcess }, "process ids below 0", 4},
		{"a fault recorded on a client's process is refused",
			func(h *History) { h.Ops[3].Process = 5 }, "want the nemesis", 5},
		{"a node event on a client's process is refused",
			func(h *History) { h.Ops[1].Process = 0 }, "want the nodes'", 3},
		{"an operation of an unknown kind is refused",
			func(h *History) { h.Ops[4].F = "teleport" }, `f "teleport"`, 6},
		{"a completion at MaxInt64 is outside the run",
			func(h *History) { h.Ops[7].Complete = math.MaxInt64 }, "outside the run", 9},
		{"a TTL beyond the run is refused",
			func(h *History) { h.Ops[6].Value.TTL = math.MaxInt64 }, "ttl_ns", 8},
		{"a fault on a node the run does not have is refused",
			func(h *History) {
				st := *h.Ops[3].Value.Fault
				st.Effect, st.Clients, st.Nodes = EffectFreezeNode, nil, []string{"n9"}
				h.Ops[3].Value.Fault = &st
				h.Header.Plan = nil
			}, `targets node "n9"`, 5},
		{"a plan step on a client the run does not have is refused",
			func(h *History) { h.Header.Plan[0].Clients = []string{"w7"} }, `targets client "w7"`, 1},
		{"a link fault from a client the run does not have is refused",
			func(h *History) {
				st := *h.Ops[3].Value.Fault
				st.Effect, st.Clients, st.Links = EffectCutLinks, nil, []Link{{Client: "w9", Node: "n1"}}
				h.Ops[3].Value.Fault = &st
				h.Header.Plan = nil
			}, "from a client the run does not have", 5},
		{"a workload without a parameter it registered as needed is refused",
			func(h *History) {
				RequireParams("test-needs-permits", ParamPermits)
				h.Header.Workload = "test-needs-permits"
			}, "params.permits", 1},
		{"an absolute expiry in a history that does not say when it started is refused",
			func(h *History) {
				h.Ops[1].Value.Cmd = []string{"set", "invoice-1", "t1", "pxat", "1796177034433", "nx"}
			}, "absolute expiry", 3},
		{"a client that acts after the final probe began is refused",
			func(h *History) {
				*last(h) = Op{Index: len(h.Ops) - 1, Process: 1, Client: "w2", F: Acquire, Key: "invoice-1", Invoke: 7e9, Complete: 7.1e9, Type: OK}
				h.Ops = append(h.Ops, Op{Index: len(h.Ops), Process: 2, Client: ProbeClient, F: Probe, Key: "invoice-1", Invoke: 6e9, Complete: 6.1e9, Type: OK})
			}, "after the final probe", 10},
		{"a client crashed for good that acts after the probe is told so",
			func(h *History) {
				crash := FaultStep{ID: 1, Kind: "crash-client", Effect: EffectCrashClient, Clients: []string{"w2"}, Trigger: Trigger{Kind: TriggerAt, At: 3e9}}
				h.Header.Plan = []FaultStep{crash}
				h.Ops[3].Value.Fault, h.Ops[3].Complete = &crash, 1e9
				*last(h) = Op{Index: len(h.Ops) - 1, Process: 1, Client: "w2", F: Write, Key: "invoice-1", Value: Value{Action: "charge"}, Invoke: 7e9, Complete: 7.1e9, Type: OK}
				h.Ops = append(h.Ops, Op{Index: len(h.Ops), Process: 2, Client: ProbeClient, F: Probe, Key: "invoice-1", Invoke: 6e9, Complete: 6.1e9, Type: OK})
			}, "had killed w2 for good", 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := run()
			tt.mutate(&h)
			var b bytes.Buffer
			if err := Encode(&b, h); err != nil {
				t.Fatal(err)
			}
			_, err := Decode(&b)
			var re *ReadError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is not a *ReadError", err)
			}
			if re.Line != tt.line || !strings.Contains(re.Msg, tt.want) {
				t.Errorf("got line %d %q, want line %d containing %q", re.Line, re.Msg, tt.line, tt.want)
			}
			if err := Validate(h); err == nil || err.Error() != re.Error() {
				t.Errorf("Validate gives %v, Decode %v: they must agree", err, re)
			}
		})
	}
	t.Run("the harness's timer lag, recorded on the nodes' process, is read", func(t *testing.T) {
		h := run()
		h.Ops = append(h.Ops, Op{Index: len(h.Ops), Process: NodeProcess, F: TimerLag, Invoke: 2e9, Complete: 2.05e9, Type: OK})
		if err := Validate(h); err != nil {
			t.Fatal(err)
		}
		h.Ops[len(h.Ops)-1].Process = 4
		if err := Validate(h); err == nil || !strings.Contains(err.Error(), "want the nodes'") {
			t.Errorf("a timer lag on a client's process gives %v, want it refused", err)
		}
	})
	t.Run("a watchdog's loss recorded while its job's write is in flight is no second operation", func(t *testing.T) {
		h := run()
		h.Ops[4].Invoke, h.Ops[4].Complete = 2.5e8, 2.5e8 // the lost instant inside the charge
		if err := Validate(h); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a lease renewal after the final probe began is no client acting", func(t *testing.T) {
		h := run()
		h.Ops = append(h.Ops, Op{Index: len(h.Ops), Process: 3, Client: "w2", F: Extend, Key: "invoice-1", Value: Value{Token: "t2", Renewal: true}, Invoke: 7e9, Complete: 7.1e9, Type: Fail})
		if err := Validate(h); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a streamed file is checked on its own lines", func(t *testing.T) {
		h := run()
		h.Ops[0].Complete = 2.5e8
		var b bytes.Buffer
		_ = Encode(&b, h)
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		text := strings.Replace(lines[0], `"version":2,`, `"version":2,"streaming":true,`, 1) + "\n" + lines[3] + "\n" + strings.Join(lines[1:3], "\n") + "\n"
		_, err := Decode(strings.NewReader(text))
		var re *ReadError
		if !errors.As(err, &re) || re.Line != 2 || !strings.Contains(re.Msg, "outstanding") {
			t.Fatalf("got %v, want line 2 (op 2's own line in the streamed file) saying outstanding", err)
		}
	})
}
