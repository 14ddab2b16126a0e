package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
	"sigs.k8s.io/yaml"

	"github.com/locksim/locksim/internal/suite"
)

var ciDir = filepath.Join("..", "..", "examples", "ci")

// locksimCommands parses a shell script and returns the arguments of every
// locksim command in it (after "locksim" or "./locksim"), expanded with
// env: variables, arithmetic and quotes as the shell would (globs are left
// as written).
func locksimCommands(t *testing.T, script string, env ...string) [][]string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatalf("not a shell script: %v\n%s", err, script)
	}
	cfg := &expand.Config{Env: expand.ListEnviron(env...)}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		words, err := expand.Fields(cfg, call.Args...)
		if err != nil {
			t.Fatalf("expand %s: %v", script, err)
		}
		if len(words) > 0 && (words[0] == "locksim" || words[0] == "./locksim") {
			out = append(out, words[1:])
		}
		return true
	})
	return out
}

// checkCommand runs locksim's own flag parsing on args, starting nothing,
// and returns the flag values that matter to the examples.
func checkCommand(t *testing.T, args []string) (cmd string, out string, shard suite.Shard, inputs []string) {
	t.Helper()
	if len(args) == 0 {
		t.Fatal("locksim without a command")
	}
	var stderr bytes.Buffer
	switch args[0] {
	case "run":
		f, paths, _, ok := parseRunFlags(args[1:], &stderr)
		if !ok {
			t.Fatalf("locksim %s: refused: %s", strings.Join(args, " "), stderr.String())
		}
		for _, p := range paths {
			if _, err := os.Stat(filepath.Join("..", "..", p)); err != nil {
				t.Errorf("locksim %s: %s is not in the repository: %v", strings.Join(args, " "), p, err)
			}
		}
		if !f.seedSet && !f.shard.Whole() {
			t.Errorf("locksim %s: a shard without --seed", strings.Join(args, " "))
		}
		return "run", f.out, f.shard, paths
	case "explore":
		f, _, ok := parseExploreFlags(args[1:], &stderr)
		if !ok {
			t.Fatalf("locksim %s: refused: %s", strings.Join(args, " "), stderr.String())
		}
		if !f.seedSet {
			t.Errorf("locksim %s: no --seed: the exploration cannot be repeated from its log alone", strings.Join(args, " "))
		}
		return "explore", f.out, f.shard, nil
	case "merge":
		f, dirs, _, ok := parseMergeFlags(args[1:], &stderr)
		if !ok {
			t.Fatalf("locksim %s: refused: %s", strings.Join(args, " "), stderr.String())
		}
		return "merge", f.out, suite.Shard{}, dirs
	}
	t.Fatalf("locksim %s: not a command the examples should run", args[0])
	return
}

// lintWorkflow reads a GitHub Actions workflow, fails on what actionlint
// finds in it, and returns it parsed.
func lintWorkflow(t *testing.T, path string) *actionlint.Workflow {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(path, content, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("actionlint: %s", e.Error())
	}
	w, perrs := actionlint.Parse(content)
	if len(perrs) > 0 {
		t.Fatalf("parse: %v", perrs[0])
	}
	return w
}

// expression replaces the workflow's ${{ matrix.shard }} by a value.
var expression = regexp.MustCompile(`\$\{\{\s*matrix\.shard\s*\}\}`)

func TestTheCIExamplesRunRealLocksimCommands(t *testing.T) {
	t.Run("the GitHub Actions workflow passes actionlint and shards the suite into parts its merge job combines", func(t *testing.T) {
		w := lintWorkflow(t, filepath.Join(ciDir, "github-actions.yml"))
		shardJob, mergeJob := w.Jobs["shard"], w.Jobs["merge"]
		if shardJob == nil || mergeJob == nil {
			t.Fatalf("jobs %v: want shard and merge", w.Jobs)
		}
		row := shardJob.Strategy.Matrix.Rows["shard"]
		var values []string
		for _, v := range row.Values {
			str, ok := v.(*actionlint.RawYAMLString)
			if !ok {
				t.Fatalf("matrix shard value %s is not a scalar", v)
			}
			values = append(values, str.Value)
		}
		if len(mergeJob.Needs) != 1 || mergeJob.Needs[0].Value != "shard" || mergeJob.If == nil || !strings.Contains(mergeJob.If.Value, "always()") {
			t.Errorf("the merge job must need the shards and run even when one failed")
		}
		covered := map[int]int{}
		for _, v := range values {
			var runOut string
			var uploads []string
			for _, st := range shardJob.Steps {
				switch ex := st.Exec.(type) {
				case *actionlint.ExecRun:
					for _, args := range locksimCommands(t, expression.ReplaceAllString(ex.Run.Value, v)) {
						cmd, out, shard, _ := checkCommand(t, args)
						if cmd != "run" || shard.Whole() || shard.N != len(values) {
							t.Errorf("matrix shard %s runs locksim %s: want run --shard K/%d", v, strings.Join(args, " "), len(values))
						}
						covered[shard.K]++
						runOut = out
					}
				case *actionlint.ExecAction:
					if strings.HasPrefix(ex.Uses.Value, "actions/upload-artifact@") {
						uploads = append(uploads, expression.ReplaceAllString(ex.Inputs["path"].Value.Value, v))
					}
				}
			}
			if !slices.Contains(uploads, runOut) {
				t.Errorf("matrix shard %s writes %s but uploads %v", v, runOut, uploads)
			}
		}
		for k := 1; k <= len(values); k++ {
			if covered[k] != 1 {
				t.Errorf("shard %d/%d is run %d times by the matrix", k, len(values), covered[k])
			}
		}
		var downloaded string
		merged := false
		for _, st := range mergeJob.Steps {
			switch ex := st.Exec.(type) {
			case *actionlint.ExecAction:
				if strings.HasPrefix(ex.Uses.Value, "actions/download-artifact@") {
					downloaded = ex.Inputs["path"].Value.Value
				}
			case *actionlint.ExecRun:
				for _, args := range locksimCommands(t, ex.Run.Value) {
					cmd, _, _, inputs := checkCommand(t, args)
					if cmd != "merge" || !slices.Contains(inputs, downloaded) {
						t.Errorf("merge job runs locksim %s: want merge of the downloaded %q", strings.Join(args, " "), downloaded)
					}
					merged = true
				}
			}
		}
		if !merged {
			t.Error("the merge job runs no locksim merge")
		}
	})

	t.Run("the nightly explore workflow passes actionlint, explores on a budget and prints and uploads what it found", func(t *testing.T) {
		w := lintWorkflow(t, filepath.Join(ciDir, "explore-nightly.yml"))
		if w.On == nil || !slices.ContainsFunc(w.On, func(e actionlint.Event) bool { return e.EventName() == "schedule" }) {
			t.Error("the workflow does not run on a schedule")
		}
		job := w.Jobs["explore"]
		if job == nil {
			t.Fatalf("jobs %v: want explore", w.Jobs)
		}
		var out string
		var printed, uploaded bool
		for _, st := range job.Steps {
			switch ex := st.Exec.(type) {
			case *actionlint.ExecRun:
				for _, args := range locksimCommands(t, ex.Run.Value, "GITHUB_RUN_NUMBER=7") {
					cmd, o, _, _ := checkCommand(t, args)
					if cmd != "explore" || !slices.Contains(args, "--budget") {
						t.Errorf("locksim %s: want explore on a --budget", strings.Join(args, " "))
					}
					out = o
				}
				if out != "" && strings.Contains(ex.Run.Value, out+"/") && strings.Contains(ex.Run.Value, "regressions/*.yaml") &&
					strings.Contains(ex.Run.Value, "cat ") {
					printed = st.If != nil && strings.Contains(st.If.Value, "always()")
				}
			case *actionlint.ExecAction:
				if strings.HasPrefix(ex.Uses.Value, "actions/upload-artifact@") && out != "" && ex.Inputs["path"].Value.Value == out {
					uploaded = true
				}
			}
		}
		if out == "" || !printed || !uploaded {
			t.Errorf("explore into %q; its regression files printed (even when it fails) %v; uploaded %v", out, printed, uploaded)
		}
	})

	t.Run("the Kubernetes manifest decodes strictly and its Indexed Job runs one shard per completion index", func(t *testing.T) {
		content, err := os.ReadFile(filepath.Join(ciDir, "kubernetes-indexed-job.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var pvc *corev1.PersistentVolumeClaim
		var jobs []*batchv1.Job
		for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(content), -1) {
			var meta struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal([]byte(doc), &meta); err != nil || meta.Kind == "" {
				t.Fatalf("document %d has no kind: %v", i, err)
			}
			switch meta.Kind {
			case "PersistentVolumeClaim":
				pvc = &corev1.PersistentVolumeClaim{}
				if err := yaml.UnmarshalStrict([]byte(doc), pvc); err != nil {
					t.Fatalf("document %d, a %s: %v", i, meta.Kind, err)
				}
			case "Job":
				j := &batchv1.Job{}
				if err := yaml.UnmarshalStrict([]byte(doc), j); err != nil {
					t.Fatalf("document %d, a %s: %v", i, meta.Kind, err)
				}
				if meta.APIVersion != "batch/v1" {
					t.Errorf("job %s: apiVersion %s", j.Name, meta.APIVersion)
				}
				jobs = append(jobs, j)
			default:
				t.Fatalf("document %d is a %s", i, meta.Kind)
			}
		}
		if pvc == nil || len(jobs) != 2 {
			t.Fatalf("want a volume claim and two jobs, got %v and %d jobs", pvc != nil, len(jobs))
		}
		shards, merge := jobs[0], jobs[1]
		if shards.Spec.CompletionMode == nil || *shards.Spec.CompletionMode != batchv1.IndexedCompletion || shards.Spec.Completions == nil {
			t.Fatalf("job %s is not an Indexed Job with completions", shards.Name)
		}
		n := int(*shards.Spec.Completions)
		mounts := func(j *batchv1.Job, c corev1.Container) string {
			for _, v := range j.Spec.Template.Spec.Volumes {
				if v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != pvc.Name {
					continue
				}
				for _, m := range c.VolumeMounts {
					if m.Name == v.Name {
						return m.MountPath
					}
				}
			}
			return ""
		}
		script := func(c corev1.Container) string { return strings.Join(append(slices.Clone(c.Command), c.Args...), " ") }
		covered := map[int]int{}
		c := shards.Spec.Template.Spec.Containers[0]
		vol := mounts(shards, c)
		if vol == "" {
			t.Fatalf("the shards' container mounts no volume of claim %s", pvc.Name)
		}
		var outs []string
		for index := range n {
			// The container's command is sh -c '<script>'.
			if len(c.Command) < 2 || c.Command[len(c.Command)-1] != "-c" || len(c.Args) != 1 {
				t.Fatalf("the shards run %q %q; want sh -c and one script", c.Command, c.Args)
			}
			cmds := locksimCommands(t, c.Args[0], fmt.Sprintf("JOB_COMPLETION_INDEX=%d", index))
			if len(cmds) != 1 {
				t.Fatalf("index %d runs %d locksim commands: %s", index, len(cmds), script(c))
			}
			cmd, out, shard, _ := checkCommand(t, cmds[0])
			if cmd != "run" || shard.N != n {
				t.Errorf("index %d runs locksim %s: want run --shard K/%d", index, strings.Join(cmds[0], " "), n)
			}
			if !strings.HasPrefix(out, vol+"/") {
				t.Errorf("index %d writes %s, not on the volume at %s", index, out, vol)
			}
			covered[shard.K]++
			outs = append(outs, out)
		}
		for k := 1; k <= n; k++ {
			if covered[k] != 1 {
				t.Errorf("shard %d/%d is run by %d completion indexes", k, n, covered[k])
			}
		}
		mc := merge.Spec.Template.Spec.Containers[0]
		mvol := mounts(merge, mc)
		cmd, _, _, inputs := checkCommand(t, mc.Command[1:])
		if mc.Command[0] != "locksim" || cmd != "merge" || mvol != vol {
			t.Fatalf("the merge job runs %q with the volume at %q", mc.Command, mvol)
		}
		for _, o := range outs {
			if !slices.ContainsFunc(inputs, func(in string) bool { return strings.HasPrefix(o, in) }) {
				t.Errorf("the merge of %v does not read shard output %s", inputs, o)
			}
		}
		if len(merge.Spec.Template.Spec.InitContainers) == 0 {
			t.Error("the merge job does not wait for the shards")
		} else {
			w := merge.Spec.Template.Spec.InitContainers[0]
			if !strings.Contains(script(w), suite.ManifestFile) || !strings.Contains(script(w), fmt.Sprintf("-eq %d", n)) {
				t.Errorf("the merge job's wait %q does not count the %d shards' %s", script(w), n, suite.ManifestFile)
			}
		}
	})
}
