package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/workload"
	"gopkg.in/yaml.v3"
)

func ptr[T any](v T) *T { return &v }

func TestParseAppliesDefaults(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		want   Scenario
		faults []string // each fault as the normalised scenario writes it (flow style)
	}{
		{
			name: "a minimal scenario gets every default",
			file: "testdata/good/minimal.yaml",
			want: Scenario{
				Name:        "minimal",
				TimeScale:   1,
				Duration:    Duration(10 * time.Minute),
				Nodes:       1,
				Persistence: "none",
				Clients:     1,
				Algorithm:   "naive",
				TTL:         Duration(10 * time.Second),
				RetryDelay:  Duration(time.Second),
				Stagger:     Duration(time.Second),
				Workload:    Workload{Kind: "payment", Keys: 1, Claim: ptr(false), Attrs: zeroAttrs("payment")},
				Probe:       ptr(true),
			},
		},
		{
			name: "the gc-pause scenario takes its name from the file and its fault from the list",
			file: "testdata/good/gc-pause.yaml",
			want: Scenario{
				Name:        "gc-pause",
				Description: "W1 takes the lock, then a stop-the-world pause outlives its lease.\n",
				Seed:        ptr(int64(42)),
				TimeScale:   45,
				Duration:    Duration(5 * time.Minute),
				Nodes:       1,
				Persistence: "none",
				Clients:     2,
				Algorithm:   "safe",
				TTL:         Duration(30 * time.Second),
				RetryDelay:  Duration(time.Second),
				Stagger:     Duration(time.Second),
				Workload:    Workload{Kind: "payment", Keys: 1, Job: Duration(45 * time.Second), Claim: ptr(false), Attrs: zeroAttrs("payment")},
				Probe:       ptr(true),
				Expect:      Expectation{Verdict: "invalid"},
			},
			faults: []string{"{kind: pause, client: w1, point: before-write, occurrence: 1, duration: 40s} at 14:5"},
		},
		{
			name: "a scenario that sets every field keeps every value, zero retry delay included",
			file: "testdata/good/fenced.yaml",
			want: Scenario{
				Name:        "s03-fenced-claim",
				Description: "Fencing with claim first.",
				TimeScale:   100,
				Duration:    Duration(2 * time.Minute),
				Nodes:       5,
				Persistence: "aof-always",
				Clients:     3,
				Algorithm:   "fenced",
				TTL:         Duration(30 * time.Second),
				RetryDelay:  0,
				Stagger:     Duration(250 * time.Millisecond),
				Workload: Workload{Kind: "payment", Keys: 4, Read: Duration(10 * time.Millisecond),
					Job: Duration(45 * time.Second), Fencing: true, Claim: ptr(false), Attrs: zeroAttrs("payment")},
				Probe:  ptr(true),
				Expect: Expectation{Verdict: "valid"},
			},
			faults: []string{
				"{kind: pause, client: w3, point: after-acquire, occurrence: 2, duration: 1m30s} at 20:5",
				"{kind: pause, client: w1, point: before-release, occurrence: 1, duration: 2m0s} at 21:5",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Load(tt.file)
			if err != nil {
				t.Fatalf("Load(%s): %v", tt.file, err)
			}
			tt.want.File = tt.file
			var gotFaults []string
			for _, f := range got.Faults {
				gotFaults = append(gotFaults, fmt.Sprintf("%s at %d:%d", faultText(t, f), f.Line, f.Column))
			}
			got.Faults = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Load(%s)\n got  %+v\n want %+v", tt.file, got, tt.want)
			}
			if !slices.Equal(gotFaults, tt.faults) {
				t.Errorf("Load(%s) faults\n got  %q\n want %q", tt.file, gotFaults, tt.faults)
			}
		})
	}
}

func TestParseDefaultsClaimToFencing(t *testing.T) {
	s, err := Parse("s.yaml", []byte("clients: 1\nalgorithm: fenced\nttl: 1s\nworkload: {fencing: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Workload.Claim == nil || !*s.Workload.Claim || !s.Workload.ClaimFirst() {
		t.Errorf("claim = %v, want true when fencing is on", s.Workload.Claim)
	}
}

// TestParseRejectsBadScenarios checks every testdata/bad/X.yaml against
// X.err: the first line ("# …") names the case, each further line is a
// substring of one reported problem, in order, one line per problem.
func TestParseRejectsBadScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("bad corpus has %d files, want ≥ 20", len(files))
	}
	for _, file := range files {
		errFile := strings.TrimSuffix(file, ".yaml") + ".err"
		raw, err := os.ReadFile(errFile)
		if err != nil {
			t.Fatalf("every bad scenario needs its .err file: %v", err)
		}
		title := filepath.Base(file)
		var want []string
		for _, line := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
			if strings.HasPrefix(line, "# ") {
				title = strings.TrimPrefix(line, "# ")
				continue
			}
			if line != "" {
				want = append(want, line)
			}
		}
		t.Run(title, func(t *testing.T) {
			_, err := Load(file)
			var list *ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Load(%s) = %v, want a *ErrorList", file, err)
			}
			if len(list.Errs) != len(want) {
				t.Errorf("got %d problems, want %d:\n%v", len(list.Errs), len(want), err)
			}
			for i, w := range want {
				if i >= len(list.Errs) {
					break
				}
				if got := list.Errs[i].Error(); !strings.Contains(got, w) {
					t.Errorf("problem %d:\n got  %s\n want …%s…", i, got, w)
				}
			}
			for _, e := range list.Errs {
				if e.Line < 1 || e.File != file {
					t.Errorf("problem without a position: %+v", e)
				}
			}
		})
	}
}

func TestParseSurvivesHostileInput(t *testing.T) {
	lol := "lol: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'j'; i++ {
		prev := string(i - 1)
		lol += string(i) + ": &" + string(i) + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
			", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
	}
	tests := []struct {
		name string
		data string
		want string
	}{
		{"a file over 1 MiB is refused before parsing", strings.Repeat("#", MaxFileSize+1), "at most 1048576 bytes"},
		{"a megabyte of open brackets is refused without a crash", "workload: " + strings.Repeat("[", MaxFileSize-20), "invalid YAML"},
		{"ten thousand nested mappings are refused without a crash", strings.Repeat("{a: ", 9000) + strings.Repeat("}", 9000), "nested more than 16 levels deep"},
		{"a billion laughs is refused without expanding it", lol, "YAML aliases (*a) are not allowed"},
		{"a UTF-16 file is recognised as such", "\xff\xfec\x00", "UTF-16"},
		{"a scalar document is not a scenario", "hello", `must be a mapping of fields like "clients: 2" (got "hello")`},
		{"a complex key is refused", "? [a]\n: 1\nclients: 1\nalgorithm: naive\nttl: 1s\n", "field names must be plain strings"},
		{"a custom tag is refused", "clients: !big 2\nalgorithm: naive\nttl: 1s\n", "YAML tag !big is not supported"},
		{"a bool is not a string", "clients: 1\nalgorithm: true\nttl: 1s\n", "must be a string (got boolean true)"},
		{"client names must be exact", "clients: 2\nalgorithm: naive\nttl: 1s\nfaults: [{kind: pause, client: w01, point: after-acquire, duration: 1s}]\n", `no client "w01"`},
		{"a second empty document is refused", "clients: 1\nalgorithm: naive\nttl: 1s\n---\n", "second YAML document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("hostile.yaml", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse = %v, want an error containing %q", err, tt.want)
			}
			checkErrorList(t, err)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Parse took %v", d)
			}
		})
	}
}

func TestParseNamesTheScenario(t *testing.T) {
	const body = "clients: 1\nalgorithm: naive\nttl: 1s\n"
	tests := []struct {
		name, file, data, want, wantErr string
	}{
		{name: "the name defaults to the base name without extension", file: "dir/s01-gc.yaml", data: body, want: "s01-gc"},
		{name: "an explicit name wins over the file name", file: "dir/x.yaml", data: "name: my.run_1\n" + body, want: "my.run_1"},
		{name: "a file name unfit as a name asks for an explicit one", file: "dir/GC Pause.yaml", data: body, wantErr: `1:1: name: not set, and the file's base name "GC Pause" cannot be used`},
		{name: "a scenario from no file must name itself", file: "", data: body, wantErr: "1:1: name: missing required field"},
		{name: "a name of dots is refused", file: "x.yaml", data: "name: ..\n" + body, wantErr: `1:7: name: must match`},
		{name: "a 65-character name is refused", file: "x.yaml", data: "name: " + strings.Repeat("a", 65) + "\n" + body, wantErr: "name: must match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.file, []byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse = %v, want error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tt.want {
				t.Errorf("name = %q, want %q", s.Name, tt.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	t.Run("a missing file gives the os error, not a scenario error", func(t *testing.T) {
		_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
		var list *ErrorList
		if !errors.Is(err, fs.ErrNotExist) || errors.As(err, &list) {
			t.Errorf("Load = %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("a file over 1 MiB is refused without reading all of it", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "big.yaml")
		if err := os.WriteFile(path, bytes.Repeat([]byte("# padding\n"), MaxFileSize/5), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path+":1:1: file is 1048577 bytes") {
			t.Errorf("Load = %v", err)
		}
	})
}

func TestFieldErrorFormat(t *testing.T) {
	tests := []struct {
		name string
		err  FieldError
		want string
	}{
		{"a field problem reads file:line:col: path: msg",
			FieldError{File: "gc-pause.yaml", Line: 12, Column: 15, Path: "faults[0].duration", Msg: `must be > 0 (got "-3s")`},
			`gc-pause.yaml:12:15: faults[0].duration: must be > 0 (got "-3s")`},
		{"a problem without a column or path leaves them out",
			FieldError{File: "x.yaml", Line: 3, Msg: "invalid YAML: oops"},
			"x.yaml:3: invalid YAML: oops"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("a list prints one problem per line and caps their number", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("clients: 1\nalgorithm: naive\nttl: 1s\n")
		for i := range 150 {
			b.WriteString("x" + strings.Repeat("y", i) + ": 1\n")
		}
		_, err := Parse("many.yaml", []byte(b.String()))
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != maxErrors+1 || !strings.Contains(lines[maxErrors], "too many errors (50 more not shown)") {
			t.Errorf("got %d lines, last %q", len(lines), lines[len(lines)-1])
		}
	})
}

func TestNormalizeRoundTrips(t *testing.T) {
	files, err := filepath.Glob("testdata/good/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no good scenarios: %v", err)
	}
	for _, file := range files {
		t.Run("normalizing "+filepath.Base(file)+" and parsing it again gives the same scenario", func(t *testing.T) {
			s, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, s)
		})
	}
	t.Run("normalized durations are Go duration strings", func(t *testing.T) {
		s, err := Load("testdata/good/gc-pause.yaml")
		if err != nil {
			t.Fatal(err)
		}
		out, err := Normalize(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"ttl: 30s\n", "duration: 5m0s\n", "retry_delay: 1s\n", "time_scale: 45\n", "occurrence: 1\n"} {
			if !bytes.Contains(out, []byte(want)) {
				t.Errorf("normalized YAML lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("a hand-built scenario gets its defaults filled in", func(t *testing.T) {
		parsed, err := Parse("x.yaml", []byte("clients: 1\nalgorithm: naive\nttl: 1s\nfaults: [{kind: pause, client: w1, point: after-acquire, duration: 1s}]\n"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Normalize(Scenario{File: "dir/hand.yaml", Clients: 1, Algorithm: "naive", TTL: Duration(time.Second), Faults: parsed.Faults})
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse("other.yaml", out)
		if err != nil {
			t.Fatalf("Parse(Normalize) = %v\n%s", err, out)
		}
		if s.Name != "hand" || s.TimeScale != 1 || s.Nodes != 1 || s.Faults[0].When.Occurrence != 1 {
			t.Errorf("defaults not filled: %+v", s)
		}
	})
}

// checkRoundTrip asserts Parse(Normalize(s)) == s, File and fault
// positions aside.
func checkRoundTrip(t *testing.T, s Scenario) {
	t.Helper()
	out, err := Normalize(s)
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	back, err := Parse(s.File, out)
	if err != nil {
		t.Fatalf("Parse(Normalize(s)): %v\n%s", err, out)
	}
	if !reflect.DeepEqual(comparable(back), comparable(s)) {
		t.Fatalf("round trip changed the scenario\n got  %+v\n want %+v\n%s", comparable(back), comparable(s), out)
	}
}

func comparable(s Scenario) Scenario {
	s.File = ""
	if s.Faults != nil {
		f := make([]Fault, len(s.Faults))
		copy(f, s.Faults)
		for i := range f {
			f[i].Line, f[i].Column = 0, 0
		}
		s.Faults = f
	}
	return s
}

// faultText is a fault as the normalised scenario writes it, in YAML flow
// style on one line.
func faultText(t *testing.T, f Fault) string {
	t.Helper()
	var n yaml.Node
	if err := n.Encode(f); err != nil {
		t.Fatal(err)
	}
	n.Style = yaml.FlowStyle
	b, err := yaml.Marshal(&n)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// checkErrorList asserts that err is nil or a *ErrorList of positioned
// problems.
func checkErrorList(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	list, ok := err.(*ErrorList)
	if !ok {
		t.Fatalf("error is %T, want *ErrorList: %v", err, err)
	}
	if len(list.Errs) == 0 {
		t.Fatalf("empty *ErrorList")
	}
	for _, e := range list.Errs {
		if e == nil || e.Line < 1 || e.Column < 0 || e.Msg == "" {
			t.Fatalf("problem without a position or message: %+v", e)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/good/*.yaml", "testdata/bad/*.yaml"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		checkErrorList(t, err)
		if err == nil {
			checkRoundTrip(t, s)
		}
	})
}

// zeroAttrs is the workload's own fields with nothing set (package
// workload's registration).
func zeroAttrs(kind string) workload.Workload {
	k, _ := workload.Lookup(kind)
	return k.New()
}
