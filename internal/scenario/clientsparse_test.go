package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
)

func TestTheClientsFieldTakesACountOrAMappingOfEachClientsOwnSettings(t *testing.T) {
	d := func(s string) *Duration { v, _ := time.ParseDuration(s); x := Duration(v); return &x }
	tests := []struct {
		name    string
		clients string
		count   int
		per     map[string]ClientSpec
	}{
		{"a count names w1..wN with the scenario's settings", "2", 2, nil},
		{"a mapping gives each client its own job", "{w1: {job: 40s}, w2: {job: 2s}}", 2,
			map[string]ClientSpec{"w1": {Job: d("40s")}, "w2": {Job: d("2s")}}},
		{"a client with nothing of its own may be empty or null", "{w1: {start: 3s, keys: [2]}, w2: {}, w3: ~}", 3,
			map[string]ClientSpec{"w1": {Start: d("3s"), Keys: []int{2}}, "w2": {}, "w3": {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "clients: " + tt.clients + "\nalgorithm: safe\nttl: 30s\nworkload: {keys: 2}\n"
			s, err := Parse("t.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if s.Clients != tt.count || !reflect.DeepEqual(s.PerClient, tt.per) {
				t.Fatalf("clients %d %+v, want %d %+v", s.Clients, s.PerClient, tt.count, tt.per)
			}
			out, err := Normalize(s)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse("t.yaml", out)
			if err != nil {
				t.Fatalf("the normalised copy does not parse: %v\n%s", err, out)
			}
			if back.Clients != s.Clients || !reflect.DeepEqual(back.PerClient, s.PerClient) && len(s.PerClient) > 0 {
				t.Fatalf("round trip changed the clients:\n%s", out)
			}
		})
	}
}

func TestBadClientsProcessAndTimeoutFieldsAreRefusedWhereTheyAre(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"a mapping must name w1..wN in order", "clients: {w1: {}, w3: {}}\nalgorithm: safe\nttl: 30s\n",
			`t.yaml:1:19: clients.w3: clients are named w1..w2 in order`},
		{"a client's unknown field is refused with its position", "clients:\n  w1: {jbo: 40s}\nalgorithm: safe\nttl: 30s\n",
			`t.yaml:2:8: clients.w1.jbo: unknown field "jbo" (did you mean "job"?)`},
		{"a client's key must be one of the workload's objects", "clients: {w1: {keys: [3]}}\nalgorithm: safe\nttl: 30s\nworkload: {keys: 2}\n",
			`t.yaml:1:23: clients.w1.keys[0]: no object 3: workload.keys is 2`},
		{"an empty mapping names no client", "clients: {}\nalgorithm: safe\nttl: 30s\n",
			`t.yaml:1:10: clients: an empty mapping names no client`},
		{"algorithm process needs its process block", "clients: 2\nalgorithm: process\nttl: 30s\n",
			`t.yaml:1:1: process: missing required field`},
		{"a command is a list, never a shell string", "clients: 2\nalgorithm: process\nprocess: {command: node redlock.js}\nttl: 30s\n",
			`t.yaml:3:20: process.command: must be a list of the program and its arguments`},
		{"a process block is refused for another algorithm", "clients: 2\nalgorithm: safe\nprocess: {command: [node]}\nttl: 30s\n",
			`t.yaml:3:1: process: applies only to algorithm process (got algorithm safe)`},
		{"a process trait must be one the protocol knows", "clients: 2\nalgorithm: process\nprocess: {command: [node], traits: [fast]}\nttl: 30s\n",
			`t.yaml:3:37: process.traits[0]: unknown process trait "fast"`},
		{"a process's renewer cannot be starved on its own", "clients: 2\nalgorithm: process\nprocess: {command: [node]}\nttl: 30s\nfaults:\n  - kind: starve-renewals\n    client: w1\n    at: 1s\n    duration: 5s\n",
			`t.yaml:6:5: faults: starve-renewals holds back a renewer inside locksim`},
		{"a client fault is refused where clients share a lock client process", "clients: {w1: {process: app}, w2: {process: app}}\nalgorithm: process\nprocess: {command: [node]}\nttl: 30s\nfaults:\n  - kind: pause\n    client: w1\n    at: 1s\n    duration: 5s\n",
			`t.yaml:6:5: faults: pause acts on a client, and w1 and w2 share process app`},
		{"node_timeout is for a multi-node algorithm", "clients: 2\nalgorithm: safe\nttl: 30s\nnode_timeout: 100ms\n",
			`t.yaml:4:15: node_timeout: is the per-node timeout of a multi-node algorithm`},
		{"node_timeout must be shorter than the ttl", "clients: 2\nnodes: 5\nalgorithm: redlock\nttl: 1s\nnode_timeout: 2s\n",
			`t.yaml:5:15: node_timeout: 2s is not shorter than the ttl 1s`},
		{"library.timeout must be shorter than the ttl", "clients: 2\nalgorithm: redislock\nttl: 1s\nlibrary: {timeout: 1s}\n",
			`t.yaml:4:20: library.timeout: 1s is not shorter than the ttl 1s`},
		{"rounds are at least one", "clients: 2\nalgorithm: safe\nttl: 1s\nworkload: {rounds: 0}\n",
			`t.yaml:4:20: workload.rounds: must be between 1 and 10000`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems := parseProblems(t, tt.src)
			for _, p := range problems {
				if strings.HasPrefix(p, tt.want) {
					return
				}
			}
			t.Fatalf("problems %q\nwant one starting %q", problems, tt.want)
		})
	}
}

func TestAProcessBlocksDirIsTheScenarioFilesAndClientClockFaultsChooseItsFakeTime(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, faults, fake string
	}{
		{"no client clock fault needs no fake time", "", ""},
		{"a node clock jump needs none either", "faults:\n  - {kind: clock-jump, at: 1s, nodes: [n1], delta: 5s}\n", ""},
		{"a client clock jump fakes the wall clock only", "faults:\n  - {kind: clock-jump, at: 1s, clients: [w1], delta: 5s}\n", "jump"},
		{"a client clock rate fakes both clocks", "faults:\n  - {kind: clock-rate, at: 1s, clients: [w1], rate: 2}\n", "rate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "clients: 2\nalgorithm: process\nprocess: {command: [./lock], dir: sub}\nttl: 30s\n" + tt.faults
			s, err := Parse(filepath.Join(dir, "s.yaml"), []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, "sub"); s.Process.Dir != want {
				t.Errorf("dir %q, want %q", s.Process.Dir, want)
			}
			if s.Process.FakeTime != tt.fake {
				t.Errorf("fake_time %q, want %q", s.Process.FakeTime, tt.fake)
			}
			if got := s.Traits().ClientClock; got != (tt.fake != "") {
				t.Errorf("client clock trait %v with fake_time %q", got, tt.fake)
			}
		})
	}
}

func TestLoadingAProcessScenarioRefusesAMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(f, []byte("clients: 2\nalgorithm: process\nprocess: {command: [./lock], dir: nowhere}\nttl: 30s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(f)
	if err == nil || !strings.Contains(err.Error(), "process.dir: directory") {
		t.Fatalf("Load = %v, want the missing directory refused", err)
	}
}

func TestLoadingRefusesAClientClockFaultOnAProcessLibfaketimeCannotReach(t *testing.T) {
	if _, err := clients.Libfaketime(); err != nil {
		t.Skipf("skipped: %v", err)
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, command, refused string
	}{
		{"a command libfaketime reaches is accepted", "[/usr/bin/python3, internal/clients/testdata/fake_adapter.py, ok]", ""},
		{"a command that drops the preload is refused where its command is", "[env, -u, LD_PRELOAD, /usr/bin/python3, internal/clients/testdata/fake_adapter.py, ok]",
			"s.yaml:3:20: process.command: client clock faults cannot reach this process: libfaketime does not reach the command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "s.yaml")
			src := "clients: 2\nalgorithm: process\nprocess: {command: " + tt.command + ", dir: " + root + "}\nttl: 30s\n" +
				"faults:\n  - {kind: clock-jump, at: 1s, clients: [w1], delta: 5s}\n"
			if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(f)
			switch {
			case tt.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Fatalf("Load = %v, want %q", err, tt.refused)
			}
		})
	}
}
